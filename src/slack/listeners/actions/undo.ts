import type { App, BlockAction, types } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { ActionIds, isActionBlock } from '../../ids.js';
import { readUndoValue, UNDO_WINDOW_MS, type UndoGrant } from '../../undo-token.js';
import { changedByBlock } from '../../views/changed-by.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { refreshHomesAfterClick, showWhereClicked } from './complete-reopen.js';

const MINUTES = UNDO_WINDOW_MS / 60_000;

/** How to make the opposite change without Undo: the card's button (it asks first) or the command. */
async function otherWay(deps: SlackDeps, grant: UndoGrant): Promise<string> {
  const no = await deps.actions
    .resolve({ type: 'id', id: grant.actionId })
    .then((a) => a.action_no ?? grant.actionId)
    .catch(() => grant.actionId);
  return grant.kind === 'complete'
    ? `To reopen it, use Reopen on its card (it asks first) or type \`/care reopen ${no}\`.`
    : `To complete it, use Complete on its card (it asks first) or type \`/care done ${no}\`.`;
}

/** The Undo button of an expired grant leaves the post: the row keeps saying who did it. */
async function dropUndoButton(deps: SlackDeps, body: BlockAction, grant: UndoGrant): Promise<void> {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const ts = body.message?.ts;
  const blocks = body.message?.blocks as types.AnyBlock[] | undefined;
  if (!channel || !ts || !blocks || body.container?.is_ephemeral) return;
  const row = blocks.findIndex((b) => 'block_id' in b && isActionBlock(b.block_id, 'by', grant.actionId));
  if (row < 0) return;
  const next = [...blocks.slice(0, row), changedByBlock(grant.actionId, { kind: grant.kind, by: grant.by }), ...blocks.slice(row + 1)];
  await deps.slack.chat
    .update({ channel, ts, blocks: next as types.KnownBlock[], text: body.message?.text ?? 'Care action' })
    .catch((err) => deps.logger.warn('could not take an expired Undo off a post', { error: err }));
}

/**
 * Undo on a channel post, for UNDO_WINDOW_MS after a Complete or Reopen made
 * there: only the person who made it; Undo of a Complete reopens, of a Reopen
 * completes, and the post says "Undone by". Afterwards it says it is too late
 * and how to change it another way.
 */
export function registerUndoButton(app: App, deps: SlackDeps): void {
  app.action(
    ActionIds.undo,
    buttonListener(deps, 'undo', async ({ body, action, respond }) => {
      const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
      const grant = readUndoValue(deps.signedMetadata, actor.teamId, action.value);
      if (!grant) {
        await tellClicker(
          deps,
          body,
          respond,
          'This Undo is no longer valid. Use Complete or Reopen on the action’s card (they ask first), or `/care done` / `/care reopen` with its number.',
        );
        return;
      }
      if (grant.by !== actor.userId) {
        await tellClicker(deps, body, respond, `Only <@${grant.by}> can undo this. ${await otherWay(deps, grant)}`);
        return;
      }
      if (deps.now().getTime() >= grant.expiresAt) {
        await tellClicker(deps, body, respond, `It is too late to undo: Undo works for ${MINUTES} minutes after the change. ${await otherWay(deps, grant)}`);
        await dropUndoButton(deps, body, grant);
        return;
      }
      const result = grant.kind === 'complete' ? await deps.actions.reopen(actor, grant.actionId) : await deps.actions.complete(actor, grant.actionId);
      const [view] = await deps.actions.views([result.action], actor.teamId);
      const note = result.changed
        ? undefined
        : grant.kind === 'complete'
          ? 'That action was already open again; the card now shows its current state.'
          : 'That action was already complete again; the card now shows its current state.';
      await showWhereClicked(deps, body, respond, view!, note, result.changed ? { kind: 'undo', by: actor.userId } : undefined);
      if (result.changed) await refreshHomesAfterClick(deps, body, view!);
    }),
  );
}
