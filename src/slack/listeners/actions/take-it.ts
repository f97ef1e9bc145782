import type { App, BlockAction } from '@slack/bolt';
import { refreshHomes } from '../../home-publisher.js';
import { ActionIds, isCareId } from '../../ids.js';
import { clickedOnSharedPost, clickedPostOf } from '../../surface.js';
import { buttonListener } from '../error-policy.js';
import { safeRespond } from '../../respond.js';
import { refreshHomesAfterClick, showWhereClicked } from '../after-click.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** Whether the Take it button clicked (on a message or the Home tab, whose blocks Slack sends back) asked nothing: the action was shown as nobody's. */
function shownAsUnassigned(body: BlockAction, actionId: string): boolean {
  for (const block of (body.message?.blocks ?? body.view?.blocks ?? []) as { accessory?: Element; elements?: Element[] }[]) {
    for (const el of [block.accessory, ...(block.elements ?? [])]) {
      if (el?.action_id === ActionIds.takeIt && el.value === actionId) return !el.confirm;
    }
  }
  return false;
}
type Element = { action_id?: string; value?: string; confirm?: unknown };

/** A press on a message in a channel or DM that everyone there sees (not the Home tab, not a private answer). */
function onChannelPost(body: BlockAction): boolean {
  return body.container?.type !== 'view' && !body.container?.is_ephemeral && Boolean(body.message?.ts);
}

/** What someone is told (privately) who pressed Take it on a post showing the action as nobody's, when someone has it now. */
export function takenMeanwhileNote(assignee: string | null): string {
  return `Someone took it meanwhile: it is assigned to ${assignee ? `<@${assignee}>` : 'someone else'} now, so it was left with them.`;
}

/** What someone whose Take it lost to another press of the same version is told (privately). */
export function lostTakeNote(winner: string | null, self: string): string {
  if (winner === self) return 'You already took it.';
  return `${winner ? `<@${winner}>` : 'Someone else'} took it first, so it was left with them.`;
}

/**
 * Take it (value: the action Id), on urgent alerts and unassigned rows: assigns
 * the action to the clicker's own care user (linked people only; anyone else is
 * told how to link). A channel post then says "Taken by @x"; the person it was
 * taken from is told in a DM (see change-notices.ts).
 */
export function registerTakeItButton(app: App): void {
  app.action(
    ActionIds.takeIt,
    buttonListener('take-it', async ({ body, action, respond, context }, deps) => {
      const actor = { userId: body.user.id, at: clickedPostOf(body) };
      const id = action.value ?? '';
      if (!isCareId(id)) throw new Error('the Take it button carried no action Id');
      // A button that asked nothing was shown on an action nobody had: if someone took it meanwhile, it is not taken from them unasked.
      const onlyIfUnassigned = shownAsUnassigned(body, id);
      const result = await deps.actions.takeIt(actor, id, { onlyIfUnassigned });
      if (result.takenBy !== undefined && onChannelPost(body)) {
        // Another press of the same alert won: only this person is told; the winner draws the post.
        await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: lostTakeNote(result.takenBy, actor.userId) }, deps.logger);
        return;
      }
      const [view] = await deps.actions.views([result.action]);
      if (!result.changed && onlyIfUnassigned && !view!.completed && view!.assignee && view!.assignee.slackUserId !== actor.userId && onChannelPost(body)) {
        // Taken meanwhile: its posts were drawn by whoever took it (or are by the poll); this person is told privately.
        await safeRespond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: takenMeanwhileNote(view!.assignee.slackUserId ?? null) },
          deps.logger,
        );
        return;
      }
      const note = result.changed
        ? undefined
        : view!.completed
          ? `${view!.actionNo ? `#${view!.actionNo}` : 'That action'} is already complete, so there is nothing to take; the post now shows it.`
          : view!.assignee?.slackUserId === actor.userId
            ? 'It is already assigned to you; the post now shows its current state.'
            : `Someone took it meanwhile: it is assigned to ${view!.assignee?.slackUserId ? `<@${view!.assignee.slackUserId}>` : 'someone else'} now, so it was left with them. The post now shows its current state.`;
      const changedBy = result.changed && clickedOnSharedPost(body) ? { kind: 'take' as const, by: actor.userId } : undefined;
      await showWhereClicked(deps, workspaceOf(context), body, respond, view!, note, changedBy);
      if (!result.changed) return;
      await refreshHomesAfterClick(deps, workspaceOf(context), body, view!);
      // The action left the Home tab of the person it was taken from.
      const from = result.previousAssignee ? await deps.identity.slackUserFor(result.previousAssignee) : null;
      if (from && from !== actor.userId) await refreshHomes(deps, workspaceOf(context), [from]);
    }),
  );
}
