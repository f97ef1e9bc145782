import type { DigestFilters, GroupRoute, WorkspaceStore, Subscription } from '../../store/index.js';
import type { Shift } from '../../time/shifts.js';
import { namedShift, nextStart, readStartTime, storedStartTime } from '../../time/start-time.js';
import type { ChannelPolicy } from '../channel-policy.js';
import type { Digests } from './digests.js';
import type { DirectoryService } from '../people/directory.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { NameLookup, NameRef, NamedChannel, NamedPerson, WorkspaceNames } from '../people/workspace-names.js';

/** Who a channel's digest covers, as an admin asked for it (a location still by name). */
export type DigestScope =
  | { type: 'all' }
  | { type: 'mine-only' }
  | { type: 'urgent-only' }
  /** People by mention, Id or typed name (looked up in the workspace). */
  | { type: 'users'; people: NameRef[] }
  | { type: 'location'; name: string }
  /** One resident's actions, by their service user Id (the care API cannot find residents by name). */
  | { type: 'resident'; id: string };

export interface DigestRequest {
  channelId: string;
  /** "HH:MM", or a shift start: "shift" (each shift's) or "shift:<name>" (time/start-time.ts). */
  time: string;
  days: 'weekdays' | 'daily';
  scope: DigestScope;
  showTasks: boolean;
  quietWhenEmpty: boolean;
}

type NotFound<T> = Exclude<NameLookup<T>, { kind: 'found' }>;

/** A typed name that found no one, or several: what to tell the admin. */
export type NameProblem = { kind: 'channel-name'; lookup: NotFound<NamedChannel> } | { kind: 'person-name'; lookup: NotFound<NamedPerson> };

/** Slack user ids for the people named (an @mention's id as it is; a typed name looked up); a name that finds no one (or several) stops it. */
export async function slackIdsOfPeople(names: Pick<WorkspaceNames, 'people'>, refs: NameRef[]): Promise<{ ids: string[] } | NameProblem> {
  const ids: string[] = [];
  for (const ref of refs) {
    if (ref.type === 'id') {
      ids.push(ref.id);
      continue;
    }
    const found = await names.people(ref);
    if (found.kind !== 'found') return { kind: 'person-name', lookup: found };
    ids.push(...found.matches.map((m) => m.id));
  }
  return { ids: [...new Set(ids)] };
}

export type DigestSetResult =
  /** The app is not in the channel, so it could never post there. */
  | { kind: 'not-member' }
  | NameProblem
  | { kind: 'no-such-location'; name: string }
  /** `at <name> start` named no shift of the home's: its shifts, to pick from. */
  | { kind: 'no-such-shift'; name: string; shifts: readonly Shift[] }
  /**
   * `showTasksPending`: task text was asked for in a public channel; it stays hidden until an admin
   * confirms (confirmShowTasks), since everyone in the workspace can read a public channel.
   */
  | {
      kind: 'set';
      subscription: Subscription;
      isPrivate: boolean;
      showTasksPending: boolean;
      next: Date;
      unlinkedSlackUserIds: string[];
      /** The home's shifts (what a shift-start digest follows). */
      shifts: readonly Shift[];
    };

/** What a confirmation to show task text in a public channel came to. */
export type ShowTasksResult =
  | 'shown'
  /** The digest was set again (or stopped) after the reply with the button: that setting decides, not this button. */
  | 'changed'
  | 'no-digest';

export type RouteSetResult =
  | { kind: 'not-member'; channelId: string }
  /** `groups`: names of groups the admin may have meant (or the first few there are). */
  | { kind: 'no-such-group'; groups: string[] }
  | NameProblem
  | { kind: 'set'; route: GroupRoute };

export type DigestNowResult = 'posted' | 'empty' | 'failed' | 'no-digest';

/**
 * What admins set up per channel: daily digests (and urgent alerts) and the
 * routes of notification groups to channels. Admins only; every change is in
 * the audit log.
 */
export interface ChannelSetup {
  setDigest(admin: Actor, request: DigestRequest): Promise<DigestSetResult>;
  removeDigest(admin: Actor, channelId: string): Promise<boolean>;
  listDigests(admin: Actor): Promise<Subscription[]>;
  postDigestNow(admin: Actor, channelId: string): Promise<DigestNowResult>;
  /**
   * The second, explicit step for task text in a public channel (admins only; audited): shows it
   * in the digest set up at `setUpAt` (the reply's button carries it), and in that channel's other posts.
   */
  confirmShowTasks(admin: Actor, channelId: string, setUpAt: number): Promise<ShowTasksResult>;
  setRoute(admin: Actor, groupName: string, channel: NameRef): Promise<RouteSetResult>;
  removeRoute(admin: Actor, groupName: string): Promise<boolean>;
  listRoutes(admin: Actor): Promise<GroupRoute[]>;
}

export function createChannelSetup(deps: {
  store: WorkspaceStore;
  identity: IdentityService;
  channels: ChannelPolicy;
  directory: DirectoryService;
  digests: Digests;
  /** Channels and people by the names admins type. */
  names: WorkspaceNames;
  /** The zone digests are set up in (APP_TIMEZONE). */
  timezone: string;
  /** The care home's shifts (services/shift-work/shift-settings.ts). */
  shifts: () => Promise<readonly Shift[]>;
  now: () => Date;
  /** The workspace whose channels it sets up (bound at composition). */
  teamId: () => Promise<string>;
}): ChannelSetup {
  const { store, identity } = deps;
  const audit = (admin: Actor, verb: string, details: Record<string, unknown>) => store.appendAudit({ userId: admin.userId, verb, details });
  const isMember = async (channelId: string) => (await deps.channels.info(channelId).catch(() => null))?.isMember === true;

  const resolvePeople = (refs: NameRef[]) => slackIdsOfPeople(deps.names, refs);

  async function groupSuggestions(typed: string): Promise<string[]> {
    const first = typed.split(/\s+/).sort((a, b) => b.length - a.length)[0] ?? '';
    const like = first.length >= 3 ? await deps.directory.notificationGroups(first).catch(() => []) : [];
    const list = like.length ? like : await deps.directory.notificationGroups('').catch(() => []);
    return list.slice(0, 10).map((g) => g.name);
  }

  return {
    async setDigest(admin, req) {
      await identity.requireAdmin(admin);
      const info = await deps.channels.info(req.channelId).catch(() => null);
      // A digest the app cannot post would be lost every morning: say so now.
      if (!info?.isMember) return { kind: 'not-member' };
      const filters: DigestFilters = {};
      const scope = req.scope;
      if (scope.type === 'mine-only') filters.mineOnly = true;
      if (scope.type === 'urgent-only') filters.urgentOnly = true;
      if (scope.type === 'users') {
        const people = await resolvePeople(scope.people);
        if ('kind' in people) return people;
        filters.slackUserIds = people.ids;
      }
      if (scope.type === 'resident') filters.residentId = scope.id;
      if (scope.type === 'location') {
        const matches = await deps.directory.locations(scope.name);
        const found = matches.find((l) => (l.name ?? '').toLowerCase() === scope.name.toLowerCase()) ?? matches[0];
        if (!found) return { kind: 'no-such-location', name: scope.name };
        filters.locationId = found.id;
        filters.locationName = found.name ?? scope.name;
      }
      const shifts = await deps.shifts();
      let time = req.time;
      const start = readStartTime(time);
      if (start.type === 'shift' && start.name) {
        // As the home names it ("at night start" is the Night shift's).
        const shift = namedShift(shifts, start.name);
        if (!shift) return { kind: 'no-such-shift', name: start.name, shifts };
        time = storedStartTime({ type: 'shift', name: shift.name });
      }
      // In a public channel everyone in the workspace, guests included, reads the text: a second step first.
      const showTasksPending = req.showTasks && !info.isPrivate;
      const subscription = await store.upsertSubscription({
        channelId: req.channelId,
        time,
        days: req.days,
        timeZone: deps.timezone,
        filters,
        showTaskText: req.showTasks && !showTasksPending,
        postWhenEmpty: !req.quietWhenEmpty,
        urgentAlerts: scope.type === 'urgent-only',
        channelPrivate: info.isPrivate,
        setUpBy: admin.userId,
      });
      await audit(admin, 'subscription.set', {
        channelId: req.channelId,
        time: subscription.time,
        days: subscription.days,
        filters,
        showTaskText: subscription.showTaskText,
        ...(showTasksPending ? { showTasksPending: true } : {}),
      });
      const unlinkedSlackUserIds: string[] = [];
      for (const u of filters.slackUserIds ?? []) if (!(await identity.getLink({ userId: u }))) unlinkedSlackUserIds.push(u);
      const next = nextStart({ time: subscription.time, days: subscription.days, timezone: subscription.timeZone, shifts }, deps.now())?.at ?? deps.now();
      return { kind: 'set', subscription, isPrivate: info.isPrivate, showTasksPending, next, unlinkedSlackUserIds, shifts };
    },

    async confirmShowTasks(admin, channelId, setUpAt) {
      await identity.requireAdmin(admin);
      const sub = await store.getSubscription(channelId);
      if (!sub) return 'no-digest';
      if (sub.setUpAt !== setUpAt) return 'changed';
      if (sub.showTaskText) return 'shown'; // pressed twice
      const info = await deps.channels.info(channelId).catch(() => null);
      await store.upsertSubscription({ ...sub, showTaskText: true, channelPrivate: info?.isPrivate ?? sub.channelPrivate });
      await audit(admin, 'subscription.show-tasks', { channelId, setUpBy: sub.setUpBy, setUpAt: sub.setUpAt, channelPrivate: info?.isPrivate ?? null });
      return 'shown';
    },

    async removeDigest(admin, channelId) {
      await identity.requireAdmin(admin);
      const removed = await store.deleteSubscription(channelId);
      if (removed) await audit(admin, 'subscription.remove', { channelId });
      return removed;
    },

    async listDigests(admin) {
      await identity.requireAdmin(admin);
      const teamId = await deps.teamId();
      return (await store.listSubscriptions()).filter((s) => s.teamId === teamId);
    },

    async postDigestNow(admin, channelId) {
      await identity.requireAdmin(admin);
      const sub = await store.getSubscription(channelId);
      if (!sub) return 'no-digest';
      const report = await deps.digests.postNow(sub, deps.now());
      if ((report.results.sent ?? 0) > 0) return 'posted';
      return report.results['empty-skipped'] ? 'empty' : 'failed';
    },

    async setRoute(admin, groupName, channel) {
      await identity.requireAdmin(admin);
      let channelId: string;
      if (channel.type === 'id') channelId = channel.id;
      else {
        const found = await deps.names.channel(channel);
        if (found.kind !== 'found') return { kind: 'channel-name', lookup: found };
        channelId = found.match.id;
      }
      if (!(await isMember(channelId))) return { kind: 'not-member', channelId };
      const group = await deps.directory.groupByName(groupName);
      if (!group) return { kind: 'no-such-group', groups: await groupSuggestions(groupName) };
      const route = await store.upsertRoute({ groupId: group.id, groupName: group.name, channelId, setUpBy: admin.userId });
      await audit(admin, 'route.set', { groupId: group.id, channelId });
      return { kind: 'set', route };
    },

    async removeRoute(admin, groupName) {
      await identity.requireAdmin(admin);
      const group = await deps.directory.groupByName(groupName);
      const removed = group ? await store.deleteRoute(group.id) : false;
      if (removed && group) await audit(admin, 'route.remove', { groupId: group.id });
      return removed;
    },

    async listRoutes(admin) {
      await identity.requireAdmin(admin);
      const teamId = await deps.teamId();
      return (await store.listRoutes()).filter((r) => r.teamId === teamId);
    },
  };
}
