import type { Action, CareClient } from '../care/index.js';
import type { AssignmentNotices } from '../services/notices/assignment-notices.js';
import type { ChangeNotices } from '../services/notices/change-notices.js';
import type { CompletionNotices } from '../services/notices/completion-notices.js';
import type { CareObservations } from '../services/actions/care-observations.js';
import type { CreatorNotices } from '../services/notices/creator-notices.js';
import type { DueHistoryService } from '../services/evidence/due-history.js';
import type { FirstLook } from '../services/notices/first-look.js';
import type { PostRedraw } from '../services/notices/post-redraw.js';
import type { Retention } from '../services/evidence/retention.js';
import { CHANGES_CURSOR, lastRunRefreshMs } from '../services/admin/poll-cursors.js';
import { changedPages } from '../services/read-cache/changes-feed.js';
import type { ChangesObserver } from '../services/read-cache/change-sync.js';
import type { UrgentAlerts } from '../services/urgent/urgent-alerts.js';
import { urgentAlertSubscriptionsOf } from '../services/urgent/urgent-audience.js';
import type { Subscription, WorkspaceStore } from '../store/index.js';
import { parseApiDateTime } from '../time/slack-date.js';
import type { Job, JobContext, JobKind } from './job.js';
import { createLastRunRecorder } from './poll-last-run.js';
import { createWorkedVersions } from './worked-versions.js';

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
 *
 * What the overlap reads again is not worked again when this instance already worked that exact version
 * (worked-versions.ts): an idle poll that follows this instance's own last run reads nothing from the
 * store but whether any delivery is unfinished (and not that when the scheduler read it for every workspace
 * at the start of the tick: JobContext.unfinishedDeliveries), and writes nothing (its cursor is the one it knows, the
 * subscriptions are read only when an action is worked or a sweep runs, and the last run is written when
 * it says something new or its refresh is due: poll-last-run.ts).
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
    /** The app's first look at the care system: what was already so then is not news (services/notices/first-look.ts). */
    firstLook: FirstLook;
    overlapMs: number;
    /** The app's clock, for the time of the last run. */
    now?: () => Date;
    /** After a poll that read everything: the newest `modified` it knows of (ms since the epoch). */
    onPolled?: ((newestModifiedMs: number) => void) | undefined;
    /** The instance's action cache: every page read, and each complete run (see read-cache/change-sync.ts). */
    cacheFeed?: ChangesObserver;
    /** Told every action read: when each was completed (or opened again), for the retention of the app's messages. */
    retention?: Pick<Retention, 'observe'>;
    /** Every live post about each action read drawn again as it is now, once per version (after its notices and alerts). */
    redraw?: Pick<PostRedraw, 'follow' | 'retryUnfinished'>;
    /** Told every action read (and each at the first look): its first due time and each reschedule, for the evidence. */
    dueHistory?: DueHistoryService;
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
  const clock = deps.now ?? (() => new Date());
  const everyMs = kind.schedule.everyMs;
  /** The versions of actions worked here (each exact repeat in the overlap is left alone). */
  const worked = createWorkedVersions();
  const lastRun = createLastRunRecorder({ store: deps.store, now: clock, refreshMs: lastRunRefreshMs(everyMs / 1000) });
  /** The changes cursor as this instance last read or wrote it (ms). */
  let knownCursor: number | null = null;
  /** When this instance's last run ended (the app's clock, ms); null after a run cut short. */
  let endedAtMs: number | null = null;
  /**
   * The run before this one was this instance's own, at the last tick: no other instance polled in between
   * (it would have run a tick of its own, so this one's gap is two intervals or more). Then the cursor and the
   * last-run row are still as this instance left them. (Were they not, the cursor known here would be an
   * earlier one: the poll reads more again, which its idempotent work allows.)
   */
  const followsOwnRun = (): boolean => {
    const t = clock().getTime();
    return endedAtMs !== null && t >= endedAtMs && t - endedAtMs < 1.5 * everyMs;
  };
  const moveCursor = async (ms: number) => {
    await deps.store.setCursor(CHANGES_CURSOR, new Date(ms).toISOString());
    knownCursor = ms;
  };

  async function poll({ signal, unfinishedDeliveries }: JobContext, followsOwn: boolean): Promise<ChangesPollReport> {
    const report: ChangesPollReport = { requests: 0, seen: 0, completions: 0 };
    const dueHistory = deps.dueHistory;
    report.requests += await deps.firstLook.ensureTaken([
      (a) => deps.assignments.remember(a),
      (a) => deps.urgent.remember(a),
      ...(dueHistory ? [(a: Parameters<DueHistoryService['observe']>[0]) => dueHistory.observe(a, 'first-look')] : []),
    ]);
    // Following its own last run, this instance knows the cursor (no other instance moved it since).
    const known = followsOwn ? knownCursor : null;
    const stored = known === null ? await deps.store.getCursor(CHANGES_CURSOR) : null;
    let start: number;
    if (known !== null) start = known;
    else if (stored) start = Date.parse(stored);
    else {
      // Kept before any page is read: a first poll cut short (a crash, a lost lease) is resumed from
      // here by the next poll, on any instance, instead of that poll taking a later starting point.
      start = await careSystemsLatest(report);
      await moveCursor(start);
    }
    knownCursor = start;
    let cursor = start;
    let newest = start;
    // Read once a run, when first needed: an action to work, or a retry sweep.
    let urgentChannels: Promise<Subscription[]> | undefined;
    const subscriptions = () => {
      urgentChannels ??= urgentAlertSubscriptionsOf(deps.store);
      return urgentChannels;
    };
    // `modified_after` has whole-second resolution and excludes its own second (never before 1970).
    const firstSince = Math.max(0, Math.floor((start - deps.overlapMs) / 1000) * 1000);
    worked.forgetBefore(firstSince);
    const startedAt = deps.cacheFeed?.started({ sinceMs: firstSince });
    let complete = false;
    let workedAny = false;
    const before = report.requests;
    const now = () => deps.cacheFeed?.mark() ?? 0;
    for await (const page of changedPages(deps.care, { sinceMs: firstSince, maxRequests: MAX_REQUESTS - before, now })) {
      report.requests = before + page.requests;
      if (startedAt !== undefined) deps.cacheFeed?.page(page.items, page.readStart);
      // Each action's notices, alerts and assignment DMs are its own ledger rows and cursors, so a page's
      // actions are worked a few at a time: one slow Slack post does not hold back the rest of the page.
      // The cursor moves only once the whole page is done.
      // Posts about the page's actions are drawn again after every notice and alert of the page went out
      // (a redraw waits on chat.update's pace), and before the cursor moves past them (so a crash redraws them).
      // An exact repeat of a version worked here is left alone: its notices, alerts and memories are as they were.
      report.seen += page.items.length;
      const fresh = page.items.filter((action) => !worked.has(action));
      if (fresh.length) workedAny = true;
      const changed: typeof page.items = [];
      /** Versions a service asked to be shown again (a completion through Slack under way): not remembered as worked. */
      const readAgain = new Set<Action>();
      await eachWithLimit(fresh, PAGE_CONCURRENCY, async (action) => {
        await deps.observations?.observe(action);
        await deps.dueHistory?.observe(action, 'poll');
        if (action.completed && action.notify_on_complete?.length) {
          report.completions++;
          if ((await deps.notices.deliver(action)).waiting) readAgain.add(action);
        }
        if (action.completed && (await deps.creators?.deliver(action))?.waiting) readAgain.add(action);
        await deps.urgent.consider(action, await subscriptions());
        await deps.assignments.consider(action);
        await deps.retention?.observe(action);
        changed.push(action);
        if (!deps.redraw && !readAgain.has(action)) worked.add(action);
      });
      if (deps.redraw)
        await eachWithLimit(changed, PAGE_CONCURRENCY, async (action) => {
          await deps.redraw!.follow(action);
          if (!readAgain.has(action)) worked.add(action);
        });
      newest = Math.max(newest, page.newestMs);
      if (!page.more) {
        complete = true;
        break;
      }
      // Everything modified before where the next page is read from is done.
      if (page.nextSinceMs > cursor) {
        cursor = page.nextSinceMs;
        await moveCursor(cursor);
      }
      if (signal.aborted) return report;
    }
    if (newest > start) await moveCursor(Math.max(newest, cursor));
    if (complete && startedAt !== undefined) deps.cacheFeed?.covered({ sinceMs: firstSince, throughMs: Math.max(newest, cursor), startedAt });
    // One query first: with nothing pending or failed for a passing reason, every sweep would find nothing. The
    // scheduler may have asked it for every workspace at the start of this tick; a run that worked an action
    // (its deliveries may have been left unfinished just now) asks again.
    const told = workedAny ? undefined : unfinishedDeliveries;
    if (told ?? (await deps.store.anyUnfinishedDeliveries())) {
      await deps.notices.retryUnfinished();
      await deps.urgent.retryUnfinished(await subscriptions());
      await deps.assignments.retryUnfinished();
      await deps.changes?.retryUnfinished();
      await deps.creators?.retryUnfinished();
      await deps.redraw?.retryUnfinished();
    }
    deps.onPolled?.(Math.max(newest, cursor));
    return report;
  }

  return {
    ...kind,
    // Each run, finished or failed, is remembered for the admins' status (a failed one keeps its cursor as it was).
    async run(ctx) {
      const followsOwn = followsOwnRun();
      let report: ChangesPollReport;
      try {
        report = await poll(ctx, followsOwn);
      } catch (err) {
        endedAtMs = clock().getTime();
        await lastRun.record(undefined, err, followsOwn);
        throw err;
      }
      // Cut short (the lease lost, the scheduler stopping): another instance may poll next; nothing known here is kept.
      const cutShort = ctx.signal.aborted;
      endedAtMs = cutShort ? null : clock().getTime();
      if (cutShort) knownCursor = null;
      await lastRun.record(report, undefined, followsOwn && !cutShort);
      return report;
    },
  };
}
