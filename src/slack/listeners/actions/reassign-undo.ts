import type { App, BlockAction, types } from '@slack/bolt';
import { REASSIGN_UNDO_WINDOW_MS } from '../../../services/reassign/reassign-records.js';
import type { SlackDeps } from '../../deps.js';
import { ActionIds } from '../../ids.js';
import { refreshHomes } from '../../home-publisher.js';
import { PROGRESS_EVERY } from '../../reassign-flow.js';
import { undoExpiredBlocks, undoProgressBlocks, undoResultBlocks, withUndoArea } from '../../views/reassign-undo.js';
import { workspaceOf } from '../../workspace-on-context.js';
import { buttonListener, tellClicker } from '../error-policy.js';

const HOURS = REASSIGN_UNDO_WINDOW_MS / 3_600_000;

/** The result DM redrawn with its Undo part replaced (progress, result, expired); never throws. */
function redrawer(deps: SlackDeps, body: BlockAction): (area: types.KnownBlock[]) => Promise<void> {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const ts = body.message?.ts;
  const blocks = (body.message?.blocks ?? []) as types.KnownBlock[];
  return async (area) => {
    if (!channel || !ts) return;
    await deps.slack.chat
      .update({ channel, ts, blocks: withUndoArea(blocks, area), text: body.message?.text ?? 'Reassigned work' })
      .catch((err) => deps.logger.warn('could not redraw a reassign result', { error: err }));
  };
}

/**
 * Undo on a reassign result DM (value: the run's Id), admins only: the actions that run moved go back,
 * once, within the window (services/reassign/reassign-undo.ts), with progress and the exact result drawn in the
 * DM in place of the button. A second press (or another admin's) is told it was already undone; after
 * the window, that it expired (and the button goes).
 */
export function registerReassignUndoButton(app: App): void {
  app.action(
    ActionIds.reassignUndo,
    buttonListener('reassign undo', async ({ body, action, respond, context }, deps) => {
      const admin = { userId: body.user.id };
      const runId = action.value ?? '';
      const redraw = redrawer(deps, body);
      let shown = 0;
      const result = await deps.reassignUndo.undo(admin, runId, async (done, total) => {
        if (done === total || done - shown < PROGRESS_EVERY) return;
        shown = done;
        await redraw(undoProgressBlocks(done, total));
      });
      if (result.kind === 'spent') {
        await tellClicker(deps, body, respond, 'This reassignment was already undone: nothing more was moved.');
        return;
      }
      if (result.kind === 'expired') {
        await tellClicker(
          deps,
          body,
          respond,
          `It is too late to undo: Undo works for ${HOURS} hours after a reassignment. Use \`/care reassign\` to move work again.`,
        );
        await redraw(undoExpiredBlocks(REASSIGN_UNDO_WINDOW_MS));
        return;
      }
      await redraw(undoResultBlocks(admin.userId, result.from, result.to, result.outcome));
      if (result.outcome.moved.length) await refreshHomes(deps, workspaceOf(context), [result.from.slackUserId, result.to.slackUserId, admin.userId]);
    }),
  );
}
