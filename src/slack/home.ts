import type { SlackDeps } from './deps.js';
import { describeError } from '../services/errors.js';
import { HOME_PAGE_SIZE, homeView } from './views/home.js';

/** Render and publish one person's Home tab; never throws (a failure is logged). */
export async function publishHome(deps: SlackDeps, teamId: string, userId: string, limit = HOME_PAGE_SIZE): Promise<void> {
  try {
    const link = await deps.identity.getLink({ teamId, userId });
    const tz = (await deps.profiles.get(userId).catch(() => null))?.tz ?? deps.timezone;
    const ctx = { now: deps.now(), timezone: tz, showTask: true };
    let view;
    if (!link) view = homeView({ linked: false, groups: [], limit }, ctx);
    else {
      const careUserName = await deps.identity.careUserName(link.careUserId);
      try {
        const groups = await deps.actions.mine({ teamId, userId }, link.careUserId, ctx.now, tz);
        view = homeView({ linked: true, ...(careUserName ? { careUserName } : {}), groups, limit }, ctx);
      } catch (err) {
        view = homeView({ linked: true, groups: [], limit, error: describeError(err) }, ctx);
      }
    }
    await deps.slack.views.publish({ user_id: userId, view });
  } catch (err) {
    deps.logger.warn('could not publish the Home tab', { userId, error: err });
  }
}

/** Refresh the Home tabs of everyone affected by a change (each once). */
export async function refreshHomes(deps: SlackDeps, teamId: string, userIds: (string | null | undefined)[]): Promise<void> {
  const unique = [...new Set(userIds.filter((u): u is string => Boolean(u)))];
  await Promise.all(unique.map((u) => publishHome(deps, teamId, u)));
}
