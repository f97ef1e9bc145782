import type { App, types } from '@slack/bolt';
import { ActionIds, parseHandoverUndo } from '../../ids.js';
import { undoneBlocks, withoutUndo } from '../../views/handover.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { handoverPostOf, NOT_A_HANDOVER_POST } from './handover-post.js';

/**
 * Undo on an accepted handover post: only the accepter, once, for a few minutes (services/shift-work/handover-acceptance.ts).
 * The Accept button comes back, the managers' "not accepted" check with it, and the post says who undid it;
 * anyone else is told why not, and a late Undo leaves the post saying who accepted, without its button.
 */
export function registerHandoverUndoButton(app: App): void {
  app.action(
    ActionIds.handoverUndo,
    buttonListener('undo a handover acceptance', async ({ body, action, respond }, deps) => {
      const undo = parseHandoverUndo(action.value);
      const post = handoverPostOf(body, undo?.ref);
      if (!undo || !post) {
        await tellClicker(deps, body, respond, NOT_A_HANDOVER_POST);
        return;
      }
      const { ts, channelId } = post;
      const actor = { userId: body.user.id };
      const result = await deps.handovers.undoAccept(actor, undo.ref, undo.round, { ts });
      const blocks = (body.message?.blocks ?? []) as types.KnownBlock[];
      const update = (next: unknown[]) =>
        deps.slack.chat.update({ channel: channelId, ts, blocks: next as types.KnownBlock[], text: body.message?.text ?? 'Handover' });
      switch (result.kind) {
        case 'undone':
          await update(undoneBlocks(blocks, undo.ref, result.by, result.at, deps.timezone));
          return;
        case 'not-yours':
          await tellClicker(deps, body, respond, `Only <@${result.by}>, who accepted this handover, can undo it. The handover is unchanged.`);
          return;
        case 'too-late':
          await tellClicker(
            deps,
            body,
            respond,
            `It is too late to undo: Undo works for ${result.minutes} minutes after accepting. The handover stays accepted.`,
          );
          await update(withoutUndo(blocks)).catch((err) => deps.logger.warn('could not take an expired Undo off a handover post', { error: err }));
          return;
        case 'spent':
          await tellClicker(deps, body, respond, 'This acceptance was already undone (or the handover was accepted again since): nothing was changed.');
          return;
      }
    }),
  );
}
