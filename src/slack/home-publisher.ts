import type { HomeQueue, SlackDeps } from './deps.js';
import { shownInstead } from './listeners/error-policy.js';
import { myGroups } from './views/action-list.js';
import type { AdminHome } from './views/admin-home.js';
import { yourHandover } from '../services/shift-work/handovers.js';
import { HOME_PAGE_SIZE, type HomeHandover, homeView } from './views/home-view.js';

/**
 * Renders of one person's Home tab can overlap (link then unlink, two quick
 * clicks): the newest render wins, and publishes for one person go out one at a
 * time, so a slow, older render never overwrites a newer one. The queues belong
 * to the app instance (deps.homeQueues), so apps side by side share nothing.
 */
function queueFor(deps: SlackDeps, key: string): HomeQueue {
  let queue = deps.homeQueues.get(key);
  if (!queue) deps.homeQueues.set(key, (queue = { generation: 0, tail: Promise.resolve() }));
  return queue;
}

/** Admins only: the Team and Status sections (each stands in with a sentence when it cannot be read). */
async function adminHome(deps: SlackDeps, userId: string): Promise<AdminHome | undefined> {
  const actor = { userId };
  if (!(await deps.identity.isAdmin(actor).catch(() => false))) return undefined;
  const failed = (what: string) => (err: unknown) => ({
    error: `The ${what} could not be read: ${shownInstead(deps.logger, `could not read the ${what} for an admin's Home tab`, err, { userId })}`,
  });
  const [team, status, extra] = await Promise.all([
    deps.teamView.read(actor).catch(failed('team view')),
    deps.status.read(actor).catch(failed('status')),
    deps.adminHomeExtra?.().catch((err: unknown) => {
      deps.logger.warn("could not read the care connection for an admin's Home tab", { userId, error: err });
      return [];
    }),
  ]);
  return { team, status, ...(extra?.length ? { extra } : {}) };
}

/**
 * Opening the Home tab publishes at most once per person in this long. An
 * opening inside it changes nothing when the care data this instance knows of
 * is as it was at that render (someone flicking between tabs keeps what was
 * published a moment ago); when something changed, one publish follows at the
 * end of the quiet time, so the tab is at most this far behind. Changes made
 * through Slack do not wait: they publish at once (refreshHomes).
 */
export const HOME_OPEN_QUIET_MS = 5_000;

/** app_home_opened: publish, at most once per person per HOME_OPEN_QUIET_MS (see above). */
export async function homeOpened(deps: SlackDeps, teamId: string, userId: string): Promise<void> {
  const queue = queueFor(deps, `${teamId}/${userId}`);
  const sinceRender = queue.renderedAt === undefined ? Infinity : deps.now().getTime() - queue.renderedAt;
  if (sinceRender >= HOME_OPEN_QUIET_MS) return publishHome(deps, teamId, userId);
  const version = deps.careVersion?.() ?? null;
  if (version !== null && version === queue.renderedVersion) return;
  if (queue.trailing) return; // one publish is already waiting for the end of the quiet time
  queue.trailing = setTimeout(() => {
    queue.trailing = undefined;
    void publishHome(deps, teamId, userId);
  }, HOME_OPEN_QUIET_MS - sinceRender);
  queue.trailing.unref?.();
}

/** In the first hours of a shift, the person's own open actions from the handover (shown first); none otherwise. */
async function handoverOf(deps: SlackDeps, mine: Parameters<typeof yourHandover>[0], now: Date, userId: string): Promise<{ handover?: HomeHandover }> {
  try {
    const fresh = await deps.handovers.fresh(now);
    if (!fresh) return {};
    return { handover: { outgoing: fresh.shifts.outgoing.name, incoming: fresh.shifts.incoming.name, actions: yourHandover(mine, fresh) } };
  } catch (err) {
    deps.logger.warn('could not read the handover for the Home tab', { userId, error: err });
    return {};
  }
}

/** Render and publish one person's Home tab; never throws (a failure is logged). */
export async function publishHome(deps: SlackDeps, teamId: string, userId: string, limit = HOME_PAGE_SIZE, offset = 0): Promise<void> {
  const queue = queueFor(deps, `${teamId}/${userId}`);
  const generation = ++queue.generation;
  // This render is newer than any publish waiting for the end of a quiet time.
  if (queue.trailing) clearTimeout(queue.trailing);
  queue.trailing = undefined;
  queue.renderedAt = deps.now().getTime();
  queue.renderedVersion = deps.careVersion?.() ?? null;
  try {
    // Read side by side with the person's own list (adminHome never rejects).
    const admin = adminHome(deps, userId).then((a) => (a ? { admin: a } : {}));
    // The shift on now, for everyone (a line under the title; left out when it cannot be read).
    const shift = deps.shifts
      .now()
      .then((s) => ({ shift: s }))
      .catch((err: unknown) => {
        deps.logger.warn('could not read the shifts for the Home tab', { userId, error: err });
        return {};
      });
    const link = await deps.identity.getLink({ userId });
    const tz = await deps.profiles.tz(userId);
    const ctx = { now: deps.now(), timezone: tz, showTask: true };
    let view: ReturnType<typeof homeView>;
    if (!link) {
      const pending = await deps.identity.pendingRequestOf({ userId });
      const pendingRequest = pending ? { pendingRequest: { requestedAt: new Date(pending.requestedAt), admins: deps.identity.adminIds() } } : {};
      view = homeView({ linked: false, groups: [], limit, ...pendingRequest, ...(await shift), ...(await admin) }, ctx);
    } else {
      const careUserName = await deps.identity.careUserName(link.careUserId);
      const summary = await deps.summaries.status({ userId }).catch((err) => {
        deps.logger.warn('could not read the morning summary setting for the Home tab', { userId, error: err });
        return undefined;
      });
      // Who's on now, for a linked person (left out when it cannot be read).
      const onCall = await (deps.onCall?.now({ userId }) ?? Promise.resolve(undefined)).catch((err: unknown) => {
        deps.logger.warn("could not read who's on now for the Home tab", { userId, error: err });
        return undefined;
      });
      const extra = { ...(summary ? { summary } : {}), ...(await shift), ...(onCall ? { onCall } : {}) };
      // The location filter: the person's choice (remembered), and the locations to choose from (a cached read).
      const [where, locations] = await Promise.all([
        deps.homeFilters.get({ userId }).catch(() => undefined),
        deps.directory.locations('').then(
          (all) => all.filter((l) => !l.suspended).map((l) => ({ id: l.id, name: l.name ?? l.id })),
          () => [],
        ),
      ]);
      const filter = { ...(locations.length ? { locations } : {}), ...(where ? { where } : {}) };
      try {
        const mine = await deps.actions.mine(link.careUserId, ctx.now, tz);
        const handover = await handoverOf(deps, [...mine.overdue, ...mine.today, ...mine.nextWeek], ctx.now, userId);
        // The list shows the chosen location only (the handover line is about all of the person's work).
        const groups = myGroups(where ? await deps.actions.mine(link.careUserId, ctx.now, tz, where) : mine);
        view = homeView(
          { linked: true, ...(careUserName ? { careUserName } : {}), groups, limit, offset, ...handover, ...extra, ...filter, ...(await admin) },
          ctx,
        );
      } catch (err) {
        const error = shownInstead(deps.logger, "could not read the person's actions for the Home tab", err, { userId });
        view = homeView({ linked: true, groups: [], limit, error, ...extra, ...(await admin) }, ctx);
      }
    }
    const publish = queue.tail.then(async () => {
      if (queue.generation !== generation) return; // a newer render is on its way
      await deps.slack.views.publish({ user_id: userId, view });
    });
    queue.tail = publish.catch(() => undefined);
    await publish;
  } catch (err) {
    deps.logger.warn('could not publish the Home tab', { userId, error: err });
  }
}

/** Refresh the Home tabs of everyone affected by a change (each once). */
export async function refreshHomes(deps: SlackDeps, teamId: string, userIds: (string | null | undefined)[]): Promise<void> {
  const unique = [...new Set(userIds.filter((u): u is string => Boolean(u)))];
  await Promise.all(unique.map((u) => publishHome(deps, teamId, u)));
}
