/**
 * Retention of the app's own messages (issue 28): some days after an action is completed (the workspace's
 * setting; 0 at once, 'off' never), every post and DM the app sent about it (each sent row of the delivery
 * ledger naming the action: completion notices, urgent alerts, assignment and change DMs) is edited down to
 * one neutral line with no buttons ("Action #301 — completed; details in the care system").
 *
 * Exactly once across instances: each edit is a ledger row of its own (kind `redact`, keyed by the message's
 * channel and ts), claimed as deliveries are. A claim whose holder died goes stale and is taken over; the
 * taker first looks at the message in Slack and, if it already reads the neutral line, only records it.
 * Every call goes through the workspace's paced clients (chat.update is Tier 3); a 429 is waited out within
 * the claim's time, else the row is handed back uncounted for the next run. Once every message of an action
 * is done, its completion is marked redacted and one audit row (verb `redact`, the message count) is
 * written: ids and times only, never task text. The notes written on its urgent answers ("I can't: …") are
 * cleared then too (episode-answers.ts).
 *
 * The notes people wrote on the action (action-notes.ts) are task text too: they are deleted when its messages are.
 *
 * Digests (and their threads) are about many actions at once (their ledger rows name none) and are not
 * edited here; ephemeral answers and modals are not stored by Slack for the app to edit.
 */
import type { HistoryAccess } from '../notices/history-access.js';
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { Action } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { ActionCompletion, Delivery, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { describeSlackError } from '../notices/delivery.js';
import type { MessageRenderers } from '../renderers.js';
import { TAKE_KIND } from '../actions/take-claim.js';

export const REDACT_KIND = 'redact';
export const REDACT_VERB = 'redact';
/** The default retention in days (RETENTION_DAYS). */
export const DEFAULT_RETENTION_DAYS = 30;

/** Days after completion, 0 at once; 'off': kept forever. */
export type RetentionDays = number | 'off';

const DAY_MS = 86_400_000;

/** Pure: completions at or before this instant (ms) are due for redaction; null when kept forever. */
export function redactCompletedBefore(days: RetentionDays, now: Date): number | null {
  return days === 'off' ? null : now.getTime() - days * DAY_MS;
}

/** Pure: how an admin reads a retention setting. */
export function describeRetention(days: RetentionDays): string {
  if (days === 'off') return 'kept forever';
  if (days === 0) return 'edited down to a neutral line as soon as the action is completed';
  return `edited down to a neutral line ${days} day${days === 1 ? '' : 's'} after the action is completed`;
}

/** The ledger key of one message's redaction: one per message (channel and ts), whatever rows named it. */
export function redactionKey(row: Pick<Delivery, 'actionId' | 'recipient' | 'slackChannel' | 'slackTs'>) {
  return { kind: REDACT_KIND, actionId: row.actionId, occurrence: `${row.slackChannel}/${row.slackTs}`, recipient: row.recipient };
}

export interface RetentionReport {
  /** Completions whose every message is now done (marked redacted here). */
  actions: number;
  /** Messages edited by this run. */
  edited: number;
  /** Messages left for a later run (another instance's fresh claim, Slack's rate limit, a passing error). */
  left: number;
}

export interface Retention {
  /** What the changes poll saw of an action: completed (remember when) or open (forget an unredacted completion). */
  observe(action: Pick<Action, '_id' | 'action_no' | 'completed'>): Promise<void>;
  /** Redact what is due; stops between messages when `signal` is aborted. */
  run(options?: { signal?: AbortSignal }): Promise<RetentionReport>;
  /** When the oldest completion not yet redacted comes due (ms); null with none, or retention off (the job's next due time). */
  nextDueAt(): Promise<number | null>;
}

/** Slack errors that mean there is nothing (more) this app can edit: the message or its channel is gone. */
export const GONE: ReadonlySet<string> = new Set([
  'message_not_found',
  'cant_update_message',
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'edit_window_closed',
  'account_inactive',
]);

type Outcome = 'edited' | 'done' | 'left';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createRetention(deps: {
  store: WorkspaceStore;
  /** Edits with this client: no retries of its own (rejectRateLimitedCalls), paced. */
  poster: WebClient;
  /** Reads a message back (a claim taken over) with this one. */
  slack: WebClient;
  days: RetentionDays;
  /** Whether the workspace granted the history scopes (without them a message is edited down again, never read). */
  history?: HistoryAccess | undefined;
  render: Pick<MessageRenderers, 'redacted'>;
  teamId: () => Promise<string>;
  holder: string;
  staleAfterMs: number;
  now: () => Date;
  logger: Logger;
  /** Completions worked per run (default 50). */
  batch?: number;
}): Retention {
  const { store, logger } = deps;
  const budgetMs = deps.staleAfterMs / 2;

  /** Does the message already read the neutral line (an edit whose holder died before recording it)? */
  async function alreadyNeutral(channel: string, ts: string, text: string): Promise<boolean> {
    try {
      if (deps.history && !(await deps.history.readable())) return false;
      const res = await deps.slack.conversations.history({ channel, latest: ts, oldest: ts, inclusive: true, limit: 1 });
      const m = (res.messages ?? []).find((x) => x.ts === ts);
      return m?.text === text;
    } catch (err) {
      logger.debug('could not read a message back before editing it again', { error: describeSlackError(err) });
      return false;
    }
  }

  async function redactOne(completion: ActionCompletion, row: Delivery): Promise<Outcome> {
    const channel = row.slackChannel!;
    const ts = row.slackTs!;
    const claim = await store.claimDelivery(redactionKey(row), { holder: deps.holder, staleAfterMs: deps.staleAfterMs });
    if (claim.outcome === 'sent' || claim.outcome === 'failed') return 'done';
    if (claim.outcome === 'busy') return 'left';
    const id = claim.delivery.id;
    const message = deps.render.redacted({ actionId: completion.actionId, actionNo: completion.actionNo });
    if (claim.outcome === 'reclaimed' && (await alreadyNeutral(channel, ts, message.text))) {
      await store.markSent(id, { channel, ts });
      return 'done';
    }
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await deps.poster.chat.update({ channel, ts, text: message.text, blocks: message.blocks ?? [] });
        await store.markSent(id, { channel, ts });
        return 'edited';
      } catch (err) {
        const code = describeSlackError(err);
        if (GONE.has(code)) {
          // Nothing left to edit (deleted, or the app is out of the channel): done, the reason kept.
          await store.markFailed(id, code, { retryable: false, holder: deps.holder });
          return 'done';
        }
        const e = err as { code?: string; retryAfter?: number };
        const limited = e.code === ErrorCode.RateLimitedError || code === 'ratelimited';
        const wait = limited ? Math.max(1, e.retryAfter ?? 1) * 1000 : Math.min(5000, 250 * 2 ** (attempt - 1));
        if (performance.now() - started + wait >= budgetMs || attempt >= 4) {
          // Handed back for the next run (a 429 is not counted against its attempts).
          await store.markFailed(id, code, { retryable: true, holder: deps.holder, ...(limited ? { countAttempt: false } : {}) });
          return 'left';
        }
        await sleep(wait);
      }
    }
  }

  async function stillSending(actionId: string): Promise<boolean> {
    const [pending, failed] = await Promise.all([
      store.listDeliveries({ actionId, state: 'pending', limit: 100 }),
      store.listDeliveries({ actionId, state: 'failed', limit: 100 }),
    ]);
    // A Take it claim is no message: it never holds an action's redaction back.
    return [...pending, ...failed.filter((d) => d.retryable)].some((d) => d.kind !== REDACT_KIND && d.kind !== TAKE_KIND);
  }

  return {
    async observe(action) {
      const completed = parseApiDateTime(action.completed);
      await store.noteCompletion(action._id, completed ? { actionNo: action.action_no ?? '', completedAt: completed.getTime() } : null);
    },

    async nextDueAt() {
      if (deps.days === 'off') return null;
      const [oldest] = await store.dueRedactions(Number.MAX_SAFE_INTEGER, 1);
      return oldest ? oldest.completedAt + deps.days * DAY_MS : null;
    },

    async run(options = {}) {
      const report: RetentionReport = { actions: 0, edited: 0, left: 0 };
      const before = redactCompletedBefore(deps.days, deps.now());
      if (before === null) return report;
      const due = await store.dueRedactions(before, deps.batch ?? 50);
      for (const completion of due) {
        if (options.signal?.aborted) break;
        const rows = await store.listDeliveries({ actionId: completion.actionId, state: 'sent', limit: 1000 });
        // One edit per message, whatever rows recorded it (oldest row first: the same choice on every instance).
        const messages = new Map<string, Delivery>();
        for (const row of rows) {
          if (row.kind === REDACT_KIND || !row.slackChannel || !row.slackTs) continue;
          const at = `${row.slackChannel}/${row.slackTs}`;
          if (!messages.has(at)) messages.set(at, row);
        }
        let left = 0;
        for (const row of messages.values()) {
          if (options.signal?.aborted) {
            left++;
            continue;
          }
          const outcome = await redactOne(completion, row);
          if (outcome === 'edited') report.edited++;
          if (outcome === 'left') left++;
        }
        // A message about it still on its way (a notice the retry sweep will send) is redacted once sent.
        if (left === 0 && (await stillSending(completion.actionId))) left++;
        report.left += left;
        if (left > 0) continue;
        // Its notes are task text (action-notes.ts): they go with its messages, before the completion is marked (so a crash between leaves none);
        // so do the notes people wrote on its urgent answers (who answered what, and when, stay).
        await store.dropNotes(completion.actionId, deps.now().getTime());
        await store.dropAnswerNotes(completion.actionId);
        if (await store.markRedacted(completion)) {
          const edited = await store.countDeliveries({ kind: REDACT_KIND, actionId: completion.actionId, state: 'sent' });
          await store.appendAudit({
            userId: '-',
            verb: REDACT_VERB,
            actionId: completion.actionId,
            details: { messages: edited },
          });
          logger.info('messages of a completed action redacted', { actionId: completion.actionId, messages: edited });
          report.actions++;
        }
      }
      return report;
    },
  };
}
