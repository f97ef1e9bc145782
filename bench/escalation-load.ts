/**
 * Escalation under load (issue 33): 500 urgent actions (10 in each of 50 workspaces) on 2 instances, the world's
 * clock running 10x real time: is every escalation step and follow-up step on time, and sent exactly once?
 *   npx tsx bench/escalation-load.ts                 (npm run bench:escalation-load)
 *   TEST_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/test): the bench makes a database of
 *   its own there (bench_escalation_<hex>) and drops it at the end; PostgreSQL unreachable: SQLite (said in the report).
 *   BENCH_WORKSPACES (default 50), BENCH_SPEED (default 10): a smaller or slower run. BENCH_POLL_SECONDS (default 60):
 *   the changes poll (the app's default is 5 s; at 10x on 2 instances × 50 workspaces that is 200 leased runs a
 *   real second, more than this shared machine gives the rest).
 *
 * One process on loopback: the sandbox care API (one account per workspace, demo data, 10 req/s per key), the
 * Slack fake (one workspace per account, today's rate limits: tiers per method and workspace, 1 post/s per
 * channel), two instances (composeMultiApp, one database, their own instance Ids) and the people. One clock for
 * the app, the sandbox, the fake, the ledger's claims and the leases: 2027-06-15 08:50 UTC (09:50 in London,
 * the Day shift) at the start, running BENCH_SPEED times real time.
 *
 * The jobs: the app's own kinds and schedules (jobs/index.ts workspaceJobKinds: the changes poll, the read-cache
 * sync and the escalation tick, however often the app says they run), on the app's own tick timer
 * (jobs/tick-driver.ts) reading the world's clock every 20 ms, each tick made on both instances with its slot
 * (as their schedulers would). The apps' own timers are not started: they read the clock at most every second of
 * real time, ten seconds of world time.
 *
 * Every workspace: the escalation ladder at its default (every 15 minutes: thread, seniors, managers), the
 * seniors of the Day shift (two people) and a managers' channel set by its admin with `/care escalation`, the
 * follow-up at its default (30 minutes); its second channel takes urgent alerts. Its 10 actions are made urgent
 * in the care system's web app, spread over the first 3 minutes, and alerted by the poll; then, through Slack
 * (signed requests to either instance, as the fake's driver sends them):
 * - 3 unanswered: the whole ladder (thread at 15, seniors at 30, managers at 45);
 * - 3 taken with Take it a minute after the alert and never completed: the follow-up DM 30 minutes after the take,
 *   then the ladder resumed from the seniors' step 30 minutes after that DM (seniors, managers 15 minutes later);
 * - 2 "I'm on it" (acknowledged, never completed): no step; the follow-up holds an on-it as a take (DM, resume);
 * - 2 "I can't" by everyone each stage reached: one on the alert (the thread reminder comes at once), one after the
 *   reminder (the seniors at once), both seniors on their DMs (the managers at once).
 * At 10x: Slack's 3 s for a trigger_id are judged on the world's clock (0.3 s of real time): a person whose modal
 * did not open presses again, and one whose submit went to a modal that opened late submits again until the app has
 * the answer (both counted). The app's Slack pacing waits on the app's clock (slack-pacer.ts pacerClockOf), so it
 * paces in world time too; the care API's 10 req/s per key are real seconds (the sandbox's and the client's).
 * A person does one thing at a time (their presses wait for each other), so a take queued behind presses of a modal
 * that did not open comes late, and so does everything timed from it: the follow-up chain's last step (the resumed
 * managers) is due 75 minutes after the take. The run goes on past its planned window (85 world minutes) until
 * every chain's last step is due by the app's records and sent (at most 130 world minutes), and says what was not
 * yet due when the window ended. What is owed follows what the people did: a take or on-it that never came (its
 * person gave up pressing) leaves the action unanswered (the plain ladder); one that came late owes the ladder's
 * steps due before it, then the follow-up chain.
 * Measured: each step's lateness against its due time (world time, the ledger's sent time minus the due time the
 * app's policy gives it), the ledger rows and the Slack messages per delivery key (duplicates, missing, unexpected),
 * the Slack calls per method against the fake's tiers (429s, and any left unanswered), care API requests, wall and
 * CPU time of the process (everything above shares it). Prints a report; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { RATE_TIERS, TIER_PER_MINUTE } from '../dev/slack-fake/api/rate-tiers.js';
import { createSlackDriver, type SlackFake, startSlackFake } from '../dev/slack-fake/index.js';
import { startSandbox } from '../dev/sandbox/index.js';
import { createCareClient } from '../src/care/index.js';
import type { Deployment } from '../src/compose.js';
import { composeMultiApp } from '../src/compose-multi.js';
import { workspaceJobKinds } from '../src/jobs/index.js';
import { createTickDriver } from '../src/jobs/tick-driver.js';
import { describeTickSchedule } from '../src/jobs/tick-schedule.js';
import { createLogger } from '../src/logging/logger.js';
import { parseProgress, progressCursor } from '../src/services/urgent/escalation-steps.js';
import { followUpCursor, parseFollowUp } from '../src/services/urgent/follow-up-policy.js';
import type { Delivery } from '../src/store/index.js';
import { scopedWorkspaceStore } from '../src/store/workspace-store.js';
import { parseApiDateTime } from '../src/time/slack-date.js';
import { benchWorkspace, channelIdOf, instanceSettings, SIGNING_SECRET, seedWorkspace } from './tenants-fixtures.js';

const N = Math.max(2, Number(process.env.BENCH_WORKSPACES ?? 50));
const SPEED = Number(process.env.BENCH_SPEED ?? 10);
const PER = 10;
const MIN = 60_000;
const START = Date.parse('2027-06-15T08:50:00Z');
/** The urgent actions are made over this much world time. */
const SPREAD_MS = 3 * MIN;
/** The answers come this long after each alert (world time). */
const ANSWER_AFTER_MS = 1 * MIN;
const PG_URL = process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
/** The changes poll's interval (the app's is 5 s at 10 req/s, COMPLETION_POLL_SECONDS): 60 keeps 2 instances × 50 workspaces × 10x within the machine. */
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 60);

type Share = 'unanswered' | 'taken' | 'on-it' | 'cant';
const shareOf = (k: number): Share => (k < 3 ? 'unanswered' : k < 6 ? 'taken' : k < 8 ? 'on-it' : 'cant');

const t0 = Date.now();
/** The world's clock: START, running SPEED times real time. */
const worldNow = () => START + (Date.now() - t0) * SPEED;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sleep until the world's clock reads `at`. */
const until = (at: number) => sleep(Math.max(0, (at - worldNow()) / SPEED));
const progress = (line: string) => process.stderr.write(`[escalation-load ${new Date(worldNow()).toISOString().slice(11, 19)}] ${line}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

type Meta = { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
const payload = (m: Meta) => (m.metadata?.event_type === 'care_delivery' ? m.metadata.event_payload : undefined);

async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface Bench {
  teamId: string;
  i: number;
  k: number;
  share: Share;
  id: string;
  alertTs?: string;
  /** Problems met by this action's people (a click that found no button, a modal that did not open). */
  trouble: string[];
}

async function main(): Promise<void> {
  const cleanup: (() => Promise<unknown>)[] = [];
  const say: string[] = [];
  const loads: string[] = [load()];
  try {
    // ------------------------------------------------------------ doubles
    const sandbox = await startSandbox({
      port: 0,
      accounts: N,
      seed: 'demo',
      controls: true,
      rateLimit: 10,
      startTime: new Date(worldNow()),
      realNow: worldNow,
    });
    cleanup.push(() => sandbox.stop());
    const workspaces = sandbox.accounts.map((account, i) => benchWorkspace(i, account));
    const fake: SlackFake = await startSlackFake({ workspaces, rateLimits: true, clock: { now: worldNow } });
    cleanup.push(() => fake.close());

    // ------------------------------------------------------------ database: PostgreSQL, else SQLite
    let databaseUrl: string | undefined;
    let dbLine: string;
    try {
      const database = `bench_escalation_${randomBytes(4).toString('hex')}`;
      await withPg(PG_URL, (c) => c.query(`CREATE DATABASE "${database}" TEMPLATE template0`));
      cleanup.push(() => withPg(PG_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)));
      const u = new URL(PG_URL);
      u.pathname = `/${database}`;
      databaseUrl = u.toString();
      dbLine = `PostgreSQL (database ${database} of its own)`;
    } catch (err) {
      dbLine = `SQLite: PostgreSQL at TEST_DATABASE_URL was unreachable (${err instanceof Error ? err.message : String(err)})`;
    }
    progress(`store: ${dbLine}`);
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-escalation-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const key = randomBytes(32);
    const logCounts = { warn: 0, error: 0 };
    const firstLogs: string[] = [];
    const logger = createLogger({
      level: 'warn',
      write: (line) => {
        const entry = JSON.parse(line) as { level: 'warn' | 'error' };
        logCounts[entry.level]++;
        if (firstLogs.length < 6) firstLogs.push(line.slice(0, 300));
      },
    });
    const careApiHost = new URL(sandbox.url).host;
    const instance = async (instanceId: string) => {
      const s = instanceSettings({
        instanceId,
        databaseUrl: databaseUrl ?? '',
        dataDir,
        key,
        slackApiUrl: fake.apiUrl,
        now: () => new Date(worldNow()),
        logger,
        careApiHost,
      });
      // Claims and leases on the world's clock too (else the database's: ten times slower than the world's).
      return composeMultiApp({ ...s, store: { dataDir, databaseUrl, sharedClock: worldNow }, jobs: { ...s.jobs, pollSeconds: POLL_SECONDS } });
    };
    const a = await instance('bench-a');
    cleanup.push(() => a.stop());
    const b = await instance('bench-b');
    cleanup.push(() => b.stop());
    const apps: Deployment[] = [a, b];
    const ports = [(await a.start(0, '127.0.0.1')).port, (await b.start(0, '127.0.0.1')).port];
    const drivers = ports.map((port) => createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${port}/slack/events`, signingSecret: SIGNING_SECRET }));
    /** Workspace i's people click through instance i % 2. */
    const driverOf = (i: number) => drivers[i % 2]!.forTeam(workspaces[i]!.team.id);

    // ------------------------------------------------------------ the workspaces: installed, connected, linked, ladder set
    for (const [i, w] of workspaces.entries()) await seedWorkspace(a.store, i, w, sandbox.url, sandbox.accounts[i]!);
    for (const [i, w] of workspaces.entries()) {
      const acc = sandbox.accounts[i]!;
      const care = createCareClient({ baseUrl: sandbox.url, accountId: acc.accountId, apiKey: acc.apiKey, apiSecret: acc.apiSecret });
      const page = await care.users.list({ attributes: ['_id', 'email'], per_page: 100 });
      await care.close();
      for (const u of w.users) {
        const careUser = page.items.find((x) => x.email === u.email);
        if (careUser) await a.store.upsertLink({ teamId: w.team.id, slackUserId: u.id, careUserId: careUser._id, method: 'admin', linkedBy: w.users[0]!.id });
      }
    }
    const ladderLines = (i: number) => {
      const [, s1, s2] = workspaces[i]!.users;
      return [`/care escalation managers <#${channelIdOf(i, 3)}|digest-3>`, `/care escalation seniors Day <@${s1!.id}|${s1!.name}> <@${s2!.id}|${s2!.name}>`];
    };
    const ladderOf = async (i: number) => {
      const v = JSON.parse((await scopedWorkspaceStore(a.store, workspaces[i]!.team.id).getHomeSetting('escalation'))?.value ?? '{}') as {
        managersChannel?: string;
        seniors?: Record<string, string[]>;
      };
      return [Boolean(v.managersChannel), v.seniors?.Day?.length === 2];
    };
    // Each workspace's admin sets its ladder, one command after the other has been answered (the answers come by
    // response_url); a workspace whose setting is not there is asked again.
    for (const part of [0, 1]) {
      for (let round = 0; round < 5; round++) {
        const notSet: number[] = [];
        for (let i = 0; i < N; i++) if (!(await ladderOf(i))[part]) notSet.push(i);
        if (!notSet.length) break;
        if (round > 0) progress(`ladder part ${part + 1} not set in ${notSet.length}; asking again`);
        for (const i of notSet) {
          const sent = await driverOf(i).slash(workspaces[i]!.users[0]!.id, ladderLines(i)[part]!, { channel: channelIdOf(i, 1) });
          if (!sent.acked) progress(`${workspaces[i]!.team.id} ${ladderLines(i)[part]}: not acked`);
        }
        await sleep(3000);
      }
    }
    let ladders = 0;
    for (let i = 0; i < N; i++) if ((await ladderOf(i)).every(Boolean)) ladders++;
    progress(`${N} workspaces set up; ladders with seniors and a managers' channel: ${ladders}; load ${load()}`);

    // ------------------------------------------------------------ the jobs: the app's kinds and schedules, both instances
    const kinds = workspaceJobKinds(POLL_SECONDS);
    const ticked = [kinds.poll, kinds.cacheSync, kinds.escalations];
    const ticks = { escalationsEveryMs: kinds.escalations.schedule.everyMs };
    const schedules = ticked.map((k) => `${k.name} ${describeTickSchedule(k.schedule)}`).join(', ');
    // The first look (what is already urgent is not news), on both instances, before any urgent action is made.
    await Promise.all(apps.map((app) => app.jobs.tick(kinds.poll.name)));
    const inFlight = new Set<Promise<unknown>>();
    const tickStats = { runs: 0, failed: 0 };
    /** The escalation job's ticks (both instances): workspace runs made and skipped (held by the other instance, or still running), the longest tick (world ms). */
    const escalationTicks = { ran: 0, skipped: 0, longestMs: 0 };
    const timer = createTickDriver({ now: worldNow, logger, maxWaitMs: 20 });
    timer.start(
      ticked.map((kind) => ({
        name: kind.name,
        schedule: kind.schedule,
        run: (slot: number) => {
          for (const app of apps) {
            const startedAt = worldNow();
            const p = app.jobs.tick(kind.name, { slot }).then(
              (r) => {
                tickStats.runs += r.ran;
                tickStats.failed += r.failed;
                if (kind.name === kinds.escalations.name) {
                  escalationTicks.ran += r.ran;
                  escalationTicks.skipped += r.skipped;
                  escalationTicks.longestMs = Math.max(escalationTicks.longestMs, worldNow() - startedAt);
                }
              },
              () => {
                tickStats.failed++;
              },
            );
            inFlight.add(p);
            void p.finally(() => inFlight.delete(p));
          }
        },
      })),
    );
    cleanup.push(async () => timer.stop());

    // ------------------------------------------------------------ 500 urgent actions, spread over 3 minutes, and their people
    const careBefore = await careRequests(sandbox.accounts.map((x) => x.controlsUrl));
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const began = worldNow();
    const actions: Bench[] = [];
    let modalRetries = 0;
    let answersRetried = 0;
    /** A person has one modal at a time: their presses that open one wait for each other. */
    const busy = new Map<string, Promise<unknown>>();
    const oneAtATime = <T>(who: string, work: () => Promise<T>): Promise<T> => {
      const next = (busy.get(who) ?? Promise.resolve()).catch(() => undefined).then(work);
      busy.set(who, next);
      return next;
    };
    const flows: Promise<void>[] = [];
    for (let k = 0; k < PER; k++) {
      for (let i = 0; i < N; i++) {
        await until(began + ((k * N + i) * SPREAD_MS) / (N * PER));
        // Made at its moment, without waiting for the one before (the event loop is busy: the spread would stretch).
        const x: Bench = { teamId: workspaces[i]!.team.id, i, k, share: shareOf(k), id: '', trouble: [] };
        actions.push(x);
        const body = JSON.stringify({
          task: `Bench urgent ${i}-${k}`,
          due: new Date(worldNow() + 3 * 60 * MIN).toISOString(),
          urgent: true,
          assigned_to: null,
        });
        flows.push(
          fetch(`${sandbox.accounts[i]!.controlsUrl}/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
            .then(async (res) => {
              if (!res.ok) throw new Error(`making an action: ${res.status}`);
              x.id = ((await res.json()) as { _id: string })._id;
              await person(x);
            })
            .catch((err: unknown) => void x.trouble.push(err instanceof Error ? err.message.slice(0, 160) : String(err))),
        );
      }
    }
    progress(`${actions.length} urgent actions being made (the last at its moment); load ${load()}`);

    /** What the people of an action's workspace do about it (its share). */
    async function person(x: Bench): Promise<void> {
      const w = workspaces[x.i]!;
      const team = fake.workspace(x.teamId);
      const d = driverOf(x.i);
      const [p0, p1, p2, p3] = w.users.map((u) => u.id);
      const alertChannel = channelIdOf(x.i, 2);
      const isOf = (kind: string) => (m: Meta) => payload(m)?.kind === kind && payload(m)?.action_id === x.id;
      const wait = <T>(what: string, fn: () => T | undefined, worldMs = 20 * MIN) => team.waitFor(() => fn(), { timeoutMs: worldMs / SPEED, message: what });
      const alert = await wait('no urgent alert', () => team.messages(alertChannel).find(isOf('urgent')), 10 * MIN);
      x.alertTs = alert.ts;
      if (x.share === 'unanswered') return;
      const alertAt = Number(alert.ts.split('.')[0]) * 1000;
      await until(alertAt + ANSWER_AFTER_MS);
      if (x.share === 'taken') {
        await oneAtATime(`${x.teamId}/${p3}`, () => d.clickButton(p3!, { channel: alertChannel, ts: alert.ts, text: 'Take it' }));
        return;
      }
      /**
       * A button that opens a modal, pressed again when the modal does not open: at 10x, Slack's 3 s for a
       * trigger_id are 0.3 s of real time on a loaded machine (the fake judges it on the world's clock).
       */
      const withModal = (user: string, where: { channel?: string; dm?: boolean; ts: string }, text: string, fill?: [string, string]) =>
        oneAtATime(`${x.teamId}/${user}`, () => pressForModal(user, where, text, fill));
      const pressForModal = async (user: string, where: { channel?: string; dm?: boolean; ts: string }, text: string, fill?: [string, string]) => {
        for (let attempt = 1; ; attempt++) {
          await d.clickButton(user, { ...where, text });
          const open = await team.waitFor(() => team.openModal(user), { timeoutMs: 3000 }).catch(() => undefined);
          if (open) break;
          if (attempt >= 12) throw new Error(`${text}: no modal after ${attempt} presses`);
          modalRetries++;
        }
        const modal = d.modal(user);
        await (fill ? modal.fill(fill[0], fill[1]) : modal).submit();
      };
      /** Pressed (and the modal submitted) until the app has the answer: a modal that opened late may have taken the submit. */
      const answered = async (
        user: string,
        answer: 'on-it' | 'cant',
        where: { channel?: string; dm?: boolean; ts: string },
        text: string,
        fill?: [string, string],
      ) => {
        const store = scopedWorkspaceStore(a.store, x.teamId);
        const has = async () => (await store.listEpisodeAnswers(x.id)).some((e) => e.slackUserId === user && e.answer === answer && e.undoneAt === null);
        for (let attempt = 1; ; attempt++) {
          await withModal(user, where, text, fill);
          for (let i = 0; i < 20 && !(await has()); i++) await sleep(100);
          if (await has()) return;
          if (attempt >= 5) throw new Error(`${text}: not recorded after ${attempt} submits`);
          answersRetried++;
        }
      };
      if (x.share === 'on-it') {
        await answered(p3!, 'on-it', { channel: alertChannel, ts: alert.ts }, 'I’m on it');
        return;
      }
      const cant = (user: string, where: { channel?: string; dm?: boolean; ts: string }) =>
        answered(user, 'cant', where, 'I can’t', ['Why?', 'with another resident']);
      // "I can't" on the alert (a channel: one is enough): the thread reminder at once.
      await cant(p3!, { channel: alertChannel, ts: alert.ts });
      await wait('no thread reminder', () => (team.messages(alertChannel).find(isOf('urgent'))?.replies ?? []).find(isOf('escalation')));
      // One after the reminder (a channel again): the seniors at once.
      await cant(p0!, { channel: alertChannel, ts: alert.ts });
      // Both seniors on their DMs (named people: every one of them): the managers at once.
      for (const senior of [p1!, p2!]) {
        const dm = await wait(`no seniors' DM to ${senior}`, () => team.dms(senior).find(isOf('escalation')));
        await cant(senior, { dm: true, ts: dm.ts });
      }
    }

    // ------------------------------------------------------------ until every expected step is out, or its time is long past
    // The window the answers were planned for (each a minute after its alert): the last step due 75 minutes after an answer.
    const endBy = began + SPREAD_MS + 2 * MIN + 75 * MIN + 5 * MIN;
    /** The longest the bench waits for steps whose chain began late (an answer that came late), world time. */
    const hardEnd = began + 130 * MIN;
    const expectedRows = N * (3 * 4 + 3 * 4 + 2 * 4 + 2 * 4);
    /** Sent when the planned window ended, and the steps not yet due then (by the app's records). */
    let atWindow: { sent: number; notDue: number; dueUnsent: number; lastDue: number } | undefined;
    for (;;) {
      await sleep(3000);
      const sent = (await stepRows(a)).filter((d) => d.state === 'sent').length;
      progress(`steps sent ${sent}/${expectedRows}; tick runs ${tickStats.runs} (failed ${tickStats.failed}); load ${load()}`);
      loads.push(load());
      if (worldNow() > hardEnd) break;
      if (worldNow() <= endBy && sent < expectedRows) continue;
      // Every chain's last step sent, or past the planned window: on while a step's due time (by the app's records) is to come.
      const open = await openSteps(actions, a, worldNow());
      if (worldNow() > endBy) atWindow ??= { sent, ...open };
      if (open.notDue === 0 && (open.dueUnsent === 0 || worldNow() > open.lastDue + 2 * MIN)) break;
    }
    // One more escalation tick's time: anything extra or late would show.
    await until(worldNow() + ticks.escalationsEveryMs + 5_000);
    await Promise.all(flows);
    timer.stop();
    await Promise.all([...inFlight]);
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const careAfter = await careRequests(sandbox.accounts.map((x) => x.controlsUrl));

    // ------------------------------------------------------------ what was expected, what happened
    const rows = await stepRows(a);
    /** How long after its planned moment (the alert + 1 min) each take or on-it held the action, by the app's follow-up record. */
    const answeredLate: { share: Share; ms: number }[] = [];
    for (const x of actions) {
      if ((x.share !== 'taken' && x.share !== 'on-it') || !x.alertTs) continue;
      const f = parseFollowUp(await scopedWorkspaceStore(a.store, x.teamId).getCursor(followUpCursor(x.id)));
      if (f) answeredLate.push({ share: x.share, ms: Date.parse(f.heldSince) - (Number(x.alertTs.split('.')[0]) * 1000 + ANSWER_AFTER_MS) });
    }
    const byAction = new Map<string, Delivery[]>();
    for (const r of rows) byAction.set(r.actionId, [...(byAction.get(r.actionId) ?? []), r]);
    const late: Record<string, number[]> = {};
    /** The part of the lateness spent waiting for a run of the escalation job: the run's clock (the app's record of the step) minus the due time. */
    const waitRun: Record<string, number[]> = {};
    const addLate = (what: string, sentAt: number, due: number, ranAt: number) => {
      (late[what] ??= []).push(sentAt - due);
      if (Number.isFinite(ranAt)) (waitRun[what] ??= []).push(ranAt - due);
    };
    const missing: string[] = [];
    const unexpected: string[] = [];
    /** Takes and on-its never recorded (their people gave up pressing), and steps of the ladder due before a late one. */
    let answersNeverCame = 0;
    let stepsBeforeLateAnswer = 0;
    /** The step rows owed by what the people did (as planned: expectedRows). */
    let owedRows = 0;
    /** Sent, but its due time could not be read (an answer or a follow-up record not found). */
    const noDue: string[] = [];
    for (const x of actions) {
      const w = workspaces[x.i]!;
      const store = scopedWorkspaceStore(a.store, x.teamId);
      const own = byAction.get(x.id) ?? [];
      const urgent = (await store.listDeliveries({ kind: 'urgent', actionId: x.id })).find((d) => d.actionId === x.id && d.state === 'sent');
      if (!urgent) {
        missing.push(`${x.id} urgent alert`);
        continue;
      }
      const episode = urgent.occurrence;
      const episodeMs = parseApiDateTime(episode)!.getTime();
      const [, p1, p2] = w.users.map((u) => u.id);
      const chAlert = `channel:${x.teamId}/${channelIdOf(x.i, 2)}`;
      const chManagers = `channel:${x.teamId}/${channelIdOf(x.i, 3)}`;
      const senior = (u: string) => `user:${x.teamId}/${u}`;
      const p = parseProgress(await store.getCursor(progressCursor(x.id)));
      const done = p?.occurrence === episode ? p.done : [];
      /** Expected: [kind, occurrence, recipient, step name, due time, the run's clock when it was done (ms)]. */
      const want: [string, string, string, string, number, number][] = [];
      const f = x.share === 'taken' || x.share === 'on-it' ? parseFollowUp(await store.getCursor(followUpCursor(x.id))) : null;
      const held = f?.occurrence === episode ? f : null;
      /** A take or on-it that never came (its people gave up pressing): the action climbed the ladder as an unanswered one. */
      const neverAnswered = (x.share === 'taken' || x.share === 'on-it') && !held;
      if (neverAnswered) answersNeverCame++;
      if (x.share === 'unanswered' || x.share === 'cant' || neverAnswered || held) {
        // An early step (everyone reached said "I can't") is due at the last "I can't" before its run.
        const cants = (await store.listEpisodeAnswers(x.id)).filter((e) => e.answer === 'cant' && e.episode === episode && e.undoneAt === null);
        for (const [index, step] of (['thread', 'seniors', 'managers'] as const).entries()) {
          const d = done.find((e) => e.step === step && !e.again && !e.repeat);
          // A take or on-it that came late: the steps of the ladder due before it are owed too (and only those).
          if (held && !(d && Date.parse(d.at) < Date.parse(held.heldSince))) continue;
          const ranAt = d ? Date.parse(d.at) : Number.NaN;
          const early = Boolean(d?.early);
          // (Its run's clock is read when the run begins; the "I can't" it acted on may be a moment younger: before its post.)
          const sentAt = own.find((r) => r.occurrence === `${episode}#${step}` && r.sentAt !== null)?.sentAt ?? ranAt;
          const due = early ? Math.max(...cants.filter((c) => c.at <= sentAt).map((c) => c.at)) : episodeMs + 15 * MIN * (index + 1);
          const what = `${step}${early ? ' (early)' : ''}`;
          const recipients = step === 'thread' ? [chAlert] : step === 'seniors' ? [senior(p1!), senior(p2!)] : [chManagers];
          for (const r of recipients) want.push(['escalation', `${episode}#${step}`, r, what, due, ranAt]);
          if (held) stepsBeforeLateAnswer += recipients.length;
        }
      }
      if (held) {
        const holder = held.holder ?? w.users[3]!.id;
        const dmDue = Date.parse(held.heldSince) + 30 * MIN;
        const dmAt = held.dmAt ? Date.parse(held.dmAt) : Number.NaN;
        const resumedAt = p?.resumed ? Date.parse(p.resumed.at) : Number.NaN;
        const firstDue = p?.resumed ? Date.parse(p.resumed.firstDueAt) : Number.NaN;
        const ran = (step: string) => {
          const d = done.find((e) => e.step === step && e.again);
          return d ? Date.parse(d.at) : Number.NaN;
        };
        const label = x.share === 'taken' ? 'taken' : 'on it';
        want.push([
          'followup',
          `${episode}@${held.heldSince}${held.via === 'acknowledged' ? '@ack' : ''}`,
          senior(holder),
          `follow-up DM (${label})`,
          dmDue,
          dmAt,
        ]);
        // Resumed when still open 30 minutes after the DM; its seniors' step at once in that run.
        for (const s of [p1!, p2!])
          want.push([
            'escalation',
            `${episode}#seniors+again`,
            senior(s),
            `resumed seniors (${label})`,
            dmAt + 30 * MIN,
            Number.isFinite(ran('seniors')) ? resumedAt : Number.NaN,
          ]);
        want.push(['escalation', `${episode}#managers+again`, chManagers, `resumed managers (${label})`, firstDue + 15 * MIN, ran('managers')]);
      }
      const matched = new Set<number>();
      owedRows += want.length;
      for (const [kind, occurrence, recipient, what, due, ranAt] of want) {
        const row = own.find((d) => d.kind === kind && d.occurrence === occurrence && d.recipient === recipient);
        if (row?.state !== 'sent' || row.sentAt === null) {
          missing.push(`${x.share} ${x.id} ${what} (${row?.state ?? 'no row'})`);
          continue;
        }
        matched.add(row.id);
        if (Number.isFinite(due)) addLate(what.replace(/ \((taken|on it)\)$/, ''), row.sentAt, due, ranAt);
        else noDue.push(`${x.share} ${x.id} ${what}`);
      }
      for (const d of own) if (!matched.has(d.id)) unexpected.push(`${x.share} ${x.id} ${d.kind} ${d.occurrence.replace(episode, '<episode>')} ${d.recipient}`);
    }

    // Slack messages per delivery (a duplicate: the same ledger row posted twice), and the calls per method.
    const stepIds = new Set(rows.map((r) => String(r.id)));
    const postsPerDelivery = new Map<string, number>();
    const calls: Record<string, { ok: number; limited: number; other: number; maxPerWorkspaceMinute: number }> = {};
    let unanswered = 0;
    const unansweredByMethod: Record<string, number> = {};
    for (const w of workspaces) {
      const team = fake.workspace(w.team.id);
      const perMinute = new Map<string, number>();
      const last = new Map<string, number>();
      for (const c of team.store.state.calls) {
        const m = (calls[c.method] ??= { ok: 0, limited: 0, other: 0, maxPerWorkspaceMinute: 0 });
        if (c.status === 429) m.limited++;
        else if (c.result.ok === true) m.ok++;
        else m.other++;
        const pm = `${c.method}|${Math.floor(c.at / MIN)}`;
        perMinute.set(pm, (perMinute.get(pm) ?? 0) + 1);
        m.maxPerWorkspaceMinute = Math.max(m.maxPerWorkspaceMinute, perMinute.get(pm)!);
        const channel = c.method.startsWith('chat.post') ? String(c.args.channel ?? '') : '';
        last.set(`${c.method}|${channel}`, c.status);
        if (c.method === 'chat.postMessage' && c.result.ok === true) {
          const meta = typeof c.args.metadata === 'string' ? (JSON.parse(c.args.metadata) as Meta['metadata']) : (c.args.metadata as Meta['metadata']);
          const id = meta?.event_type === 'care_delivery' ? String(meta.event_payload?.delivery_id ?? '') : '';
          if (stepIds.has(id)) postsPerDelivery.set(id, (postsPerDelivery.get(id) ?? 0) + 1);
        }
      }
      for (const [k, status] of last) {
        if (status !== 429) continue;
        unanswered++;
        const method = k.split('|')[0]!;
        unansweredByMethod[method] = (unansweredByMethod[method] ?? 0) + 1;
      }
    }
    const duplicates = [...postsPerDelivery.values()].filter((n) => n > 1).reduce((s, n) => s + n - 1, 0);
    const sentRows = rows.filter((r) => r.state === 'sent');
    const sentWithoutPost = sentRows.filter((r) => !postsPerDelivery.has(String(r.id))).length;
    const limits = fake.rateLimits();
    const troubles = actions.flatMap((x) => x.trouble.map((t) => `${x.share} ${x.id}: ${t}`));

    // ------------------------------------------------------------ report
    say.push(`# Escalation under load: ${actions.length} urgent actions, ${N} workspaces, 2 instances, world clock ${SPEED}x`);
    say.push(
      `${new Date().toISOString()}. ${dbLine}. One process on ${cpus().length} shared cores (sandbox, Slack fake with today's rate limits, both instances, the people). Jobs on the app's schedules: ${schedules}. Ladder: every 15 min thread, seniors (2 on the Day shift), managers' channel; follow-up 30 min. Load (1 min): ${loads[0]} at the start, ${loads.at(-1)} at the end.`,
    );
    say.push(`Ladders set through /care escalation: ${ladders}/${N}. Shares per workspace: 3 unanswered, 3 taken, 2 on it, 2 can't.`);
    say.push('');
    say.push('| Step | Count | Lateness p50 | p99 | max | of which waiting for a run of the job: p50 / p99 / max |');
    say.push('|---|---|---|---|---|---|');
    const order = [
      'thread',
      'seniors',
      'managers',
      'thread (early)',
      'seniors (early)',
      'managers (early)',
      'follow-up DM',
      'resumed seniors',
      'resumed managers',
    ];
    const all: number[] = [];
    const allAfter: number[] = [];
    const three = (xs: number[]) => `${secs(pct(xs, 50))} / ${secs(pct(xs, 99))} / ${secs(xs.at(-1) ?? 0)}`;
    for (const what of order) {
      const xs = (late[what] ?? []).sort((p, q) => p - q);
      const ys = (waitRun[what] ?? []).sort((p, q) => p - q);
      all.push(...xs);
      allAfter.push(...ys);
      if (xs.length) say.push(`| ${what} | ${xs.length} | ${secs(pct(xs, 50))} | ${secs(pct(xs, 99))} | ${secs(xs.at(-1)!)} | ${three(ys)} |`);
    }
    all.sort((p, q) => p - q);
    allAfter.sort((p, q) => p - q);
    say.push(`| **every step** | ${all.length} | ${secs(pct(all, 50))} | ${secs(pct(all, 99))} | ${secs(all.at(-1) ?? 0)} | ${three(allAfter)} |`);
    say.push('');
    say.push(
      "Waiting for a run: the clock of the escalation job's run that did the step (the app's record: the step's `at`, the follow-up's `dmAt`, the resume's `at`) minus the due time; the rest is the run's own work (care reads, Slack posts and their pacing).",
    );
    say.push(
      "Lateness: the ledger row's sent time (world clock) minus the due time by the app's policy (the episode start + 15/30/45 min; an early step: the last \"I can't\" it needed; the follow-up DM: the take or on-it + 30 min; the resumed seniors: the DM + 30 min; the resumed managers: the resume + 15 min).",
    );
    say.push('');
    say.push('| Exactly once | Result |');
    say.push('|---|---|');
    say.push(
      `| Step rows planned / owed by what the people did / sent | ${expectedRows} / ${owedRows} / ${sentRows.length} (rows in the ledger ${rows.length}) |`,
    );
    say.push(
      `| Answers that never came (the people gave up pressing; the action climbed the ladder unanswered) | ${answersNeverCame}; steps of the ladder due before a late take or on-it: ${stepsBeforeLateAnswer} rows |`,
    );
    if (atWindow)
      say.push(
        `| At the end of the planned window (${((endBy - began) / MIN).toFixed(0)} world min) | ${atWindow.sent} sent; ${atWindow.notDue} not yet due by the app's records${atWindow.notDue ? ` (the last at +${((atWindow.lastDue - began) / MIN).toFixed(1)} min)` : ''}, ${atWindow.dueUnsent} due and not sent |`,
      );
    {
      const lateBy = (share: Share) =>
        answeredLate
          .filter((l) => l.share === share)
          .map((l) => l.ms)
          .sort((p, q) => p - q);
      for (const share of ['taken', 'on-it'] as const) {
        const xs = lateBy(share);
        if (xs.length)
          say.push(
            `| Answers (${share}) held after alert + 1 min: p50 / p99 / max | ${secs(pct(xs, 50))} / ${secs(pct(xs, 99))} / ${secs(xs.at(-1)!)} (${xs.length}) |`,
          );
      }
    }
    say.push(`| Missing | ${missing.length}${missing.length ? `: ${missing.slice(0, 5).join('; ')}` : ''} |`);
    say.push(`| Unexpected rows | ${unexpected.length}${unexpected.length ? `: ${unexpected.slice(0, 5).join('; ')}` : ''} |`);
    say.push(`| Slack posts per step row: duplicates | ${duplicates} (rows sent with no post found: ${sentWithoutPost}) |`);
    say.push(`| Steps sent whose due time could not be read | ${noDue.length}${noDue.length ? `: ${noDue.slice(0, 3).join('; ')}` : ''} |`);
    say.push(
      `| People's clicks that failed | ${troubles.length}${troubles.length ? `: ${troubles.slice(0, 3).join('; ')}` : ''}; buttons pressed again because the modal did not open (expired trigger_id) ${modalRetries}; answers submitted again because the app did not have them (another modal took the submit) ${answersRetried} |`,
    );
    say.push('');
    say.push(`| Slack method | Tier (per min per workspace) | Calls ok | 429 | other errors | Most in one workspace-minute |`);
    say.push('|---|---|---|---|---|---|');
    for (const [method, m] of Object.entries(calls).sort((p, q) => q[1].ok - p[1].ok)) {
      const tier = RATE_TIERS[method];
      const tierText = tier === undefined ? '?' : tier === 'special' ? 'special' : `${tier} (${TIER_PER_MINUTE[tier]})`;
      say.push(`| ${method} | ${tierText} | ${m.ok} | ${m.limited} | ${m.other} | ${m.maxPerWorkspaceMinute} |`);
    }
    say.push('');
    say.push(
      `429s answered by the fake: ${limits.limited} (by method ${JSON.stringify(limits.byMethod)}); left unanswered (the newest call of that method and channel in a workspace was a 429): ${unanswered} ${JSON.stringify(unansweredByMethod)}; calls repeated inside a Retry-After: ${limits.repeatedInsideRetryAfter}`,
    );
    say.push(
      `Care API requests from the first action to the end: ${careAfter - careBefore} (${((careAfter - careBefore) / actions.length).toFixed(1)} per action)`,
    );
    say.push(
      `Wall ${secs(wallMs)} (world ${((wallMs * SPEED) / MIN).toFixed(1)} min); CPU of the process ${secs((cpu.user + cpu.system) / 1000)} (user ${secs(cpu.user / 1000)}, system ${secs(cpu.system / 1000)}), ${((100 * (cpu.user + cpu.system)) / 1000 / wallMs).toFixed(0)}% of one core; scheduled runs ${tickStats.runs}, failed ${tickStats.failed}`,
    );
    say.push(
      `Escalation ticks (both instances, every workspace): runs ${escalationTicks.ran}, skipped ${escalationTicks.skipped} (the other instance's, or a run still going); the longest tick (until its last workspace's run ended) ${secs(escalationTicks.longestMs)} of world time`,
    );
    say.push(`App log: ${logCounts.warn} warnings, ${logCounts.error} errors`);
    for (const line of firstLogs) say.push(`  ${line}`);
    process.stdout.write(`${say.join('\n')}\n`);
  } finally {
    for (const undo of cleanup.reverse()) await undo().catch((err: unknown) => progress(`clean-up: ${String(err)}`));
  }
}

/** Every escalation and follow-up row of the ledger (all workspaces). */
async function stepRows(app: Deployment): Promise<Delivery[]> {
  const [esc, fu] = await Promise.all([
    app.store.listDeliveries({ kind: 'escalation', limit: 100_000 }),
    app.store.listDeliveries({ kind: 'followup', limit: 100_000 }),
  ]);
  return [...esc, ...fu];
}

/**
 * The resumed chains still to come, by the app's own records (a take or on-it that came late starts its chain late):
 * how many of their last steps (the resumed managers) are not yet due at `now`, how many are due and not sent, and
 * the latest due time known.
 */
async function openSteps(actions: Bench[], app: Deployment, now: number): Promise<{ notDue: number; dueUnsent: number; lastDue: number }> {
  const out = { notDue: 0, dueUnsent: 0, lastDue: 0 };
  for (const x of actions) {
    // (One whose answer never came, its people having given up, climbed the plain ladder instead.)
    if ((x.share !== 'taken' && x.share !== 'on-it') || x.trouble.length) continue;
    const store = scopedWorkspaceStore(app.store, x.teamId);
    const p = parseProgress(await store.getCursor(progressCursor(x.id)));
    if (p?.done.some((d) => d.step === 'managers' && d.again)) continue;
    const f = parseFollowUp(await store.getCursor(followUpCursor(x.id)));
    const due = p?.resumed
      ? Date.parse(p.resumed.firstDueAt) + 15 * MIN
      : f?.dmAt
        ? Date.parse(f.dmAt) + 45 * MIN
        : f
          ? Date.parse(f.heldSince) + 75 * MIN
          : Number.POSITIVE_INFINITY;
    if (due > now) out.notDue++;
    else out.dueUnsent++;
    if (Number.isFinite(due)) out.lastDue = Math.max(out.lastDue, due);
  }
  return out;
}

async function careRequests(controls: string[]): Promise<number> {
  let total = 0;
  for (const url of controls) total += ((await (await fetch(`${url}/stats`)).json()) as { total: number }).total;
  return total;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
