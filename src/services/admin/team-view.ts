/**
 * The admins' team view (their Home tab): who has what overdue and due today,
 * the unassigned queue, and which channels get digests and routed notices.
 * One paged care query, like a digest's: open actions due by the end of the
 * coming week, through the instance's action cache when it has one (a
 * repeated read while nothing changed asks the care API nothing).
 */
import type { CareClient } from '../../care/index.js';
import type { WorkspaceStore, Subscription } from '../../store/index.js';
import { apiDateRange, dueWindow } from '../../time/due-windows.js';
import type { Shift } from '../../time/shifts.js';
import { isShiftStart, nextStart } from '../../time/start-time.js';
import { addDays, localParts } from '../../time/zones.js';
import { ACTION_ATTRIBUTES, type ActionView, bucketByDue } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { ActionCache } from '../read-cache/action-cache.js';
import type { ListQuery } from '../read-cache/action-filters.js';

/** One carer's load: overdue and due today (a Slack mention when linked, else their care name). */
export interface CarerLoad {
  careUserId: string;
  slackUserId?: string;
  name?: string;
  overdue: number;
  today: number;
}

/** What a channel gets: a daily digest, routed completion notices of notification groups, or both. */
export interface ChannelPlan {
  channelId: string;
  digest: {
    time: string;
    days: Subscription['days'];
    timezone: string;
    /** Null: a named shift's start, and no shift has that name now. */
    next: Date | null;
    /** The home's shifts, for a digest at shift starts. */
    shifts?: readonly Shift[];
    filters: Subscription['filters'];
    setUpBy: string;
    urgentAlerts: boolean;
    showTaskText: boolean;
  } | null;
  /** Notification group names whose completions are posted here (as they happen). */
  routes: string[];
}

export interface TeamView {
  /** The zone "today" is in (APP_TIMEZONE). */
  timezone: string;
  /** The last local day the read covers: unassigned actions are those due by its end. */
  through: string;
  overdue: number;
  today: number;
  carers: CarerLoad[];
  unassigned: { count: number; overdue: number; today: number; first: ActionView[] };
  /** More open actions are due in the window than were read: the counts are of the first `read`. */
  partial: boolean;
  read: number;
  channels: ChannelPlan[];
}

export interface TeamViewService {
  /** Admins only. */
  read(admin: Actor, options?: { unassignedRows?: number }): Promise<TeamView>;
}

/** A Home tab is published on every click: the read stops here (the view says so when it does). */
export const TEAM_VIEW_MAX_READ = 2_000;

export function createTeamView(deps: {
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  timezone: string;
  now: () => Date;
  maxRead?: number;
  /** The instance's action cache: the Team view's list is shared and kept fresh by the changes feed (see read-cache/). */
  reads?: Pick<ActionCache, 'list'>;
  /** The care home's shifts, for digests at each shift start. */
  shifts?: () => Promise<readonly Shift[]>;
  /** The workspace it shows (bound at composition). */
  teamId: () => Promise<string>;
}): TeamViewService {
  const maxRead = deps.maxRead ?? TEAM_VIEW_MAX_READ;
  const readOpen = (query: ListQuery) => (deps.reads ? deps.reads.list(query) : deps.care.actions.collect(query));

  async function channelPlans(now: Date): Promise<ChannelPlan[]> {
    const teamId = await deps.teamId();
    const inTeam = <T extends { teamId: string }>(rows: T[]) => rows.filter((r) => r.teamId === teamId);
    const [subs, routes] = await Promise.all([deps.store.listSubscriptions().then(inTeam), deps.store.listRoutes().then(inTeam)]);
    const plans = new Map<string, ChannelPlan>();
    const plan = (channelId: string) => plans.get(channelId) ?? plans.set(channelId, { channelId, digest: null, routes: [] }).get(channelId)!;
    const shifts = subs.some((s) => isShiftStart(s.time)) ? ((await deps.shifts?.()) ?? []) : [];
    for (const s of subs) {
      // Set up after today's time: the first digest is the next one (as runDue sees it).
      const after = new Date(Math.max(now.getTime(), s.setUpAt));
      plan(s.channelId).digest = {
        time: s.time,
        days: s.days,
        timezone: s.timeZone,
        next: nextStart({ time: s.time, days: s.days, timezone: s.timeZone, shifts }, after)?.at ?? null,
        ...(isShiftStart(s.time) ? { shifts } : {}),
        filters: s.filters,
        setUpBy: s.setUpBy,
        urgentAlerts: s.urgentAlerts,
        showTaskText: s.showTaskText,
      };
    }
    for (const r of routes) plan(r.channelId).routes.push(r.groupName);
    return [...plans.values()];
  }

  return {
    async read(admin, options = {}) {
      await deps.identity.requireAdmin(admin);
      const now = deps.now();
      const tz = deps.timezone;
      const week = dueWindow('week', now, tz);
      const [actions, channels] = await Promise.all([
        readOpen({
          filters: { completed: 'no', end_date: apiDateRange(week).end_date },
          attributes: [...ACTION_ATTRIBUTES],
          sort_by: ['due'],
          per_page: 100,
          limit: maxRead,
        }),
        channelPlans(now),
      ]);
      const views = await toActionViews(actions, deps.identity);
      const careUserOf = new Map(actions.map((a) => [a._id, a.assigned_to ?? null]));
      const buckets = bucketByDue(views, now, tz);

      const carers = new Map<string, CarerLoad>();
      const unassigned = { count: 0, overdue: 0, today: 0, first: [] as ActionView[] };
      const count = (v: ActionView, bucket: 'overdue' | 'today' | 'nextWeek') => {
        const careUserId = careUserOf.get(v.id);
        if (!careUserId) {
          unassigned.count++;
          if (bucket !== 'nextWeek') unassigned[bucket]++;
          return;
        }
        if (bucket === 'nextWeek') return;
        const load = carers.get(careUserId) ?? { careUserId, ...(v.assignee ?? {}), overdue: 0, today: 0 };
        load[bucket]++;
        carers.set(careUserId, load);
      };
      for (const v of buckets.overdue) count(v, 'overdue');
      for (const v of buckets.today) count(v, 'today');
      for (const v of buckets.nextWeek) count(v, 'nextWeek');
      // Urgent first, then the longest overdue, then due soonest (bucketByDue's order within each bucket).
      unassigned.first = [...buckets.overdue, ...buckets.today, ...buckets.nextWeek]
        .filter((v) => !careUserOf.get(v.id))
        .sort((a, b) => Number(b.urgent) - Number(a.urgent))
        .slice(0, Math.max(0, options.unassignedRows ?? 5));

      const label = (c: CarerLoad) => (c.name ?? c.slackUserId ?? c.careUserId).toLowerCase();
      const today = localParts(now, tz).date;
      return {
        timezone: tz,
        through: addDays(today, 7),
        overdue: buckets.overdue.length,
        today: buckets.today.length,
        carers: [...carers.values()].sort((a, b) => b.overdue - a.overdue || b.today - a.today || label(a).localeCompare(label(b))),
        unassigned,
        partial: actions.length >= maxRead,
        read: actions.length,
        channels: channels.sort((a, b) => (a.digest?.next?.getTime() ?? Infinity) - (b.digest?.next?.getTime() ?? Infinity)),
      };
    },
  };
}
