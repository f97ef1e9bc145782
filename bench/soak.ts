/**
 * Soak: the app in its own process under a steady, realistic load for a long
 * time; does its memory (RSS, heap) or its set of open handles grow?
 *
 *   npx tsx bench/soak.ts                 # 30 minutes (npm run bench:soak)
 *   npx tsx bench/soak.ts --minutes 2     # quick check
 *   options: --minutes N, --warmup-seconds N (default min(60, 25% of the run)), --health-per-sec N (default 2),
 *            --log-level debug|info|warn (the app's, default info), --app-log FILE (keep the app's log lines)
 *
 * This process runs the sandbox care API (demo data, 10 req/s per key, as in
 * production) and the Slack fake (default post rate limits). The app runs as
 * `npm start` would, from src/main.ts with its environment variables, in a child
 * process: `node --expose-gc --import tsx --import ./bench/soak-probe.ts src/main.ts`
 * (SQLite in a temp DATA_DIR, COMPLETION_POLL_SECONDS=5). The probe writes the
 * child's process.memoryUsage() before and after a forced GC and its open
 * handles by type every 10 s; RSS is also read from /proc/<pid>/status.
 *
 * Before the app starts, the store gets what an admin would have set up
 * (dev/demo/setup.ts): Amelia, Sophie, Priya and Oliver linked to their care
 * users, #care-team's digest, #care-leads' urgent-only digest with live alerts,
 * and the "Home care coordinators" group routed to #care-team.
 *
 * Load, until the time is up (every loop bounded in count and time):
 * - the app's own scheduler: the changes poll every 5 s;
 * - a command every 3 s in #care-team from one of the linked people (mine, due,
 *   show, find, help, whoami, locations, literature), every 10th from Val, who
 *   has no care account; each waits for its answer;
 * - every 15 s an action created in the care system's web app (sandbox
 *   controls), assigned to a linked person, notifying their group; every 4th is
 *   marked urgent a second later (an alert in #care-leads); completed in the web
 *   app 11 s later (the poll finds it: completion notices by DM);
 * - every 20 s an action created in the web app and then completed through
 *   Slack in #general: `/care done <no>`, or `/care mine` and a click on Complete;
 * - a Home tab opening every 10 s;
 * - GET /healthz, --health-per-sec times a second (each probe also costs the app
 *   one care API request: /healthz checks the API).
 *
 * Prints a markdown table of start (after warm-up), middle and end, and whether
 * memory grows (post-GC heap and RSS: change and linear slope over the second half).
 * Cleans up (child, servers, temp dir) on success, failure and Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createCareClient } from '../src/care/index.js';
import { careWorkspace } from '../dev/demo/care-workspace.js';
import { startSandbox, type RunningSandbox } from '../dev/sandbox/index.js';
import { createSlackDriver, type SlackDriver, type SlackFake, startSlackFake } from '../dev/slack-fake/index.js';
import Database from 'better-sqlite3';
import { openStore, SQLITE_FILE_NAME } from '../src/store/index.js';

// ---------------------------------------------------------------- options

function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got ${raw})`);
  return n;
}

const MINUTES = argNumber('minutes', 30);
const DURATION_MS = MINUTES * 60_000;
const WARMUP_MS = argNumber('warmup-seconds', Math.min(60, (DURATION_MS * 0.25) / 1000)) * 1000;
const HEALTH_PER_SEC = argNumber('health-per-sec', 2);
function argString(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
/** The app's LOG_LEVEL (default info) and, optionally, a file to keep its log lines in. */
const APP_LOG_LEVEL = argString('log-level') ?? 'info';
const APP_LOG_FILE = argString('app-log');
const SAMPLE_MS = 10_000;
const POLL_SECONDS = 5;
const RATE = 10;
const TZ = 'Europe/London';
const SIGNING_SECRET = 'soak-signing-secret';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const PEOPLE = ['U0AMELIA', 'U0SOPHIE', 'U0PRIYA', 'U0OLIVER'] as const;
const VISITOR = 'U0VISITOR';
/** The notification group each linked person is in (Amelia by email_to in "Willow Bank seniors", by user in "Home managers"). */
const GROUP_OF: Record<(typeof PEOPLE)[number], string> = {
  U0AMELIA: 'Home managers',
  U0SOPHIE: 'Willow Bank seniors',
  U0PRIYA: 'Heather Lodge nurses',
  U0OLIVER: 'Home care coordinators',
};
const ROUTED_GROUP = 'Home care coordinators';
const FIND_WORDS = ['medication', 'review', 'call', 'fees', 'family', 'brochure', 'visit'];

// ---------------------------------------------------------------- small helpers

const stop = new AbortController();
const stopping = () => stop.signal.aborted;
/** Sleeps, but wakes at once when the run is stopped. */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    if (stopping()) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      stop.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    stop.signal.addEventListener('abort', onAbort, { once: true });
  });
const MB = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1048576).toFixed(1)} MB`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'n/a');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Least-squares slope (units per ms) of y over t. */
function slope(points: { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

// ---------------------------------------------------------------- counters

const counts = {
  commands: 0,
  commandsAnswered: 0,
  commandsUnanswered: 0,
  homeOpens: 0,
  homeNotAcked: 0,
  webCompletions: 0,
  urgentMarks: 0,
  slackDone: 0,
  slackClicks: 0,
  slackCompletionFailed: 0,
  health: 0,
  healthOk: 0,
  healthNot200: 0,
  healthFailed: 0,
  controlErrors: 0,
  loopErrors: 0,
};
const answerMs: number[] = [];
/** Actions marked urgent in the web app: id -> when marked and completed (epoch ms). */
const urgentMarked = new Map<string, { markedAt: number; completedAt?: number }>();
const healthMs: number[] = [];
const benchErrors = new Map<string, number>();
function benchError(where: string, err: unknown): void {
  const key = `${where}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 160);
  benchErrors.set(key, (benchErrors.get(key) ?? 0) + 1);
}

interface AppLog {
  byLevel: Record<string, number>;
  /** warn/error messages -> count (level-prefixed). */
  problems: Map<string, number>;
  other: string[];
  otherCount: number;
}
const appLog: AppLog = { byLevel: {}, problems: new Map(), other: [], otherCount: 0 };
const appLogFile = APP_LOG_FILE ? createWriteStream(APP_LOG_FILE) : undefined;
function onAppLine(line: string): void {
  appLogFile?.write(`${line}\n`);
  if (!line.trim()) return;
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; error?: unknown };
    const level = entry.level ?? '?';
    appLog.byLevel[level] = (appLog.byLevel[level] ?? 0) + 1;
    if (level === 'warn' || level === 'error') {
      const err = entry.error as { message?: string } | undefined;
      const key = `${level}: ${entry.msg ?? ''}${err?.message ? ` (${err.message})` : ''}`.slice(0, 200);
      appLog.problems.set(key, (appLog.problems.get(key) ?? 0) + 1);
    }
  } catch {
    appLog.otherCount++;
    if (appLog.other.length < 10) appLog.other.push(line.slice(0, 200));
  }
}

/** Deliveries the app made, as the fake holds them (message metadata names the ledger row). */
function countNotices(fake: SlackFake) {
  const byKind: Record<string, number> = {};
  let dms = 0;
  let channelPosts = 0;
  let duplicates = 0;
  const seen = new Set<string>();
  const urgentAlerted = new Set<string>();
  for (const channel of fake.state.channels) {
    for (const m of fake.state.messages[channel.id] ?? []) {
      const meta = m.metadata as { event_type?: string; event_payload?: { delivery_id?: unknown; kind?: unknown } } | undefined;
      if (meta?.event_type !== 'care_delivery') continue;
      const id = String(meta.event_payload?.delivery_id);
      if (seen.has(id)) duplicates++;
      seen.add(id);
      const kind = String(meta.event_payload?.kind);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      if (kind === 'urgent') urgentAlerted.add(String((meta.event_payload as { action_id?: unknown }).action_id));
      if (channel.is_im) dms++;
      else channelPosts++;
    }
  }
  const urgentMissed = [...urgentMarked].filter(([id]) => !urgentAlerted.has(id)).map(([id, at]) => ({ id, ...at }));
  return { dms, channelPosts, duplicates, byKind, urgentMissed };
}

// ---------------------------------------------------------------- samples

interface ProbeLine {
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  heapUsedAfterGc?: number;
  handles: Record<string, number>;
  elu: number;
}
interface Row {
  atMs: number;
  vmRss?: number;
  vmHwm?: number;
  probe?: ProbeLine;
  counts: typeof counts;
  notices: ReturnType<typeof countNotices>;
  errors: number;
  /** SQLite files in DATA_DIR by name (the database, its WAL and shared memory). */
  dbFiles: Record<string, number>;
}

function readVm(pid: number): { vmRss?: number; vmHwm?: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? Number(m[1]) * 1024 : undefined;
    };
    return { vmRss: kb('VmRSS'), vmHwm: kb('VmHWM') };
  } catch {
    return {};
  }
}

async function dbFiles(dir: string): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.endsWith('.jsonl')) continue;
    sizes[name] = (await stat(join(dir, name)).catch(() => ({ size: 0 }))).size;
  }
  return sizes;
}

/** Rows per table of the app's SQLite file (read only, while the app runs). */
function tableRows(dir: string): Record<string, number> {
  const db = new Database(join(dir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
    return Object.fromEntries(tables.map((t) => [t.name, (db.prepare(`SELECT COUNT(*) AS n FROM "${t.name}"`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

function totalErrors(): number {
  return (
    counts.commandsUnanswered +
    counts.homeNotAcked +
    counts.slackCompletionFailed +
    counts.healthNot200 +
    counts.healthFailed +
    counts.controlErrors +
    counts.loopErrors +
    (appLog.byLevel.error ?? 0)
  );
}

// ---------------------------------------------------------------- the run

interface Running {
  sandbox?: RunningSandbox;
  fake?: SlackFake;
  child?: ChildProcess;
  childExited?: Promise<void>;
  dataDir?: string;
}
const running: Running = {};

async function main(): Promise<number> {
  running.dataDir = await mkdtemp(join(tmpdir(), 'bench-soak-'));
  const dataDir = running.dataDir;
  const sampleFile = join(dataDir, 'probe.jsonl');
  const sandbox = (running.sandbox = await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: RATE }));
  const fake = (running.fake = await startSlackFake({ workspace: careWorkspace(), rateLimits: false })); // until the app paces itself (issue 25)
  const control = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      counts.controlErrors++;
      throw new Error(`control ${method} ${path}: ${res.status} ${text.slice(0, 100)}`);
    }
    return (text ? JSON.parse(text) : null) as any;
  };

  // ---- What an admin set up before (as dev/demo/setup.ts), straight in the store, before the app starts.
  const care = createCareClient({ baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: RATE });
  const careUserOf = new Map<string, string>();
  const groupId = new Map<string, string>();
  try {
    const users = await care.users.collect({ attributes: ['_id', 'email'], per_page: 100, limit: 100 });
    for (const id of PEOPLE) {
      const email = fake.user(id)!.profile.email!.toLowerCase();
      const hit = users.find((u) => u.email?.toLowerCase() === email);
      if (!hit) throw new Error(`no care user for ${email}`);
      careUserOf.set(id, hit._id);
    }
    for (const g of await care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })) groupId.set(g.name ?? '', g._id);
  } finally {
    await care.close();
  }
  const store = await openStore({ dataDir });
  try {
    const teamId = fake.teamId;
    for (const id of PEOPLE) await store.upsertLink({ teamId, slackUserId: id, careUserId: careUserOf.get(id)!, method: 'email', linkedBy: null });
    const common = { teamId, time: '08:00', days: 'weekdays' as const, timeZone: TZ, postWhenEmpty: true, setUpBy: 'U0AMELIA' };
    await store.upsertSubscription({ ...common, channelId: 'C0CARE', filters: {}, showTaskText: false, urgentAlerts: false, channelPrivate: false });
    await store.upsertSubscription({
      ...common,
      channelId: 'C0LEADS',
      filters: { urgentOnly: true },
      showTaskText: true,
      urgentAlerts: true,
      channelPrivate: true,
    });
    await store.upsertRoute({ teamId, groupId: groupId.get(ROUTED_GROUP)!, groupName: ROUTED_GROUP, channelId: 'C0CARE', setUpBy: 'U0AMELIA' });
  } finally {
    await store.close();
  }

  // ---- The app, in its own process.
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_APP_TOKEN: '',
    SLACK_API_URL: fake.apiUrl,
    CARE_API_BASE_URL: sandbox.url,
    CARE_ACCOUNT_ID: sandbox.credentials.accountId,
    CARE_API_KEY: sandbox.credentials.apiKey,
    CARE_API_SECRET: sandbox.credentials.apiSecret,
    CARE_RATE_LIMIT: String(RATE),
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    APP_TIMEZONE: TZ,
    ADMIN_SLACK_USER_IDS: 'U0AMELIA',
    COMPLETION_POLL_SECONDS: String(POLL_SECONDS),
    INSTANCE_ID: 'soak',
    PORT: String(port),
    LOG_LEVEL: APP_LOG_LEVEL,
    SOAK_SAMPLE_FILE: sampleFile,
    SOAK_SAMPLE_MS: String(SAMPLE_MS),
  };
  const child = (running.child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', './bench/soak-probe.ts', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let childGone = false;
  running.childExited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      childGone = true;
      if (!stopping()) {
        benchError('app', new Error(`the app exited during the run (code ${code}, signal ${signal})`));
        stop.abort();
      }
      resolve();
    }),
  );
  createInterface({ input: child.stdout! }).on('line', onAppLine);
  createInterface({ input: child.stderr! }).on('line', onAppLine);
  const pid = child.pid!;
  const base = `http://127.0.0.1:${port}`;

  // Ready when /healthz answers 200 (tsx compiles on start; give it a minute on a busy machine).
  for (const deadline = Date.now() + 60_000; ; ) {
    if (childGone) throw new Error(`the app exited on start: ${[...appLog.problems.keys(), ...appLog.other].join(' | ')}`);
    const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the app did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const driver: SlackDriver = createSlackDriver({ fake, eventsUrl: `${base}/slack/events`, signingSecret: SIGNING_SECRET });
  process.stdout.write(
    `soak: app pid ${pid} on port ${port}; ${MINUTES} min (warm-up ${Math.round(WARMUP_MS / 1000)} s), poll ${POLL_SECONDS} s, health ${HEALTH_PER_SEC}/s\n`,
  );

  const t0 = Date.now();
  const endAt = t0 + DURATION_MS;
  const timer = setTimeout(() => stop.abort(), DURATION_MS);
  /** A loop that runs `fn` every `periodMs` until the run ends; bounded in count as well as time. */
  const loop = async (name: string, periodMs: number, fn: (i: number) => Promise<void>, offsetMs = 0) => {
    await sleep(offsetMs);
    const max = Math.ceil(DURATION_MS / periodMs) + 1;
    for (let i = 0; i < max && !stopping() && Date.now() < endAt; i++) {
      const started = Date.now();
      try {
        await fn(i);
      } catch (err) {
        if (stopping()) break;
        counts.loopErrors++;
        benchError(name, err);
      }
      await sleep(Math.max(0, periodMs - (Date.now() - started)));
    }
  };
  /** Waits for the answer to a slash command on its response_url; the ts of the answer, or undefined. */
  const answerOf = async (responseUrl: string | undefined, timeoutMs = 20_000) => {
    if (!responseUrl) return undefined;
    const posted = await fake
      .waitFor(() => fake.state.responseUrls.find((r) => r.url === responseUrl)?.lastPosted, { timeoutMs, intervalMs: 100 })
      .catch(() => undefined);
    return posted;
  };
  const createInWebApp = async (person: (typeof PEOPLE)[number], task: string) =>
    (await control('actions', {
      task,
      due: new Date(Date.now() + (2 + Math.random() * 6) * 3_600_000).toISOString(),
      assigned_to: careUserOf.get(person),
      notify_on_complete: [groupId.get(GROUP_OF[person])!],
    })) as { _id: string; action_no: string };

  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const commandText = () => {
    const p = rand();
    if (p < 0.1) return 'help';
    if (p < 0.4) return 'mine';
    if (p < 0.55) return `due ${['today', 'tomorrow', 'week', 'overdue'][Math.floor(rand() * 4)]}`;
    if (p < 0.7) return `show ${1 + Math.floor(rand() * 300)}`;
    if (p < 0.85) return `find ${FIND_WORDS[Math.floor(rand() * FIND_WORDS.length)]}`;
    if (p < 0.9) return 'whoami';
    if (p < 0.95) return 'locations';
    return 'literature';
  };

  const loops: Promise<void>[] = [];
  // Commands in #care-team.
  loops.push(
    loop('command', 3000, async (i) => {
      const who = i % 10 === 9 ? VISITOR : PEOPLE[i % PEOPLE.length]!;
      const text = who === VISITOR ? (i % 20 === 9 ? 'help' : 'mine') : commandText();
      counts.commands++;
      const started = performance.now();
      const sent = await driver.slash(who, `/care ${text}`, { channel: '#care-team' });
      const answered = sent.acked ? await answerOf(sent.responseUrl) : undefined;
      if (answered) {
        counts.commandsAnswered++;
        answerMs.push(performance.now() - started);
      } else {
        counts.commandsUnanswered++;
        benchError('command', new Error(`/care ${text.split(' ')[0]}: ${sent.acked ? 'no answer within 20 s' : `not acked (${sent.failure ?? sent.status})`}`));
      }
    }),
  );
  // Home tab openings.
  loops.push(
    loop(
      'home',
      10_000,
      async (i) => {
        counts.homeOpens++;
        const sent = await driver.openHome(PEOPLE[i % PEOPLE.length]!);
        if (!sent.acked) {
          counts.homeNotAcked++;
          benchError('home', new Error(`not acked (${sent.failure ?? sent.status})`));
        }
      },
      1_000,
    ),
  );
  // Completions in the care system's web app (some marked urgent first).
  loops.push(
    loop(
      'web-app',
      15_000,
      async (i) => {
        const person = PEOPLE[i % PEOPLE.length]!;
        const action = await createInWebApp(person, `Soak web-app action ${i}`);
        await sleep(1_000);
        if (i % 4 === 0) {
          await control(`actions/${action._id}`, { urgent: true }, 'PATCH');
          counts.urgentMarks++;
          urgentMarked.set(action._id, { markedAt: Date.now() });
        }
        await sleep(11_000);
        await control(`actions/${action._id}/complete`, {});
        counts.webCompletions++;
        const marked = urgentMarked.get(action._id);
        if (marked) marked.completedAt = Date.now();
      },
      2_000,
    ),
  );
  // Completions through Slack, in #general (away from the commands' ephemerals).
  loops.push(
    loop(
      'slack-complete',
      20_000,
      async (i) => {
        const person = PEOPLE[(i + 1) % PEOPLE.length]!;
        const action = await createInWebApp(person, `Soak Slack action ${i}`);
        await sleep(1_000);
        if (i % 2 === 0) {
          const sent = await driver.slash(person, `/care done ${action.action_no}`, { channel: '#general' });
          const answered = sent.acked ? await answerOf(sent.responseUrl) : undefined;
          const done = answered ? ((await control(`actions/${action._id}`)) as { completed: string | null }).completed : null;
          if (done) counts.slackDone++;
          else {
            counts.slackCompletionFailed++;
            benchError('slack-complete', new Error(`/care done: ${answered ? 'answered but not complete' : 'no answer'}`));
          }
        } else {
          const sent = await driver.slash(person, '/care mine', { channel: '#general' });
          const list = sent.acked ? await answerOf(sent.responseUrl) : undefined;
          if (!list) throw new Error('/care mine before a click: no answer');
          const clicked = await driver.clickButton(person, { ephemeral: true, channel: '#general', ts: list.ts, text: 'Complete' });
          const replaced =
            clicked.acked &&
            (await fake
              .waitFor(
                () => {
                  const e = fake.state.ephemerals.find((x) => x.ts === list.ts && x.channel === list.channel && x.user === person);
                  return e && fake.visibleText(e).includes('[Reopen]');
                },
                { timeoutMs: 15_000, intervalMs: 200 },
              )
              .catch(() => false));
          if (replaced) counts.slackClicks++;
          else {
            counts.slackCompletionFailed++;
            benchError('slack-complete', new Error(`Complete click: ${clicked.acked ? 'the card did not show Reopen within 15 s' : 'not acked'}`));
          }
        }
      },
      4_000,
    ),
  );
  // Health probes: HEALTH_PER_SEC probers, one a second each, spread over the second.
  for (let k = 0; k < HEALTH_PER_SEC; k++) {
    loops.push(
      loop(
        'health',
        1000,
        async () => {
          counts.health++;
          const started = performance.now();
          try {
            const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
            await res.arrayBuffer();
            healthMs.push(performance.now() - started);
            if (res.status === 200) counts.healthOk++;
            else {
              counts.healthNot200++;
              benchError('health', new Error(`status ${res.status}`));
            }
          } catch (err) {
            counts.healthFailed++;
            benchError('health', err);
          }
        },
        Math.round((k * 1000) / HEALTH_PER_SEC),
      ),
    );
  }

  // ---- Samples every 10 s, and a progress line every minute.
  const rows: Row[] = [];
  let probeOffset = 0;
  let lastProbe: ProbeLine | undefined;
  const takeRow = async () => {
    const text = await readFile(sampleFile, 'utf8').catch(() => '');
    for (const line of text.slice(probeOffset).split('\n')) {
      if (!line.trim()) continue;
      try {
        lastProbe = JSON.parse(line) as ProbeLine;
      } catch {
        break; // a half-written line: read it next time
      }
    }
    probeOffset = text.lastIndexOf('\n') + 1;
    const row: Row = {
      atMs: Date.now() - t0,
      ...readVm(pid),
      ...(lastProbe ? { probe: lastProbe } : {}),
      counts: { ...counts },
      notices: countNotices(fake),
      errors: totalErrors(),
      dbFiles: await dbFiles(dataDir),
    };
    rows.push(row);
    return row;
  };
  loops.push(
    loop('sample', SAMPLE_MS, async (i) => {
      const r = await takeRow();
      if (i % 6 === 0) {
        const h = r.probe ? Object.values(r.probe.handles).reduce((a, b) => a + b, 0) : 0;
        process.stdout.write(
          `[${(r.atMs / 60_000).toFixed(1)} min] RSS ${MB(r.vmRss)}, heap ${MB(r.probe?.heapUsed)} (after GC ${MB(r.probe?.heapUsedAfterGc)}), ` +
            `handles ${h}, commands ${r.counts.commands}, completions ${r.counts.webCompletions + r.counts.slackDone + r.counts.slackClicks}, ` +
            `DMs ${r.notices.dms}, health ${r.counts.health}, errors ${r.errors}\n`,
        );
      }
    }),
  );

  await Promise.all(loops);
  clearTimeout(timer);
  const aborted = Date.now() < endAt - SAMPLE_MS;
  // Let the last completions' notices arrive (two polls), then a final sample.
  if (!childGone && interrupts === 0) {
    await new Promise((r) => setTimeout(r, 2 * POLL_SECONDS * 1000 + 1000));
    await new Promise((r) => setTimeout(r, SAMPLE_MS + 500)); // one more probe line
  }
  const last = await takeRow();
  const sandboxStats = await control('stats').catch(() => undefined);
  let tables: Record<string, number> | string;
  try {
    tables = tableRows(dataDir);
  } catch (err) {
    tables = (err as Error).message;
  }

  report(rows, last, { pid, aborted, sandboxStats, fake, tables });
  return aborted || childGone ? 1 : 0;
}

// ---------------------------------------------------------------- the report

function report(
  rows: Row[],
  last: Row,
  ctx: { pid: number; aborted: boolean; sandboxStats: any; fake: SlackFake; tables: Record<string, number> | string },
): void {
  const withProbe = rows.filter((r) => r.probe);
  const after = withProbe.filter((r) => r.atMs >= WARMUP_MS);
  const start = after[0] ?? withProbe[0];
  const end = withProbe.at(-1);
  const midT = start && end ? (start.atMs + end.atMs) / 2 : 0;
  const middle = after.reduce<Row | undefined>((best, r) => (!best || Math.abs(r.atMs - midT) < Math.abs(best.atMs - midT) ? r : best), undefined);
  const handlesText = (h: Record<string, number> | undefined) =>
    h
      ? `${Object.values(h).reduce((a, b) => a + b, 0)}: ${Object.entries(h)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`
      : 'n/a';
  const out: string[] = [];
  out.push(
    `## Soak: ${MINUTES} min, the app in its own process (pid ${ctx.pid}), changes poll every ${POLL_SECONDS} s, care API ${RATE} req/s, ${HEALTH_PER_SEC} health probes/s${ctx.aborted ? ' (STOPPED EARLY)' : ''}`,
    '',
  );
  out.push(
    '| point | at | RSS (VmRSS) | heap used | heap after GC | open handles | commands (answered) | completions web / `done` / click | notices DM / channel | health probes (200) | errors |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  );
  const line = (name: string, r: Row | undefined) => {
    if (!r) return;
    const c = r.counts;
    out.push(
      `| ${name} | ${(r.atMs / 60_000).toFixed(1)} min | ${MB(r.vmRss)} | ${MB(r.probe?.heapUsed)} | ${MB(r.probe?.heapUsedAfterGc)} | ${handlesText(r.probe?.handles)} | ` +
        `${c.commands} (${c.commandsAnswered}) | ${c.webCompletions} / ${c.slackDone} / ${c.slackClicks} | ${r.notices.dms} / ${r.notices.channelPosts} | ${c.health} (${c.healthOk}) | ${r.errors} |`,
    );
  };
  line(`start (after ${Math.round(WARMUP_MS / 1000)} s warm-up)`, start);
  line('middle', middle);
  line('end', end);

  // Growth: the change from middle to end, and the linear slope over the second half.
  const half = after.filter((r) => middle && r.atMs >= middle.atMs);
  const trend = (get: (r: Row) => number | undefined) => {
    const pts = half.map((r) => ({ t: r.atMs, y: get(r) })).filter((p): p is { t: number; y: number } => p.y !== undefined);
    const s = slope(pts);
    const span = pts.length > 1 ? pts.at(-1)!.t - pts[0]!.t : 0;
    return { perHour: s * 3_600_000, overHalf: s * span, n: pts.length };
  };
  const heapFit = trend((r) => r.probe?.heapUsedAfterGc ?? r.probe?.heapUsed);
  const rssFit = trend((r) => r.vmRss);
  const handleTotal = (r: Row | undefined) => (r?.probe ? Object.values(r.probe.handles).reduce((a, b) => a + b, 0) : NaN);
  const heapMid = middle?.probe?.heapUsedAfterGc ?? middle?.probe?.heapUsed ?? 0;
  const rssMid = middle?.vmRss ?? 0;
  const flat = (f: { overHalf: number }, mid: number, floor: number) => Math.abs(f.overHalf) <= Math.max(floor, 0.03 * mid);
  const signed = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${MB(Math.abs(bytes))}`;
  out.push('');
  out.push(
    `- heap after a forced GC, second half (n=${heapFit.n}): ${MB(heapMid)} → ${MB(end?.probe?.heapUsedAfterGc)}; linear fit ${signed(heapFit.overHalf)} over the half ` +
      `(${signed(heapFit.perHour)}/h): **${flat(heapFit, heapMid, 1048576) ? 'flat' : 'GROWS'}** (flat = within max(1 MB, 3%))`,
  );
  out.push(
    `- RSS, second half: ${MB(rssMid)} → ${MB(end?.vmRss)}; linear fit ${signed(rssFit.overHalf)} over the half (${signed(rssFit.perHour)}/h): ` +
      `**${flat(rssFit, rssMid, 4 * 1048576) ? 'flat' : 'GROWS'}** (flat = within max(4 MB, 3%)); peak RSS (VmHWM) ${MB(last.vmHwm)}`,
  );
  out.push(
    `- open handles: start ${handleTotal(start)}, middle ${handleTotal(middle)}, end ${handleTotal(end)}; max over the run ${Math.max(...withProbe.map(handleTotal))}; ` +
      `event-loop utilisation (10 s windows after warm-up) p50 ${percentile(
        after.map((r) => r.probe!.elu).sort((a, b) => a - b),
        50,
      )}, max ${Math.max(...after.map((r) => r.probe!.elu))}`,
  );
  const files = (r: Row | undefined) =>
    r
      ? Object.entries(r.dbFiles)
          .map(([name, size]) => `${name.replace(/^.*?(-wal|-shm)?$/, (_m, ext: string | undefined) => ext ?? 'db')} ${MB(size)}`)
          .join(', ')
      : 'n/a';
  out.push(`- SQLite files (DATA_DIR): start ${files(start)}; middle ${files(middle)}; end ${files(last)}`);
  out.push(`- store rows at the end: ${typeof ctx.tables === 'string' ? ctx.tables : JSON.stringify(ctx.tables)}`);

  const c = last.counts;
  const a = [...answerMs].sort((x, y) => x - y);
  const hm = [...healthMs].sort((x, y) => x - y);
  out.push('', '### Totals (the whole run, warm-up included)', '');
  out.push(
    `- commands: ${c.commands} sent, ${c.commandsAnswered} answered (answer p50 ${ms(percentile(a, 50))}, p95 ${ms(percentile(a, 95))}, max ${ms(a.at(-1) ?? NaN)})`,
  );
  out.push(
    `- completions: ${c.webCompletions} in the web app (${c.urgentMarks} marked urgent 1 s after creation and completed 11 s later; ${last.notices.urgentMissed.length} of those never alerted), ` +
      `${c.slackDone} by \`/care done\`, ${c.slackClicks} by a Complete click; ${c.slackCompletionFailed} Slack completions failed`,
  );
  out.push(
    `- notices delivered: ${last.notices.dms} DMs, ${last.notices.channelPosts} channel posts, by kind ${JSON.stringify(last.notices.byKind)}; duplicate deliveries: ${last.notices.duplicates}`,
  );
  for (const m of last.notices.urgentMissed.slice(0, 5))
    out.push(
      `  - never alerted: ${m.id}, marked urgent ${new Date(m.markedAt).toISOString()}, completed ${m.completedAt ? new Date(m.completedAt).toISOString() : 'not yet'}`,
    );
  out.push(`- Home tab openings: ${c.homeOpens} (${c.homeNotAcked} not acked)`);
  out.push(
    `- health probes: ${c.health}, ${c.healthOk} × 200, ${c.healthNot200} other status, ${c.healthFailed} failed (p50 ${ms(percentile(hm, 50))}, p99 ${ms(percentile(hm, 99))}, max ${ms(hm.at(-1) ?? NaN)})`,
  );
  if (ctx.sandboxStats) out.push(`- care API requests (sandbox): ${ctx.sandboxStats.total}, by status ${JSON.stringify(ctx.sandboxStats.byStatus)}`);
  const acks = ctx.fake.ackStats();
  out.push(
    `- Slack Web API calls by the app: ${ctx.fake.state.calls.length}; requests to the app: ${acks.count}, ack p50 ${ms(acks.p50Ms)}, p99 ${ms(acks.p99Ms)}, ${acks.failures} not acked in 3 s`,
  );
  out.push(`- app log lines by level: ${JSON.stringify(appLog.byLevel)}${appLog.otherCount ? `; ${appLog.otherCount} lines not JSON` : ''}`);
  for (const [msg, n] of [...appLog.problems].sort((x, y) => y[1] - x[1]).slice(0, 8)) out.push(`  - ${n} × ${msg}`);
  for (const l of appLog.other.slice(0, 5)) out.push(`  - (not JSON) ${l}`);
  out.push(
    `- errors: ${last.errors} (unanswered commands, un-acked Home openings, failed Slack completions, non-200/failed probes, control errors, app error lines)`,
  );
  for (const [msg, n] of [...benchErrors].sort((x, y) => y[1] - x[1]).slice(0, 8)) out.push(`  - ${n} × ${msg}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

// ---------------------------------------------------------------- clean-up

let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  const { child } = running;
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await running.childExited;
    clearTimeout(killer);
  }
  await running.fake?.close().catch(() => undefined);
  await running.sandbox?.stop().catch(() => undefined);
  if (running.dataDir) rmSync(running.dataDir, { recursive: true, force: true });
  await new Promise<void>((resolve) => (appLogFile ? appLogFile.end(resolve) : resolve()));
}

let interrupts = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write(`\nsoak: ${signal}: stopping the load, then the app (again to stop at once)\n`);
      stop.abort();
      return;
    }
    running.child?.kill('SIGKILL');
    if (running.dataDir) rmSync(running.dataDir, { recursive: true, force: true });
    process.exit(130);
  });
}
// Last resort (an uncaught error): never leave the app running.
process.on('exit', () => {
  const { child } = running;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (!cleaned && running.dataDir) rmSync(running.dataDir, { recursive: true, force: true });
});

main()
  .then(
    async (code) => {
      await cleanup();
      process.exitCode = interrupts ? 130 : code;
    },
    async (err: unknown) => {
      stop.abort();
      process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      await cleanup();
      process.exitCode = 1;
    },
  )
  .finally(() => {
    // Anything still holding the loop (a stray socket) must not keep the bench alive.
    setTimeout(() => process.exit(), 2_000).unref();
  });
