import type { DigestDays, WorkspaceStore, SummarySetting } from '../store/index.js';
import { nextOccurrence } from '../time/schedule.js';
import type { Actor, IdentityService } from './identity.js';
import { summaryKey } from './morning-summaries.js';
import type { SlackProfiles } from './slack-profiles.js';

/** What a summary is set to when someone turns it on without saying: every day (a care home works every day). */
export const SUMMARY_DEFAULTS = { time: '07:30', days: 'daily' as DigestDays };

/** A person's summary as they see it: the setting, their zone now, and when the next one comes. */
export interface SummaryStatus {
  /** Null: never set up. */
  setting: SummarySetting | null;
  /** The person's Slack time zone (the summary follows it). */
  timezone: string;
  /** When the next summary comes; null when it is off. */
  next: Date | null;
}

/**
 * Each person's own morning summary (opt-in, for themselves only): show, set,
 * turn off. Linked people only, since it shows their own actions. Every change
 * is in the audit log.
 */
export interface SummarySettings {
  status(actor: Actor): Promise<SummaryStatus>;
  /** Turn it on, or change it; what is not given is kept (or the default). */
  set(actor: Actor, change: { time?: string | undefined; days?: DigestDays | undefined }): Promise<SummaryStatus>;
  /** Turn it off (the time and days are remembered); false when it was not on. */
  turnOff(actor: Actor): Promise<boolean>;
}

export function createSummarySettings(deps: { store: WorkspaceStore; identity: IdentityService; profiles: SlackProfiles; now: () => Date }): SummarySettings {
  const { store, identity } = deps;

  async function statusOf(actor: Actor, setting: SummarySetting | null): Promise<SummaryStatus> {
    const timezone = await deps.profiles.tz(actor.userId);
    if (!setting?.enabled) return { setting, timezone, next: null };
    const schedule = { time: setting.time, days: setting.days, timezone };
    let next = nextOccurrence(schedule, deps.now());
    // Today's already went out (e.g. the time was moved later after it was sent): the next is another day.
    const sent = await store.getDelivery(summaryKey(actor.teamId, actor.userId, next.date));
    if (sent?.state === 'sent') next = nextOccurrence(schedule, next.at);
    return { setting, timezone, next: next.at };
  }

  return {
    async status(actor) {
      await identity.requireLink(actor);
      return statusOf(actor, await store.getSummarySetting(actor.teamId, actor.userId));
    },

    async set(actor, change) {
      await identity.requireLink(actor);
      const before = await store.getSummarySetting(actor.teamId, actor.userId);
      const setting = await store.upsertSummarySetting({
        teamId: actor.teamId,
        slackUserId: actor.userId,
        time: change.time ?? before?.time ?? SUMMARY_DEFAULTS.time,
        days: change.days ?? before?.days ?? SUMMARY_DEFAULTS.days,
        enabled: true,
      });
      await store.appendAudit({ teamId: actor.teamId, userId: actor.userId, verb: 'summary.set', details: { time: setting.time, days: setting.days } });
      return statusOf(actor, setting);
    },

    async turnOff(actor) {
      await identity.requireLink(actor);
      const before = await store.getSummarySetting(actor.teamId, actor.userId);
      if (!before?.enabled) return false;
      await store.upsertSummarySetting({ ...before, enabled: false, setAt: deps.now().getTime() });
      await store.appendAudit({ teamId: actor.teamId, userId: actor.userId, verb: 'summary.off', details: {} });
      return true;
    },
  };
}
