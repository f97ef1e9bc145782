/**
 * Isolation one floor up from the store: what a workspace's listeners are given (its SlackDeps), and every
 * service and job composed for it, reach that workspace only. Brightwater (T0CARE) and Sunrise (T0SUN) are
 * installed and connected; Sunrise has its own time zone, care web link, installer and care account. Every
 * member of Brightwater's deps, services and jobs is read from the objects themselves (a member added later is
 * walked too) and
 * - none may take a workspace id (a parameter `teamId`/`workspaceId`/`team`/`workspace`): the workspace is bound
 *   when it is composed;
 * - each is called with Sunrise named in every way a caller could (its id as any argument, an actor of Sunrise,
 *   an object naming it), and nothing of Sunrise comes back (its settings, installer, time zone, care account),
 *   nothing of Sunrise's rows changes (its settings, installation, care connection, audit, links, cursors...)
 *   and nothing is sent to Sunrise's Slack;
 * - each of Brightwater's jobs is run, and Sunrise's rows and Slack stay as they were.
 * Then Sunrise's people see their workspace as it was. On SQLite and on PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/logging/logger.js';
import type { SlackDeps } from '../../src/slack/deps.js';
import type { Store } from '../../src/store/index.js';
import type { Workspace } from '../../src/workspaces/compose-workspace.js';
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/pg.js';
import { depsMembers, type DepsMember, workspaceParameters } from './fixtures/deps-members.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careCommand, installBoth, type MultiHarness, seenByPeople, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';
const SUN_ZONE = 'Pacific/Chatham';
const SUN_LINK = 'https://sunrise-care.example/actions/{id}';

/** The members that are not plain objects of functions, each bound to the workspace when it is built. */
const OPAQUE = [
  // Brightwater's own bot token: Slack answers it about Brightwater only.
  'slack: WebClient',
  // This instance's Home tab publish queues (keys are Brightwater's people).
  'homeQueues: Map',
];

/** Every row the deployment keeps of a workspace, read past every workspace's deps. */
async function rowsOf(store: Store, team: string): Promise<unknown> {
  return {
    installation: await store.getInstallation({ isEnterpriseInstall: false, teamId: team }),
    care: await store.getCareConnection(team),
    settings: await store.getWorkspaceSettings(team),
    cursors: await store.listCursors('', team),
    summaries: await store.listEnabledSummarySettings(team),
    routes: await store.listRoutes(team),
    audit: await store.listAudit({ teamId: team }),
    links: await store.listLinks(team),
    requests: await store.listLinkRequests({ teamId: team }),
    subscriptions: await store.listSubscriptions(team),
    homeSettings: await store.listHomeSettings(team),
    deliveries: await store.listDeliveries({ teamId: team }),
  };
}

function text(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(value, (_k, v: unknown) => {
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[seen]';
          seen.add(v);
        }
        return typeof v === 'bigint' ? String(v) : v;
      }) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

/** A member's answer, or what it threw, within 3 s (a call left running is judged by the rows read after it). */
async function answerOf(member: DepsMember, args: unknown[]): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('(no answer within 3 s)'), 3_000);
  });
  try {
    const answer = Promise.resolve()
      .then(() => member.fn(...args))
      .then(text, text);
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function workspaceOf(h: MultiHarness, team: string): Promise<Workspace> {
  const lookup = await h.app.registry.get(team);
  if (lookup.state !== 'ready') throw new Error(`${team} is ${lookup.state}`);
  return lookup.workspace;
}

async function depsOf(h: MultiHarness, team: string): Promise<SlackDeps> {
  return (await workspaceOf(h, team)).deps;
}

/** A workspace's services and jobs as one object to walk (each job by its name). */
function servicesAndJobs(workspace: Workspace): object {
  return { services: workspace.services, jobs: Object.fromEntries(workspace.jobs.map((j) => [j.name, j])) };
}

/** The members of a workspace's services and jobs that its deps do not already hold (those are walked as deps). */
function serviceMembers(workspace: Workspace): { functions: DepsMember[]; all: DepsMember[]; opaque: string[] } {
  const ofDeps = new Set(depsMembers(workspace.deps).functions.map((m) => m.fn));
  const { functions: all, opaque } = depsMembers(servicesAndJobs(workspace));
  return { functions: all.filter((m) => !ofDeps.has(m.fn)), all, opaque };
}

/** The members that are not plain objects of functions among a workspace's services and jobs, each bound to it when built. */
const SERVICES_OPAQUE = [
  // The client the delivery ledger posts with: Brightwater's bot token, so Slack answers it about Brightwater only.
  'services.core.poster: WebClient',
];

/**
 * Both installed and connected; Sunrise with its own time zone and care web link (as its admin set them), and
 * its installer's "what next" DM sent (so nothing of Sunrise's is still on its way when the walk begins).
 */
async function twoWorkspaces(h: MultiHarness): Promise<void> {
  await installBoth(h);
  expect(await careCommand(h, SUN, 'erin', `settings timezone ${SUN_ZONE}`)).toContain(SUN_ZONE);
  expect(await careCommand(h, SUN, 'erin', `settings web-link ${SUN_LINK}`)).toContain('Cards now link');
  const sun = h.fake.workspace(SUN);
  await sun.waitFor(async () => (await h.app.store.listDeliveries({ teamId: SUN })).every((d) => d.state === 'sent') || undefined, {
    timeoutMs: 10_000,
    message: "Sunrise's install DM is still on its way",
  });
}

/** A secret's digest: a changed token or key is still seen, and none is printed when the contract fails. */
const SECRETS = new Set(['token', 'refreshToken', 'apiKey', 'apiSecret']);
const hidden = (key: string, value: unknown) =>
  SECRETS.has(key) && typeof value === 'string' ? `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 12)}` : value;

/** All of Sunrise one could reach: its rows, every Web API call made with its tokens, and what its people see. */
async function sunriseState(h: MultiHarness): Promise<string> {
  const sun = h.fake.workspace(SUN);
  return JSON.stringify({ rows: await rowsOf(h.app.store, SUN), slackCalls: sun.calls().length, seen: seenByPeople(sun) }, hidden);
}

/** Sunrise named every way a caller could: its id in any place, an actor of Sunrise, an object naming it. */
function sunriseCalls(h: MultiHarness): { calls: unknown[][]; sunrise: string[] } {
  const sunInstaller = h.fake.workspace(SUN).user('erin')!.id;
  const careAdmin = h.fake.workspace(CARE).user('amelia')!.id;
  const sunAccount = h.sandbox.accounts[1]!.accountId;
  // What only Sunrise's rows hold: seen in an answer of Brightwater's members, it came from Sunrise.
  const sunrise = [SUN_ZONE, new URL(SUN_LINK.replace('{id}', '1')).host, sunInstaller, sunAccount];
  expect(sunrise.some((m) => h.sandbox.accounts[0]!.accountId.includes(m))).toBe(false);
  // As Brightwater's admin: a query, a patch that would move its time zone, an admin added.
  const naming = {
    teamId: SUN,
    workspaceId: SUN,
    userId: careAdmin,
    isEnterpriseInstall: false,
    kind: 'added',
    person: 'U0PROBE',
    timeZone: 'Asia/Kathmandu',
  };
  const calls: unknown[][] = [
    [SUN, careAdmin, naming, naming],
    [{ teamId: SUN, userId: careAdmin }, SUN, naming, naming],
    [naming, SUN, naming, naming],
    [careAdmin, naming, naming, naming],
  ];
  return { calls, sunrise };
}

/** Call every member in every way Sunrise can be named: what came back of Sunrise's, and what of Sunrise's changed. */
async function walk(h: MultiHarness, functions: DepsMember[]): Promise<string[]> {
  const { calls, sunrise } = sunriseCalls(h);
  const reached: string[] = [];
  let before = await sunriseState(h);
  // What closes a client (the care client's `close`) last: the members after it are walked with it open.
  const closing = (m: DepsMember) => /(^|\.)close$/.test(m.path);
  for (const member of [...functions.filter((m) => !closing(m)), ...functions.filter(closing)]) {
    for (const args of calls) {
      const answer = await answerOf(member, args);
      const seen = sunrise.filter((m) => answer.includes(m));
      if (seen.length) reached.push(`${member.path} read Sunrise's ${seen.join(', ')}`);
    }
    const after = await sunriseState(h);
    if (after !== before) reached.push(`${member.path} changed Sunrise's rows or Slack`);
    before = after;
  }
  return reached;
}

/** Sunrise's people see their workspace as they left it. */
async function sunriseAsLeft(h: MultiHarness): Promise<void> {
  const settings = await careCommand(h, SUN, 'erin', 'settings');
  expect(settings).toContain(`Time zone: ${SUN_ZONE}.`);
  expect(settings).toContain(SUN_LINK);
  const admins = await careCommand(h, SUN, 'erin', 'admins');
  expect(admins).toMatch(/@erin.*first installed Care Actions/s);
  expect(admins).not.toContain('U0PROBE');
  expect(await careCommand(h, SUN, 'erin', 'whoami')).not.toMatch(/not connected/);
}

const named = (members: DepsMember[]) =>
  members.filter((m) => workspaceParameters(m).length > 0).map((m) => `${m.path}(${m.parameters.map((p) => p.names.join('|')).join(', ')})`);

function isolationOfDeps(start: () => Promise<{ h: MultiHarness; close(): Promise<void> }>): void {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.reverse()) await o.close();
    opened.length = 0;
  });

  it("names no workspace: no member of a workspace's deps, services or jobs takes a workspace id, and every member is walked", async () => {
    const run = await start();
    opened.push(run);
    const { h } = run;
    await twoWorkspaces(h);
    const workspace = await workspaceOf(h, CARE);
    const deps = workspace.deps;
    const { functions, opaque } = depsMembers(deps);
    expect(functions.length).toBeGreaterThan(100);
    expect(opaque.sort()).toEqual([...OPAQUE].sort());
    // The deployment's store is nowhere among them.
    expect(Object.values(deps).includes(h.app.store)).toBe(false);
    expect(named(functions)).toEqual([]);

    const services = serviceMembers(workspace);
    expect(services.functions.length).toBeGreaterThan(50);
    expect(services.opaque.sort()).toEqual([...SERVICES_OPAQUE].sort());
    // Every job's body is among them, and every feature's services.
    for (const job of workspace.jobs) expect(services.functions.map((m) => m.path)).toContain(`jobs.${job.name}.run`);
    const features = Object.keys(workspace.services);
    expect(features.filter((f) => !services.all.some((m) => m.path.startsWith(`services.${f}.`)))).toEqual([]);
    expect(named(services.functions)).toEqual([]);
  });

  it("reaches nothing of another workspace: every member of its deps called with Sunrise named reads and changes nothing of Sunrise's", async () => {
    const run = await start();
    opened.push(run);
    const { h } = run;
    await twoWorkspaces(h);
    const careAdmin = h.fake.workspace(CARE).user('amelia')!.id;

    const { functions } = depsMembers(await depsOf(h, CARE));
    expect(await walk(h, functions)).toEqual([]);

    // The walk's calls did change things, in Brightwater: its time zone and an admin its admin added, audited there.
    expect(await careCommand(h, CARE, 'amelia', 'settings')).toContain('Time zone: Asia/Kathmandu.');
    expect(await careCommand(h, CARE, 'amelia', 'admins')).toContain('U0PROBE');
    expect((await h.app.store.listAudit({ teamId: CARE, verb: 'workspace.settings' })).map((a) => a.userId)).toContain(careAdmin);
    await sunriseAsLeft(h);
  }, 120_000);

  it("reaches nothing of another workspace: every service and job of a workspace, called with Sunrise named or run, reads and changes nothing of Sunrise's", async () => {
    const run = await start();
    opened.push(run);
    const { h } = run;
    await twoWorkspaces(h);
    const workspace = await workspaceOf(h, CARE);

    // Each of Brightwater's jobs run as the scheduler runs it (a Web API call of Sunrise's would be seen).
    const reached: string[] = [];
    const logger = memoryLogger('error');
    let before = await sunriseState(h);
    for (const job of workspace.jobs) {
      await job.run({ signal: new AbortController().signal, logger });
      const after = await sunriseState(h);
      if (after !== before) reached.push(`job ${job.name} changed Sunrise's rows or Slack`);
      before = after;
    }
    // Then every member of its services and jobs (not already its deps'), Sunrise named in every way.
    reached.push(...(await walk(h, serviceMembers(workspace).functions)));
    expect(reached).toEqual([]);
    await sunriseAsLeft(h);
  }, 180_000);
}

describe("a workspace's deps reach only that workspace, on SQLite", () => {
  isolationOfDeps(async () => {
    const h = await startMultiHarness();
    return { h, close: () => h.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("a workspace's deps reach only that workspace, on PostgreSQL", () => {
  isolationOfDeps(async () => {
    const schema = await createTestSchema(TEST_DATABASE_URL ?? '', 'deps_isolation');
    const h = await startMultiHarness({ databaseUrl: urlWithSchema(TEST_DATABASE_URL ?? '', schema.name) });
    return {
      h,
      close: async () => {
        await h.close();
        await schema.drop();
      },
    };
  });
});
