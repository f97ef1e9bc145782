/**
 * bench/tenants.ts's doubles in a process of their own, so that the instances'
 * process holds the instances alone: the sandbox care API (dev/sandbox: one
 * account per workspace, demo data, 10 req/s per key) and the Slack fake
 * (dev/slack-fake: one workspace per account, today's rate limits on or off,
 * each workspace a distributed install or an internal one).
 *   node --import tsx bench/tenants-doubles.ts   (spawned by bench/tenants.ts with an IPC channel; config in TENANTS_DOUBLES)
 *
 * Once both listen it sends `{ ready }` (their URLs, the accounts, the
 * workspaces); then it answers the parent's requests `{ id, op, … }` with
 * `{ id, ok, value | error }`:
 * - `clock` `{ offsetMs }`: the world's clock is Date.now() + offsetMs from now on: the sandbox's virtual
 *   clock is set to it and the fake's clock (rate limits, message ts, call times) reads it;
 * - `stats`: each account's care API requests so far, by route and status;
 * - `digests` `{ since }`: the digest posts the fake has had since `since` (fake clock ms);
 * - `slack` `{ since }`: the Slack calls since then by method and status, the fake's rate-limit report in
 *   short, and the 429s left unanswered (below);
 * - `memory`: this process's memory.
 * The parent ends it by closing the channel (or killing it): it stops both and exits.
 */
import { performance } from 'node:perf_hooks';
import { type RunningSandbox, startSandbox } from '../dev/sandbox/index.js';
import type { SandboxAccountInfo } from '../dev/sandbox/index.js';
import { type SlackFake, startSlackFake, type WorkspaceInstall } from '../dev/slack-fake/index.js';
import { benchWorkspace, CHANNELS_PER_WORKSPACE, channelIdOf } from './tenants-fixtures.js';

export interface DoublesConfig {
  workspaces: number;
  /** The world's clock at the start (ms since the epoch). */
  startMs: number;
  /** Today's Slack rate limits in the fake (tiers, posting rule, the distributed-app history rule). */
  rateLimits: boolean;
  /** How the app is distributed to every workspace (the fake's history rule follows it). */
  appDistribution: 'internal' | 'distributed' | 'marketplace';
}

export interface DoublesReady {
  sandboxUrl: string;
  sandboxControlsUrl: string;
  slackApiUrl: string;
  accounts: SandboxAccountInfo[];
  workspaces: WorkspaceInstall[];
  sandboxMs: number;
  fakeMs: number;
}

export type AccountStats = { total: number; byRoute: Record<string, Record<string, number>> };

export interface DigestPosts {
  /** Each digest summary (a top-level post in a digest channel), ms from `since` to its answer. */
  latencies: number[];
  /** Thread replies in digest channels, and ms from `since` to the last one's answer (0: none). */
  parts: number;
  lastPartMs: number;
  /** Digest channels with more than one summary (the extra ones), and with none. */
  duplicates: number;
  missing: number;
}

/** A 429 the fake answered with no later answered call of the same method in the same workspace (and conversation, for posts). */
export interface Unanswered {
  method: string;
  teamId: string;
  channel?: string;
  at: number;
}

export interface SlackSummary {
  /** Calls since `since`, by method, then HTTP status. */
  calls: Record<string, Record<string, number>>;
  /** The fake's rate-limit report, in short (counts are exact, since the fake started). */
  limits: {
    enabled: boolean;
    limited: number;
    byMethod: Record<string, number>;
    byRule: Record<string, number>;
    repeatedInsideRetryAfter: number;
    /** Largest history + replies calls of one workspace in one minute of the fake's clock, and the workspace-minutes with any. */
    historyMaxPerWorkspaceMinute: number;
    historyWorkspaceMinutes: number;
    historyCalls: number;
  };
  unanswered: Unanswered[];
}

type Request = { id: number; op: 'clock'; offsetMs: number } | { id: number; op: 'stats' | 'memory' } | { id: number; op: 'digests' | 'slack'; since: number };

const send = (message: unknown) => new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (err) => (err ? reject(err) : resolve())));

/** Run `work` over 0..n-1, `limit` at a time. */
async function eachIndex(n: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('start me with an IPC channel (bench/tenants.ts does)');
  const config = JSON.parse(process.env.TENANTS_DOUBLES ?? '') as DoublesConfig;
  const n = config.workspaces;
  let offsetMs = config.startMs - Date.now();
  const clock = { now: () => Date.now() + offsetMs };

  let t = performance.now();
  const sandbox: RunningSandbox = await startSandbox({ port: 0, accounts: n, seed: 'demo', controls: true, rateLimit: 10, startTime: new Date(clock.now()) });
  const sandboxMs = performance.now() - t;
  t = performance.now();
  const workspaces = sandbox.accounts.map((account, i) => ({ ...benchWorkspace(i, account), appDistribution: config.appDistribution }));
  const fake: SlackFake = await startSlackFake({ workspaces, rateLimits: config.rateLimits, clock });
  const fakeMs = performance.now() - t;
  const teams = workspaces.map((w) => fake.workspace(w.team.id));
  const digestChannels = new Set(workspaces.flatMap((_, i) => Array.from({ length: CHANNELS_PER_WORKSPACE }, (_, c) => channelIdOf(i, c + 1))));

  const control = async (url: string, body?: unknown) => {
    const res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`sandbox control ${url}: ${res.status}`);
    return res.json() as Promise<unknown>;
  };

  const handlers = {
    async clock(r: { offsetMs: number }) {
      offsetMs = r.offsetMs;
      await control(`${sandbox.controlsUrl}/clock`, { set: new Date(clock.now()).toISOString() });
      return { now: clock.now() };
    },
    async stats() {
      const out: AccountStats[] = new Array(n);
      await eachIndex(n, 16, async (i) => {
        out[i] = (await control(`${sandbox.accounts[i]!.controlsUrl}/stats`)) as AccountStats;
      });
      return out.map((s) => ({ total: s.total, byRoute: s.byRoute }));
    },
    async digests(r: { since: number }): Promise<DigestPosts> {
      const out: DigestPosts = { latencies: [], parts: 0, lastPartMs: 0, duplicates: 0, missing: 0 };
      for (const team of teams) {
        const parents = new Map<string, number>();
        for (const c of team.store.state.calls) {
          if (c.method !== 'chat.postMessage' || c.at < r.since || c.result.ok !== true || !digestChannels.has(String(c.args.channel))) continue;
          if (c.args.thread_ts) {
            out.parts++;
            out.lastPartMs = Math.max(out.lastPartMs, c.at + c.durationMs - r.since);
          } else {
            out.latencies.push(c.at + c.durationMs - r.since);
            parents.set(String(c.args.channel), (parents.get(String(c.args.channel)) ?? 0) + 1);
          }
        }
        for (const ch of team.state.channels.filter((c) => digestChannels.has(c.id))) {
          const k = parents.get(ch.id) ?? 0;
          if (k > 1) out.duplicates += k - 1;
          if (k === 0) out.missing++;
        }
      }
      out.latencies.sort((x, y) => x - y);
      return out;
    },
    async slack(r: { since: number }): Promise<SlackSummary> {
      const calls: Record<string, Record<string, number>> = {};
      const unanswered: Unanswered[] = [];
      for (const team of teams) {
        // The newest call of each method (and conversation, for posts): a 429 that nothing answered since.
        const last = new Map<string, { status: number; at: number; method: string; channel?: string }>();
        for (const c of team.store.state.calls) {
          if (c.at >= r.since) {
            const byStatus = (calls[c.method] ??= {});
            byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
          }
          const channel = c.method.startsWith('chat.post') ? String(c.args.channel ?? '') : undefined;
          last.set(`${c.method}|${channel ?? ''}`, { status: c.status, at: c.at, method: c.method, ...(channel !== undefined ? { channel } : {}) });
        }
        for (const l of last.values()) if (l.status === 429) unanswered.push({ teamId: team.teamId, ...l });
      }
      const report = fake.rateLimits();
      const byRule: Record<string, number> = {};
      for (const c of report.calls) byRule[c.rule] = (byRule[c.rule] ?? 0) + 1;
      const reads = report.historyReads.map((m) => m.history + m.replies);
      return {
        calls,
        limits: {
          enabled: report.enabled,
          limited: report.limited,
          byMethod: report.byMethod,
          byRule,
          repeatedInsideRetryAfter: report.repeatedInsideRetryAfter,
          historyMaxPerWorkspaceMinute: Math.max(0, ...reads),
          historyWorkspaceMinutes: reads.length,
          historyCalls: reads.reduce((x, y) => x + y, 0),
        },
        unanswered,
      };
    },
    async memory() {
      return process.memoryUsage();
    },
  };

  process.on('message', (message: Request) => {
    const { id, op } = message;
    const handler = handlers[op] as (r: Request) => Promise<unknown>;
    Promise.resolve()
      .then(() => handler(message))
      .then(
        (value) => send({ id, ok: true, value }),
        (err: unknown) => send({ id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
      )
      .catch(() => undefined);
  });
  const stop = async () => {
    await fake.close().catch(() => undefined);
    await sandbox.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());

  const ready: DoublesReady = {
    sandboxUrl: sandbox.url,
    sandboxControlsUrl: sandbox.controlsUrl,
    slackApiUrl: fake.apiUrl,
    accounts: [...sandbox.accounts],
    workspaces,
    sandboxMs,
    fakeMs,
  };
  await send({ ready });
}

main().catch((err: unknown) => {
  process.stderr.write(`tenants doubles failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
