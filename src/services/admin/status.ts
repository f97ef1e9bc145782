/**
 * The admins' status (their Home tab): the care API connection, the changes
 * poll, the deliveries of the last 24 hours with the reason of each failed one,
 * the digests, and the app's version; and Retry of a failed delivery, which
 * puts the ledger row back in line and runs it now through the same path the
 * retry sweep takes (claim, look in Slack first, post once).
 */
import type { CareClient } from '../../care/index.js';
import type { Delivery, WorkspaceStore } from '../../store/index.js';
import type { DigestDays } from '../../time/schedule.js';
import type { Shift } from '../../time/shifts.js';
import { isShiftStart, nextStart } from '../../time/start-time.js';
import { localParts } from '../../time/zones.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { CHANGES_CURSOR, CHANGES_LAST_RUN_CURSOR, type LastPollRun, pollLateAfterMs } from './poll-cursors.js';
import type { SlackProfiles } from '../people/slack-profiles.js';

/** Who a delivery was for, as the ledger names them (never an email address: those are hashed). */
export type DeliveryRecipient = { type: 'user'; id: string } | { type: 'channel'; id: string } | { type: 'address' } | { type: 'other' };

export interface FailedDeliveryRow {
  id: number;
  kind: string;
  recipient: DeliveryRecipient;
  reason: string;
  /** Whether Retry is offered: false for outcomes that were decisions (no longer urgent, …), not failures. */
  retry: boolean;
}

export interface StatusReport {
  version: string;
  care: {
    requests: number;
    failures: number;
    /** How long ago the care API last answered like a working API. */
    lastAnswerAgoMs: number | null;
    lastTrouble: { agoMs: number; error: string } | null;
    /** This key's headroom, as the last response's rate-limit headers said. */
    rateLimit: { limit: number; remaining: number; agoMs: number } | null;
  };
  poll: {
    everySeconds: number;
    lastRun: { agoMs: number; ok: boolean; error?: string; requests: number; seen: number } | null;
    /** Now minus the newest `modified` the poll has seen (the care system's clock against the app's). */
    lagMs: number | null;
    /** The newest `modified` the poll has seen: after a quiet night, "no changes since" then. */
    newestChange: Date | null;
    /** How long ago the poll last finished without an error (null: never). */
    lastOkAgoMs: number | null;
    /** The poll itself is behind: no good run for more than LATE_AFTER_POLLS intervals (then the lag is news). */
    late: boolean;
  };
  deliveries: { windowHours: number; sent: number; pending: number; failed: number; rows: FailedDeliveryRow[] };
  /** `next`: null when a named shift start names no shift now; `shifts`: the home's, for a shift start. */
  digests: { channelId: string; time: string; days: DigestDays; timezone: string; last: Date | null; next: Date | null; shifts?: readonly Shift[] }[];
}

/** What a Retry came to: sent now, failed again (the row has the reason), still in someone's hands, or left for the next run. */
export type RetryResult = 'sent' | 'failed' | 'busy' | 'queued';

export interface StatusService {
  /** Admins only. */
  read(admin: Actor, options?: { failedRows?: number }): Promise<StatusReport>;
  /** Admins only: try a failed delivery again now; at most one message still goes out. */
  retry(admin: Actor, deliveryId: number): Promise<{ result: RetryResult; delivery: Delivery }>;
}

/** Runs the unfinished deliveries of a kind now (the same work the retry sweep and the digest tick do). */
export type Redeliver = (delivery: Delivery) => Promise<unknown>;

const WINDOW_MS = 24 * 3600_000;

/** Outcomes the services decided on (the row says why); trying again would decide the same. */
const DECIDED = /^(no longer |completed before |the action no longer exists|no Slack user has this address)/;

export function recipientOf(recipient: string): DeliveryRecipient {
  const m = /^(user|channel|email):[^/]*\/(.+)$/.exec(recipient);
  if (!m) return { type: 'other' };
  if (m[1] === 'email') return { type: 'address' };
  return { type: m[1] as 'user' | 'channel', id: m[2]! };
}

const teamOf = (recipient: string) => /^[a-z-]+:([^/]*)\//.exec(recipient)?.[1];

export function createStatusService(deps: {
  store: WorkspaceStore;
  /** The care home's shifts, for digests at each shift start. */
  shifts?: () => Promise<readonly Shift[]>;
  care: Pick<CareClient, 'stats'>;
  identity: IdentityService;
  profiles: Pick<SlackProfiles, 'tz'>;
  /** Per delivery kind: run its unfinished rows now. Kinds without one get no Retry. */
  redeliver: Partial<Record<string, Redeliver>>;
  version: string;
  pollSeconds: number;
  /** The app's clock (poll runs, digests). */
  now: () => Date;
  /** The clock the care client stamps its stats with (default the wall clock). */
  careNow?: () => number;
  /** The workspace it reports on (bound at composition). */
  teamId: () => Promise<string>;
}): StatusService {
  const { store } = deps;
  const careNow = deps.careNow ?? Date.now;

  async function lastPollRun(): Promise<LastPollRun | null> {
    try {
      const raw = await store.getCursor(CHANGES_LAST_RUN_CURSOR);
      return raw ? (JSON.parse(raw) as LastPollRun) : null;
    } catch {
      return null;
    }
  }

  async function digests(now: Date): Promise<StatusReport['digests']> {
    const teamId = await deps.teamId();
    const subs = (await store.listSubscriptions()).filter((s) => s.teamId === teamId);
    if (!subs.length) return [];
    // One read for every channel: the newest digests sent, the first per channel is its last post.
    const sent = await store.listDeliveries({ kind: 'digest', state: 'sent', order: 'desc', limit: Math.max(200, subs.length * 10) });
    const last = new Map<string, Date>();
    for (const d of sent) {
      // The message's own time (Slack's clock): when people saw it.
      const at = d.slackTs ? new Date(Math.round(Number(d.slackTs) * 1000)) : d.sentAt ? new Date(d.sentAt) : null;
      if (at && !last.has(d.recipient)) last.set(d.recipient, at);
    }
    const shifts = subs.some((s) => isShiftStart(s.time)) ? ((await deps.shifts?.()) ?? []) : [];
    return subs.map((s) => ({
      channelId: s.channelId,
      time: s.time,
      days: s.days,
      timezone: s.timeZone,
      last: last.get(`channel:${s.teamId}/${s.channelId}`) ?? null,
      next: nextStart({ time: s.time, days: s.days, timezone: s.timeZone, shifts }, new Date(Math.max(now.getTime(), s.setUpAt)))?.at ?? null,
      ...(isShiftStart(s.time) ? { shifts } : {}),
    }));
  }

  /** Why this failed row cannot be run again now, or null when it can. */
  async function refusal(d: Delivery): Promise<string | null> {
    if (!deps.redeliver[d.kind]) return 'That kind of message is not sent again from here.';
    if (d.lastError && DECIDED.test(d.lastError)) return `That one was not sent on purpose (${d.lastError}); trying again would decide the same.`;
    const to = recipientOf(d.recipient);
    if (d.kind === 'digest' || d.kind === 'digest-part') {
      if (d.occurrence.startsWith('now:'))
        return 'A digest posted with `/care digest now` is not posted again from here: type `/care digest now` in the channel.';
      const sub = to.type === 'channel' ? await store.getSubscription(to.id) : null;
      if (!sub) return 'That channel has no digest any more.';
      if (d.occurrence.split('#')[0] !== localParts(deps.now(), sub.timeZone).date) {
        return 'Only today’s digest is posted again: an earlier day’s would show old numbers.';
      }
    }
    if (d.kind === 'summary') {
      const setting = to.type === 'user' ? await store.getSummarySetting(to.id) : null;
      if (!setting?.enabled || to.type !== 'user') return 'That person’s morning summary is off now.';
      if (d.occurrence !== localParts(deps.now(), await deps.profiles.tz(to.id)).date) {
        return 'Only today’s morning summary is sent again: an earlier day’s would show old numbers.';
      }
    }
    return null;
  }

  return {
    async read(admin, options = {}) {
      await deps.identity.requireAdmin(admin);
      const now = deps.now();
      const stats = deps.care.stats();
      const wall = careNow();
      const [run, cursor, recent, digestRows, teamId] = await Promise.all([
        lastPollRun(),
        store.getCursor(CHANGES_CURSOR),
        store.recentDeliveries({ windowMs: WINDOW_MS, failedLimit: options.failedRows ?? 5 }),
        digests(now),
        deps.teamId(),
      ]);
      const newest = cursor ? Date.parse(cursor) : Number.NaN;
      const lastOk = run ? Date.parse(run.lastOkAt ?? (run.ok ? run.at : '')) : Number.NaN;
      const lastOkAgoMs = Number.isFinite(lastOk) ? Math.max(0, now.getTime() - lastOk) : null;
      return {
        version: deps.version,
        care: {
          requests: stats.requests,
          failures: stats.failures,
          lastAnswerAgoMs: stats.lastAnswerAt === null ? null : Math.max(0, wall - stats.lastAnswerAt),
          lastTrouble: stats.lastTrouble ? { agoMs: Math.max(0, wall - stats.lastTrouble.at), error: stats.lastTrouble.error } : null,
          rateLimit: stats.lastRateLimit
            ? { limit: stats.lastRateLimit.limit, remaining: stats.lastRateLimit.remaining, agoMs: Math.max(0, wall - stats.lastRateLimit.at) }
            : null,
        },
        poll: {
          everySeconds: deps.pollSeconds,
          lastRun: run
            ? {
                agoMs: Math.max(0, now.getTime() - Date.parse(run.at)),
                ok: run.ok,
                ...(run.error ? { error: run.error } : {}),
                requests: run.requests,
                seen: run.seen,
              }
            : null,
          lagMs: Number.isFinite(newest) ? Math.max(0, now.getTime() - newest) : null,
          newestChange: Number.isFinite(newest) ? new Date(newest) : null,
          lastOkAgoMs,
          late: lastOkAgoMs === null || lastOkAgoMs > pollLateAfterMs(deps.pollSeconds),
        },
        deliveries: {
          windowHours: WINDOW_MS / 3600_000,
          sent: recent.sent,
          pending: recent.pending,
          failed: recent.failed,
          rows: recent.failedRows
            .filter((d) => teamOf(d.recipient) === teamId)
            .map((d) => ({
              id: d.id,
              kind: d.kind,
              recipient: recipientOf(d.recipient),
              reason: d.lastError ?? 'no reason recorded',
              retry: Boolean(deps.redeliver[d.kind]) && !(d.lastError && DECIDED.test(d.lastError)),
            })),
        },
        digests: digestRows,
      };
    },

    async retry(admin, deliveryId) {
      await deps.identity.requireAdmin(admin);
      const row = Number.isSafeInteger(deliveryId) ? await store.getDeliveryById(deliveryId) : null;
      if (!row || teamOf(row.recipient) !== (await deps.teamId())) throw new UserFacingError('That delivery is no longer in the ledger.', 'not-found');
      if (row.state === 'sent') return { result: 'sent', delivery: row };
      if (row.state === 'pending') return { result: 'busy', delivery: row };
      const why = await refusal(row);
      if (why) throw new UserFacingError(why, 'invalid');
      const reopened = await store.reopenDelivery(row.id);
      // Someone else took it meanwhile (another admin's Retry, the sweep): their claim decides.
      if (!reopened) {
        const now = (await store.getDeliveryById(row.id)) ?? row;
        return { result: now.state === 'sent' ? 'sent' : 'busy', delivery: now };
      }
      await store.appendAudit({
        userId: admin.userId,
        verb: 'delivery.retry',
        ...(row.actionId !== '-' ? { actionId: row.actionId } : {}),
        details: { deliveryId: row.id, kind: row.kind, lastError: row.lastError },
      });
      await deps.redeliver[row.kind]!(reopened);
      const after = (await store.getDeliveryById(row.id)) ?? reopened;
      const result: RetryResult =
        after.state === 'sent' ? 'sent' : after.state === 'pending' ? 'busy' : after.attempts === 0 && after.retryable ? 'queued' : 'failed';
      return { result, delivery: after };
    },
  };
}
