import type { WebClient } from '@slack/web-api';
import type { CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { DeliveryKey, WorkspaceStore, SummarySetting } from '../../store/index.js';
import { apiDateRange, dueWindow } from '../../time/due-windows.js';
import type { Shift } from '../../time/shifts.js';
import { dueStart, isShiftStart, nextStart } from '../../time/start-time.js';
import { ACTION_ATTRIBUTES, attentionList } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { Deliverer, DeliveryResult } from '../notices/delivery.js';
import type { IdentityService } from '../people/identity.js';
import type { MessageRenderers } from '../renderers.js';
import type { SlackProfiles } from '../people/slack-profiles.js';
import { createDmChannels } from '../dm-channels.js';

/** The most actions one summary reads (the DM shows what fits and says how many more). */
const MAX_READ = 500;

/**
 * A person's summary on one of their local dates (or at one shift's start,
 * `2027-10-31/Day`), in the delivery ledger: that is the identity, so it goes
 * out once per local day (or shift) whatever the clocks do, from whichever
 * instance, across restarts.
 */
export function summaryKey(teamId: string, slackUserId: string, occurrence: string): DeliveryKey {
  return { kind: 'summary', actionId: '-', occurrence, recipient: `user:${teamId}/${slackUserId}` };
}

export type SummaryOutcome = DeliveryResult | 'not-linked' | 'no-time-zone' | 'read-failed';

export interface SummaryRunReport {
  /** Summaries whose time had come and that were not out yet. */
  due: number;
  results: Partial<Record<SummaryOutcome, number>>;
}

export interface MorningSummaries {
  /** Send every summary whose local time has come today and that has not gone out yet (missed runs included). */
  runDue(now: Date): Promise<SummaryRunReport>;
  /** When the next summary of anyone's comes after `now` (ms, in each person's zone); null with none on (the job's next due time). */
  nextDueAt(now: Date): Promise<number | null>;
}

export function createMorningSummaries(deps: {
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  /** Each person's time zone, read again at least every few minutes (someone who travels gets it at their new local time). */
  profiles: SlackProfiles;
  /** Opens the DM (conversations.open). */
  slack: WebClient;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, 'morningSummary'>;
  logger: Logger;
  /** The home's zone: shift starts are its wall clock. */
  timezone: string;
  /** The care home's shifts, for summaries at each shift start (services/shift-work/shift-settings.ts). */
  shifts: () => Promise<readonly Shift[]>;
}): MorningSummaries {
  const { store, logger } = deps;

  const dmChannel = createDmChannels(deps.slack);

  /**
   * Today's occurrence in the person's zone (or the shift on now, in the home's) when it is due and not
   * out yet; null otherwise.
   */
  async function dueToday(s: SummarySetting, tz: string, now: Date, shifts: readonly Shift[]): Promise<string | null> {
    const occ = dueStart({ time: s.time, days: s.days, timezone: isShiftStart(s.time) ? deps.timezone : tz, shifts }, now);
    if (!occ) return null;
    // Set (or changed) after today's time (or this shift's start): the first summary is the next one, as the person was told.
    if (occ.at.getTime() < s.setAt) return null;
    const done = await store.getDelivery(summaryKey(s.teamId, s.slackUserId, occ.id));
    if (done?.state === 'sent') return null;
    if (done?.state === 'failed' && !done.retryable) return null;
    // The shifts changed since this shift began (renamed, moved): its start was already marked by a summary.
    if (occ.shift && !done) {
      const [last] = await store.listDeliveries({ kind: 'summary', recipient: summaryKey(s.teamId, s.slackUserId, occ.id).recipient, limit: 1, order: 'desc' });
      if (last?.state === 'sent' && last.createdAt >= occ.at.getTime()) return null;
    }
    return occ.id;
  }

  async function send(s: SummarySetting, tz: string, occurrence: string, now: Date, shifts: readonly Shift[]): Promise<SummaryOutcome> {
    const link = await store.getLinkBySlackUser(s.slackUserId);
    // Unlinked since: nothing of theirs to show; it resumes if they link again.
    if (!link) return 'not-linked';
    let views: Awaited<ReturnType<typeof toActionViews>>;
    try {
      const actions = await deps.care.actions.collect({
        filters: { assigned_to: link.careUserId, completed: 'no', end_date: apiDateRange(dueWindow('week', now, tz)).end_date },
        attributes: [...ACTION_ATTRIBUTES],
        sort_by: ['due'],
        per_page: 100,
        limit: MAX_READ,
      });
      views = await toActionViews(actions, deps.identity);
    } catch (err) {
      logger.warn('a morning summary could not read its actions; it is tried again next minute', { userId: s.slackUserId, error: err });
      return 'read-failed';
    }
    const message = deps.render.morningSummary(
      {
        ...attentionList(views, now, tz),
        schedule: isShiftStart(s.time) ? { time: s.time, days: s.days, timezone: deps.timezone, shifts } : { time: s.time, days: s.days, timezone: tz },
      },
      // Their own DM: task text is shown.
      { now, timezone: tz, showTask: true },
    );
    return deps.deliverer.deliver(summaryKey(s.teamId, s.slackUserId, occurrence), () => dmChannel(s.slackUserId), message);
  }

  return {
    async runDue(now) {
      const report: SummaryRunReport = { due: 0, results: {} };
      const count = (r: SummaryOutcome) => (report.results[r] = (report.results[r] ?? 0) + 1);
      const settings = await store.listEnabledSummarySettings();
      // Read once per run, and only when someone's summary comes at shift starts.
      const shifts = settings.some((s) => isShiftStart(s.time)) ? await deps.shifts() : [];
      for (const s of settings) {
        try {
          let tz: string;
          try {
            tz = (await deps.profiles.get(s.slackUserId)).tz;
          } catch (err) {
            // Never guess the zone (the summary would come at the wrong hour): try again next minute.
            logger.warn('could not read a person’s time zone for their summary', { userId: s.slackUserId, error: err });
            count('no-time-zone');
            continue;
          }
          const occurrence = await dueToday(s, tz, now, shifts);
          if (!occurrence) continue;
          report.due++;
          count(await send(s, tz, occurrence, now, shifts));
        } catch (err) {
          logger.error('sending a morning summary failed', { userId: s.slackUserId, error: err });
          count('failed');
        }
      }
      return report;
    },
    async nextDueAt(now) {
      const settings = await store.listEnabledSummarySettings();
      const shifts = settings.some((s) => isShiftStart(s.time)) ? await deps.shifts() : [];
      let first = Number.POSITIVE_INFINITY;
      for (const s of settings) {
        // A zone not read now: due at once (the run tries again, as it does for the summary itself).
        const tz = isShiftStart(s.time)
          ? deps.timezone
          : await deps.profiles.get(s.slackUserId).then(
              (p) => p.tz,
              () => null,
            );
        if (tz === null) return now.getTime();
        first = Math.min(first, nextStart({ time: s.time, days: s.days, timezone: tz, shifts }, now)?.at.getTime() ?? first);
      }
      return Number.isFinite(first) ? first : null;
    },
  };
}
