import type { CareClient } from '../care/index.js';
import type { AssignmentNotices } from '../services/assignment-notices.js';
import type { ChangeNotices } from '../services/change-notices.js';
import type { CompletionNotices } from '../services/completion-notices.js';
import type { CareObservations } from '../services/care-observations.js';
import type { CreatorNotices } from '../services/creator-notices.js';
import type { FirstLook } from '../services/first-look.js';
import { CHANGES_CURSOR, CHANGES_LAST_RUN_CURSOR, type LastPollRun } from '../services/poll-cursors.js';
import { changedPages } from '../services/changes-feed.js';
import type { ChangesObserver } from '../services/read-cache/change-sync.js';
import type { UrgentAlerts } from '../services/urgent-alerts.js';
import type { WorkspaceStore } from '../store/index.js';
import { parseApiDateTime } from '../time/slack-date.js';
import type { Job, JobKind } from './job.js';

export { CHANGES_CURSOR };

/** How many of a page's actions are worked at once. */
const PAGE_CONCURRENCY = 8;

/** Run `work` over `items`, at most `limit` at a time; rejects with the first error once all have settled. */
async function eachWithLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch((err: unknown) => void errors.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length) throw errors[0];
}

export interface ChangesPollReport {
  requests: number;
  seen: number;
  completions: number;
}

/**
 * One poll of `filters-modified_after` (cursor minus an overlap, so nothing
 * that changed between polls slips through) finds completions made in the
 * care system's own web app, actions that became urgent, and new assignees. Everything it does
 * is idempotent, so the overlap only costs re-reads.
 *
 * Pages are keyed on `modified`, not numbered: each next page asks again from
 * the last second seen. A record that changes while we read moves to the end
 * of the order; with numbered pages that shifts the records behind it and one
 * of them would be skipped (and lost for good once the cursor moved past it).
 * The cursor moves after each page to a point everything before which was
 * seen, so a failed run resumes where it stopped. When nothing changed, a poll
 * is one request.
 */
export function changesPollJob(
  kind: JobKind,
  deps: {
    care: CareClient;
    store: WorkspaceStore;
    notices: CompletionNotices;
    urgent: UrgentAlerts;
    assignments: AssignmentNotices;
    changes?: ChangeNotices;
    /** The creator (through Slack) of each completed action is told, once per completion. */
    creators?: CreatorNotices;
    /** What happened in the care system, written to the audit for each action's history (before the memories below move on). */
    observations?: CareObservations;
    /** The app's first look at the care system: what was already so then is not news (services/first-look.ts). */
    firstLook: FirstLook;
    overlapMs: number;
    /** The app's clock, for the time of the last run. */
    now?: () => Date;
    /** After a poll that read everything: the newest `modified` it knows of (ms since the epoch). */
    onPolled?: ((newestModifiedMs: number) => void) | undefined;
    /** The instance's action cache: every page read, and each complete run (see read-cache/change-sync.ts). */
    cacheFeed?: ChangesObserver;
  },
): Job {
  /**
   * The very first poll starts from the care system's own time, never the
   * app's: the newest `modified` it holds (one request, once). A care clock
   * behind the app's would otherwise hide every change until it caught up.
   */
  async function careSystemsLatest(report: ChangesPollReport): Promise<number> {
    const res = await deps.care.actions.list({ attributes: ['_id', 'modified'], sort_by: ['-modified'], per_page: 1 });
    report.requests++;
    return parseApiDateTime(res.items[0]?.modified)?.getTime() ?? 0; // nothing yet: everything from the beginning
  }

  const MAX_REQUESTS = 2_000; // a runaway guard, far above any real backlog
  const job: Job = {
    ...kind,
    async run({ signal }): Promise<ChangesPollReport> {
      const report: ChangesPollReport = { requests: 0, seen: 0, completions: 0 };
      report.requests += await deps.firstLook.ensureTaken([(a) => deps.assignments.remember(a), (a) => deps.urgent.remember(a)]);
      const stored = await deps.store.getCursor(CHANGES_CURSOR);
      let start: number;
      if (stored) start = Date.parse(stored);
      else {
        // Kept before any page is read: a first poll cut short (a crash, a lost lease) is resumed from
        // here by the next poll, on any instance, instead of that poll taking a later starting point.
        start = await careSystemsLatest(report);
        await deps.store.setCursor(CHANGES_CURSOR, new Date(start).toISOString());
      }
      let cursor = start;
      let newest = start;
      const subscriptions = (await deps.store.listSubscriptions()).filter((s) => s.urgentAlerts);
      // `modified_after` has whole-second resolution and excludes its own second (never before 1970).
      const firstSince = Math.max(0, Math.floor((start - deps.overlapMs) / 1000) * 1000);
      const startedAt = deps.cacheFeed?.started({ sinceMs: firstSince });
      let complete = false;
      const before = report.requests;
      const now = () => deps.cacheFeed?.mark() ?? 0;
      for await (const page of changedPages(deps.care, { sinceMs: firstSince, maxRequests: MAX_REQUESTS - before, now })) {
        report.requests = before + page.requests;
        if (startedAt !== undefined) deps.cacheFeed?.page(page.items, page.readStart);
        // Each action's notices, alerts and assignment DMs are its own ledger rows and cursors, so a page's
        // actions are worked a few at a time: one slow Slack post does not hold back the rest of the page.
        // The cursor moves only once the whole page is done.
        await eachWithLimit(page.items, PAGE_CONCURRENCY, async (action) => {
          report.seen++;
          await deps.observations?.observe(action);
          if (action.completed && action.notify_on_complete?.length) {
            report.completions++;
            await deps.notices.deliver(action);
          }
          if (action.completed) await deps.creators?.deliver(action);
          await deps.urgent.consider(action, subscriptions);
          await deps.assignments.consider(action);
        });
        newest = Math.max(newest, page.newestMs);
        if (!page.more) {
          complete = true;
          break;
        }
        // Everything modified before where the next page is read from is done.
        if (page.nextSinceMs > cursor) {
          cursor = page.nextSinceMs;
          await deps.store.setCursor(CHANGES_CURSOR, new Date(cursor).toISOString());
        }
        if (signal.aborted) return report;
      }
      if (newest > start) await deps.store.setCursor(CHANGES_CURSOR, new Date(Math.max(newest, cursor)).toISOString());
      if (complete && startedAt !== undefined) deps.cacheFeed?.covered({ sinceMs: firstSince, throughMs: Math.max(newest, cursor), startedAt });
      await deps.notices.retryUnfinished();
      await deps.urgent.retryUnfinished(subscriptions);
      await deps.assignments.retryUnfinished();
      await deps.changes?.retryUnfinished();
      await deps.creators?.retryUnfinished();
      deps.onPolled?.(Math.max(newest, cursor));
      return report;
    },
  };
  // Each run, finished or failed, is remembered for the admins' status (a failed one keeps its cursor as it was).
  const remember = async (report: ChangesPollReport | undefined, err?: unknown) => {
    const at = (deps.now?.() ?? new Date()).toISOString();
    // A failed run keeps the time of the last good one (the admins' status tells a late poll by it).
    const lastOkAt = err === undefined ? at : await lastOkBefore();
    const run: LastPollRun = {
      at,
      ok: err === undefined,
      ...(err === undefined ? {} : { error: (err instanceof Error ? err.message : String(err)).slice(0, 300) }),
      requests: report?.requests ?? 0,
      seen: report?.seen ?? 0,
      ...(lastOkAt ? { lastOkAt } : {}),
    };
    return deps.store.setCursor(CHANGES_LAST_RUN_CURSOR, JSON.stringify(run)).catch(() => undefined);
  };
  async function lastOkBefore(): Promise<string | undefined> {
    try {
      const before = JSON.parse((await deps.store.getCursor(CHANGES_LAST_RUN_CURSOR)) ?? 'null') as LastPollRun | null;
      return before?.lastOkAt ?? (before?.ok ? before.at : undefined);
    } catch {
      return undefined;
    }
  }
  return {
    ...job,
    async run(ctx) {
      let report: ChangesPollReport;
      try {
        report = (await job.run(ctx)) as ChangesPollReport;
      } catch (err) {
        await remember(undefined, err);
        throw err;
      }
      await remember(report);
      return report;
    },
  };
}
