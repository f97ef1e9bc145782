import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths } from './helpers/function-lengths.js';
import { parametersAndMembers } from './helpers/team-parameters.js';

/**
 * The house rules of the source tree, checked on the real files: the domain
 * stays below Slack, no module imports itself through others, and errors are
 * put into words by the one error policy.
 */
const SRC = resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative imports and re-exports of a file (type-only ones too: a circle of types is still a circle), as files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** A file's code without its comments (a word in a comment is not a use). */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
const name = (f: string) => relative(SRC, f);
/** The shared files at the top of src/services/ (every other service is in its feature's room). */
const MAX_LOOSE_SERVICES = 10;
/** The longest a function of the composition may be: it wires, it does not decide. */
const MAX_COMPOSITION_LINES = 120;
/**
 * Functions of the composition still over the limit, each with the most lines it may have (it may only shrink);
 * its entry goes once it fits. None today.
 */
const STILL_LONG: Record<string, number> = {};
/** The names a workspace's id goes by: no per-workspace service takes one (it is bound at composition). */
const WORKSPACE_ID_NAMES = ['teamId', 'team', 'workspaceId'];
/**
 * Functions under src/services/ that take a workspace's id and are no per-workspace service: pure functions of
 * values, shared by every workspace (a ledger key or recipient from its parts, Slack's answer about a person
 * read against a workspace), and the deployment's care set-up (services/admin/care-connecting.ts: implemented by
 * src/deployment/workspace-setup.ts, it serves every workspace and is not composed per workspace). Each with why.
 */
const TAKES_A_TEAM_AND_IS_NO_SERVICE: Record<string, string> = {
  'services/actions/action-posts.ts postRecipient': 'pure: the ledger recipient of a post',
  'services/actions/take-claim.ts takeKey': 'pure: the ledger key of a take',
  'services/notices/change-notices.ts recipientOf': 'pure: the ledger recipient of a DM',
  'services/notices/creator-notices.ts recipientOf': 'pure: the ledger recipient of a DM',
  'services/notices/completion-notices.ts addressRecipient': 'pure: the ledger recipient of an email address',
  'services/shift-work/handover-acceptance.ts handoverRecipient': 'pure: the ledger recipient of a handover post',
  'services/shift-work/morning-summaries.ts summaryKey': 'pure: the ledger key of a summary',
  'services/people/slack-admin.ts isMemberOf': "pure: Slack's flags about a person, read against a workspace",
  'services/people/slack-admin.ts isSlackAdminOf': "pure: Slack's flags about a person, read against a workspace",
  'services/people/admin-rule.ts adminReasonBy': 'the one admin rule, shared with the deployment (deployment/workspace-admins.ts)',
  'services/admin/care-connecting.ts careAccount': "the deployment's care set-up (deployment/workspace-setup.ts)",
  'services/admin/care-connecting.ts connectCare': "the deployment's care set-up (deployment/workspace-setup.ts)",
  'services/admin/care-connecting.ts disconnectCare': "the deployment's care set-up (deployment/workspace-setup.ts)",
};

/** Parameters named as a workspace's id in these files (outside the allowance), and whether `Actor` has a `teamId`. */
function workspaceIdsTaken(among: readonly string[], allowed: Record<string, string>, nameOf: (f: string) => string) {
  const { parameters, members } = parametersAndMembers(among, WORKSPACE_ID_NAMES);
  const key = (p: { file: string; function: string }) => `${nameOf(p.file)} ${p.function}`;
  return {
    taken: parameters.filter((p) => !(key(p) in allowed)).map((p) => `${nameOf(p.file)}:${p.line} ${p.function}(${p.parameter})`),
    unused: Object.keys(allowed).filter((k) => !parameters.some((p) => key(p) === k)),
    actorTeam: members.filter((m) => m.type === 'Actor' && WORKSPACE_ID_NAMES.includes(m.member)).map((m) => `${nameOf(m.file)} Actor.${m.member}`),
    slackDepsMembers: members.filter((m) => m.type === 'SlackDeps').length,
  };
}

describe('the source tree', () => {
  it('reads every module (the check sees the whole tree)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
  });

  it('keeps services below Slack: nothing under src/services imports src/slack', () => {
    const upward = files
      .filter((f) => name(f).startsWith('services/'))
      .flatMap((f) =>
        graph
          .get(f)!
          .filter((t) => name(t).startsWith('slack/'))
          .map((t) => `${name(f)} -> ${name(t)}`),
      );
    expect(upward).toEqual([]);
  });

  it('keeps listeners and the tenancy middleware off the store: no store code, no Store interface, no deps.store (services own it and its audit rows)', () => {
    const slackSide = files.filter((f) => /^slack\/(listeners|tenancy)\//.test(name(f)));
    expect(slackSide.length).toBeGreaterThan(20);
    const reaching = slackSide.flatMap((f) => {
      const code = codeOf(f);
      const found: string[] = [];
      // Type-only imports of the store's data shapes (a DigestFilters) are words, not access; its code and its interface are access.
      for (const m of code.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)from\s+'(\.[^']+)'/gms)) {
        const target = resolve(dirname(f), m[4]!.replace(/\.js$/, '.ts'));
        if (!name(target).startsWith('store/')) continue;
        if (!m[2]) found.push(`${name(f)} imports ${name(target)}`);
        else if (/\bStore\b/.test(m[3]!)) found.push(`${name(f)} names the Store interface`);
      }
      if (/\bdeps\.store\b|\bstore\s*[:,}]/.test(code)) found.push(`${name(f)} is given a store`);
      return found;
    });
    expect(reaching).toEqual([]);
  });

  it("has listeners take the workspace from Bolt's context (workspaceOf), never from the payload's team", () => {
    const listeners = files.filter((f) => name(f).startsWith('slack/listeners/'));
    const fromPayload = listeners.filter((f) => /\.team\?*\.id\b|\bteam_id\b/.test(codeOf(f))).map(name);
    expect(fromPayload).toEqual([]);
    const using = listeners.filter((f) => /\bworkspaceOf\(/.test(codeOf(f)));
    expect(using.length).toBeGreaterThan(20);
  });

  it("has listeners take their workspace's deps from Bolt's context (depsOf), never from a scope kept beside the request", () => {
    // No AsyncLocalStorage (nor any other async_hooks store) and no Proxy standing for "the current workspace's" deps.
    const implicit = files.filter((f) => /\bAsyncLocalStorage\b|node:async_hooks|\bnew Proxy\b[^;]*SlackDeps/.test(codeOf(f))).map(name);
    expect(implicit).toEqual([]);
    // A listener is registered with the app alone: its deps are the request's, read through depsOf (or the buttonListener wrapper).
    const listeners = files.filter((f) => name(f).startsWith('slack/listeners/'));
    const registeredWithDeps = listeners.filter((f) => /export function register\w+\(app: App, deps: SlackDeps\)/.test(codeOf(f))).map(name);
    expect(registeredWithDeps).toEqual([]);
    const reading = listeners.filter((f) => /\bdepsOf\(|\bbuttonListener\b/.test(codeOf(f)));
    expect(reading.length).toBeGreaterThan(20);
  });

  it("imports only downward through the README's layers (a module's own layer or one below it)", () => {
    const LAYERS: Record<string, number> = {
      crypto: 0,
      logging: 0,
      'app-version.ts': 0,
      care: 1,
      store: 1,
      time: 1,
      services: 2,
      slack: 3,
      jobs: 3,
      deployment: 3,
      metrics: 3,
      'health.ts': 3,
      workspaces: 4,
    };
    const layer = (f: string) => LAYERS[name(f).split('/')[0]!] ?? 5; // compose*, main, config, tools
    const upward = files.flatMap((f) =>
      graph
        .get(f)!
        .filter((t) => layer(t) > layer(f))
        .map((t) => `${name(f)} -> ${name(t)}`),
    );
    expect(upward).toEqual([]);
  });

  it('keeps the deployment apart: only the composition, the registry and the tenancy middleware import src/deployment', () => {
    // The deployment's own services (installs, set-up, admins, uninstall, token rotation) take the whole store and
    // name any workspace; a workspace is given them only bound to it, by the composition (compose*.ts, workspaces/).
    const mayImport = (f: string) => /^(compose[\w-]*\.ts|workspaces\/|slack\/tenancy\/|deployment\/)/.test(name(f));
    const room = files.filter((f) => name(f).startsWith('deployment/'));
    expect(room.length).toBeGreaterThan(5);
    const reaching = files
      .filter((f) => !mayImport(f))
      .flatMap((f) =>
        graph
          .get(f)!
          .filter((t) => room.includes(t))
          .map((t) => `${name(f)} -> ${name(t)}`),
      );
    expect(reaching).toEqual([]);
    // Not met by an empty room: the composition and the registry build from it.
    const users = new Set(files.filter((f) => !room.includes(f) && graph.get(f)!.some((t) => room.includes(t))).map(name));
    expect([...users].sort()).toEqual(expect.arrayContaining(['compose-multi.ts', 'compose.ts', 'workspaces/registry.ts']));
  });

  it('has a tick reach its job without climbing: nothing under src/jobs imports the composition (workspaces/, compose*.ts)', () => {
    // The scheduler finds a run's job in the job table (jobs/job-table.ts) the registry fills; a miss asks the
    // composition through the port it was given at start (`jobFor`), never by an import.
    const jobs = files.filter((f) => name(f).startsWith('jobs/'));
    expect(jobs.map(name)).toEqual(expect.arrayContaining(['jobs/workspace-scheduler.ts', 'jobs/job-table.ts']));
    const climbing = jobs.flatMap((f) =>
      graph
        .get(f)!
        .filter((t) => /^(workspaces\/|compose[\w-]*\.ts$|main\.ts$)/.test(name(t)))
        .map((t) => `${name(f)} -> ${name(t)}`),
    );
    expect(climbing).toEqual([]);
  });

  it('keeps the care client and the store free of the app (the store may use crypto, and crypto nothing of ours)', () => {
    const outward = files
      .filter((f) => /^(care|store|crypto)\//.test(name(f)))
      .flatMap((f) =>
        graph
          .get(f)!
          .filter((t) => {
            const [from, to] = [name(f).split('/')[0], name(t).split('/')[0]];
            const allowed = to === from || (from !== 'crypto' && to === 'logging') || (from === 'store' && to === 'crypto');
            return !allowed;
          })
          .map((t) => `${name(f)} -> ${name(t)}`),
      );
    expect(outward).toEqual([]);
  });

  it('ships the product alone: nothing under src/ imports the development tools under dev/ (sandbox, Slack fake, playground, demo)', () => {
    const DEV = resolve(__dirname, '../dev');
    const reaching = files.flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith(`${DEV}/`))
        .map((t) => `${name(f)} -> ${relative(DEV, t)}`),
    );
    expect(reaching).toEqual([]);
    expect(files.some((f) => /^(sandbox|slack-fake|playground|demo)\//.test(name(f)))).toBe(false);
  });

  it('keeps services/ in rooms by feature: at most 10 shared files loose at its top, the rest in a room (docs/architecture.md)', () => {
    // A newcomer looks for a feature (actions, notices, urgent work, shift work, people, reassign, admin, evidence,
    // read caches) and finds one folder; only what every room shares (the action model and views, errors, renderers,
    // …) stays at the top. A new file goes in its feature's room; this number may only fall.
    const loose = readdirSync(join(SRC, 'services'), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => e.name);
    expect(loose.length, `loose in services/: ${loose.sort().join(', ')}`).toBeLessThanOrEqual(MAX_LOOSE_SERVICES);
  });

  it('has no import circle anywhere', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 'open') circles.push([...stack.slice(stack.indexOf(t)), t].map(name).join(' -> '));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('puts errors into words in one place: only the error policy and its modal helper use describeError', () => {
    const policy = ['services/errors.ts', 'slack/listeners/error-policy.ts', 'slack/listeners/modal-flow.ts'];
    const others = files.filter((f) => !policy.includes(name(f)) && /\bdescribeError\b/.test(codeOf(f))).map(name);
    expect(others).toEqual([]);
  });

  it('writes open-then-fill once: only the modal helper shows the "Loading…" view', () => {
    const helper = ['slack/views/simple-modals.ts', 'slack/listeners/modal-flow.ts'];
    const others = files.filter((f) => !helper.includes(name(f)) && /\bloadingModal\b/.test(codeOf(f))).map(name);
    expect(others).toEqual([]);
  });

  it('keeps the composition a wiring: no function in workspaces/ or compose*.ts is longer than 120 lines', () => {
    // Policy (what follows a write, who gets an alert, what Retry runs) lives in its feature's room; the composition
    // calls one compose function per feature (workspaces/compose/) and wires what they return.
    const composition = files.filter((f) => /^(compose[\w-]*\.ts|workspaces\/)/.test(name(f)));
    expect(composition.length).toBeGreaterThan(5);
    const lengths = functionLengths(composition);
    expect(lengths.some((f) => f.name === 'composeWorkspace')).toBe(true);
    const key = (f: (typeof lengths)[number]) => `${name(f.file)} ${f.name}`;
    const long = lengths
      .filter((f) => f.lines > (STILL_LONG[key(f)] ?? MAX_COMPOSITION_LINES))
      .map((f) => `${name(f.file)}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long).toEqual([]);
    // An allowance goes as soon as its function fits.
    const fitting = Object.keys(STILL_LONG).filter((k) => !lengths.some((f) => key(f) === k && f.lines > MAX_COMPOSITION_LINES));
    expect(fitting).toEqual([]);
  });

  it("binds a workspace once: no per-workspace service (src/services/, SlackDeps) takes a workspace's id, and the actor is the person alone", () => {
    const perWorkspace = files.filter((f) => name(f).startsWith('services/') || name(f) === 'slack/deps.ts');
    expect(perWorkspace.length).toBeGreaterThan(100);
    const found = workspaceIdsTaken(perWorkspace, TAKES_A_TEAM_AND_IS_NO_SERVICE, name);
    expect(found.slackDepsMembers).toBeGreaterThan(20); // SlackDeps was read, member by member
    expect(found.taken).toEqual([]);
    expect(found.actorTeam).toEqual([]);
    // An allowance goes as soon as its function takes no team.
    expect(found.unused).toEqual([]);
  });

  it("finds a workspace's id taken by a function, a method, a method of an interface or a function type, and an actor that carries one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-parameters-'));
    try {
      const file = join(dir, 'sample.ts');
      writeFileSync(
        file,
        [
          'export interface Actor { userId: string; teamId: string }',
          'export interface SlackDeps { refresh(team: string): Promise<void>; setup: (workspaceId: string) => void; fine(userId: string): void }',
          'export function createThing(deps: { teamId: () => Promise<string> }) {',
          '  return { async read(actor: Actor, teamId: string) { return [actor, teamId, deps]; } };',
          '}',
          'export const keyOf = (teamId: string, id: string) => teamId + id;',
        ].join('\n'),
      );
      const found = workspaceIdsTaken([file], { 'sample.ts keyOf': 'pure' }, (f) => relative(dir, f));
      expect(found.taken).toEqual(['sample.ts:2 refresh(team)', 'sample.ts:2 setup(workspaceId)', 'sample.ts:4 read(teamId)']);
      expect(found.actorTeam).toEqual(['sample.ts Actor.teamId']);
      expect(found.unused).toEqual([]);
      expect(workspaceIdsTaken([file], { 'sample.ts gone': 'pure' }, (f) => relative(dir, f)).unused).toEqual(['sample.ts gone']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('measures a function by the lines of its body, as the compiler parses it (a 121-line body is too long, 120 is not)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'long-function-'));
    try {
      const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i}; // } not a brace that counts`).join('\n');
      const file = join(dir, 'sample.ts');
      writeFileSync(file, `export function fits() {\n${body(120)}\n}\nexport const tooLong = () => {\n${body(121)}\n};\n`);
      const lengths = functionLengths([file]).map((f) => [f.name, f.lines]);
      expect(lengths).toEqual([
        ['fits', 120],
        ['tooLong', 121],
      ]);
      expect(lengths.filter(([, lines]) => (lines as number) > MAX_COMPOSITION_LINES).map(([n]) => n)).toEqual(['tooLong']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
