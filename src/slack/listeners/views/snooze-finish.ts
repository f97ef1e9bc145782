import type { SlackDeps } from '../../deps.js';
import { type EditOrigin, showEditedInPlace } from '../../forms/edited-in-place.js';
import { refreshHomes } from '../../home-publisher.js';
import { isSharedConversation } from '../../surface.js';
import { changedWithUndo } from '../after-click.js';
import { tellByDm, withDmOnFailure } from '../error-policy.js';

/**
 * A snooze from a form (the date and time form, or the question before a quick
 * snooze on a channel post), after the form closed: snooze, then show it on the
 * card it came from. On a channel post the post then says "Snoozed to … by @x"
 * with Undo (which puts the due time back); the assignee is told by the actions
 * service. Problems go to the person in a DM (the form is gone).
 */
export async function finishSnooze(
  deps: SlackDeps,
  actor: { teamId: string; userId: string },
  request: { actionId: string; due: Date; tz: string; origin?: EditOrigin | undefined },
): Promise<void> {
  await withDmOnFailure(deps, actor.userId, { log: 'snoozing from a form failed', lead: 'The action was not snoozed' }, async () => {
    // The post it came from is drawn below, with who did it (every other post follows by itself).
    const at = request.origin?.ts ? { channel: request.origin.channel, ts: request.origin.ts } : undefined;
    const result = await deps.actions.snooze({ ...actor, at }, request.actionId, request.due);
    if (!result.changed) await tellByDm(deps, actor.userId, 'That action is already complete, so it was not snoozed.');
    const [view] = await deps.actions.views([result.action]);
    const origin = request.origin;
    if (origin) {
      const onPost = result.changed && Boolean(origin.ts) && isSharedConversation(origin.channel);
      const changedBy =
        onPost && view!.due
          ? changedWithUndo(deps, actor.teamId, actor.userId, result.action, {
              kind: 'snooze',
              to: { due: view!.due, tz: request.tz },
              previousDue: result.previousDue,
            })
          : undefined;
      await showEditedInPlace(deps, actor, origin, view!, request.tz, changedBy).catch((err) => {
        deps.logger.warn('could not update the snoozed card in place', { error: err });
        return false;
      });
    }
    if (result.changed) await refreshHomes(deps, actor.teamId, [actor.userId, view?.assignee?.slackUserId]);
  });
}
