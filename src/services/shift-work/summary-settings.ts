import type { DigestDays, WorkspaceStore, SummarySetting } from '../../store/index.js';
import type { Shift } from '../../time/shifts.js';
import { isShiftStart, namedShift, nextStart, readStartTime, storedStartTime } from '../../time/start-time.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { summaryKey } from './morning-summaries.js';
import type { SlackProfiles } from '../people/slack-profiles.js';

/** What a summary is set to when someone turns it on without saying: every day (a care home works every day). */
export const SUMMARY_DEFAULTS = { time: '07:30', days: 'daily' as DigestDays };

/** A person's summary as they see it: the setting, their zone now, and when the next one comes. */
export interface SummaryStatus {
  /** Null: never set up. */
  setting: SummarySetting | null;
  /** The person's Slack time zone (a summary at a clock time follows it); the home's for one at shift starts. */
  timezone: string;
  /** The home's shifts (what a summary at shift starts follows). */
  shifts: readonly Shift[];
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

export function createSummarySettings(deps: {
  store: WorkspaceStore;
  identity: IdentityService;
  profiles: SlackProfiles;
  now: () => Date;
  /** The home's zone: shift starts are its wall clock. */
  timezone: string;
  /** The care home's shifts (services/shift-work/shift-settings.ts). */
  shifts: () => Promise<readonly Shift[]>;
  /** The workspace whose people it serves (bound at composition). */
  teamId: () => Promise<string>;
}): SummarySettings {
  const { store, identity } = deps;

  async function statusOf(actor: Actor, setting: SummarySetting | null): Promise<SummaryStatus> {
    const shifts = await deps.shifts();
    const timezone = setting && isShiftStart(setting.time) ? deps.timezone : await deps.profiles.tz(actor.userId);
    if (!setting?.enabled) return { setting, timezone, shifts, next: null };
    const schedule = { time: setting.time, days: setting.days, timezone, shifts };
    let next = nextStart(schedule, deps.now());
    // This one already went out (e.g. the time was moved later after it was sent): the next is another.
    const sent = next && (await store.getDelivery(summaryKey(await deps.teamId(), actor.userId, next.id)));
    if (next && sent?.state === 'sent') next = nextStart(schedule, next.at);
    return { setting, timezone, shifts, next: next?.at ?? null };
  }

  /** A named shift as the home names it; a name no shift has is a sentence for the person. */
  async function checkedTime(time: string | undefined): Promise<string | undefined> {
    const start = time === undefined ? null : readStartTime(time);
    if (start?.type !== 'shift' || !start.name) return time;
    const shifts = await deps.shifts();
    const shift = namedShift(shifts, start.name);
    if (!shift)
      throw new UserFacingError(
        `No shift is called “${start.name}”; the shifts are ${shifts.map((s) => s.name).join(', ')}. E.g. \`/care summary at ${shifts[0]?.name ?? 'Day'} start\`, or \`/care summary shift-start\` for every shift’s start.`,
        'invalid',
      );
    return storedStartTime({ type: 'shift', name: shift.name });
  }

  return {
    async status(actor) {
      await identity.requireLink(actor);
      return statusOf(actor, await store.getSummarySetting(actor.userId));
    },

    async set(actor, change) {
      await identity.requireLink(actor);
      const time = await checkedTime(change.time);
      const before = await store.getSummarySetting(actor.userId);
      const setting = await store.upsertSummarySetting({
        slackUserId: actor.userId,
        time: time ?? before?.time ?? SUMMARY_DEFAULTS.time,
        days: change.days ?? before?.days ?? SUMMARY_DEFAULTS.days,
        enabled: true,
      });
      await store.appendAudit({ userId: actor.userId, verb: 'summary.set', details: { time: setting.time, days: setting.days } });
      return statusOf(actor, setting);
    },

    async turnOff(actor) {
      await identity.requireLink(actor);
      const before = await store.getSummarySetting(actor.userId);
      if (!before?.enabled) return false;
      await store.upsertSummarySetting({ ...before, enabled: false, setAt: deps.now().getTime() });
      await store.appendAudit({ userId: actor.userId, verb: 'summary.off', details: {} });
      return true;
    },
  };
}
