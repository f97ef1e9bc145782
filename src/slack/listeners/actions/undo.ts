import type { App, BlockAction, types } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { ActionIds, isActionBlock } from '../../ids.js';
import { readUndoValue, UNDO_WINDOW_MS, type UndoGrant } from '../../sealed/undo-token.js';
import { changedByBlock } from '../../views/changed-by.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { refreshHomesAfterClick, showWhereClicked } from '../after-click.js';
import { clickedPostOf } from '../../surface.js';
import { workspaceOf } from '../../workspace-on-context.js';

const MINUTES = UNDO_WINDOW_MS / 60_000;

/** How to make the opposite change without Undo: the card's button (it asks first) or the command. */
async function otherWay(deps: SlackDeps, grant: UndoGrant, actionNo?: string | null): Promise<string> {
  const no =
    actionNo ??
    (await deps.actions
      .resolve({ type: 'id', id: grant.actionId })
      .then((a) => a.action_no ?? grant.actionId)
      .catch(() => grant.actionId));
  if (grant.kind === 'snooze') return `To change its due time, use Snooze or Edit on its card (\`/care show ${no}\`).`;
  if (grant.kind === 'edit') return `To change it again, use Edit on its card (\`/care show ${no}\`).`;
  return grant.kind === 'complete'
    ? `To reopen it, use Reopen on its card (it asks first) or type \`/care reopen ${no}\`.`
    : `To complete it, use Complete on its card (it asks first) or type \`/care done ${no}\`.`;
}

const DID = { complete: 'completed', reopen: 'reopened', snooze: 'snoozed', edit: 'edited' } as const;

/** The row's own words without its Undo (so an Edit's row keeps what it changed), else drawn again from the grant. */
function withoutUndo(row: types.AnyBlock, grant: UndoGrant): types.AnyBlock {
  const section = row as types.SectionBlock;
  if (section.type === 'section' && section.text?.type === 'mrkdwn') {
    const { accessory: _gone, ...rest } = section;
    return { ...rest, text: { ...section.text, text: section.text.text.replace(/ · Undo \(for \d+ minutes\)$/, '') } };
  }
  return changedByBlock(grant.actionId, { kind: grant.kind, by: grant.by, earlier: grant.earlier }) as types.AnyBlock;
}

/** The Undo button of an expired grant leaves the post: the row keeps saying who did it. */
async function dropUndoButton(deps: SlackDeps, body: BlockAction, grant: UndoGrant): Promise<void> {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const ts = body.message?.ts;
  const blocks = body.message?.blocks as types.AnyBlock[] | undefined;
  if (!channel || !ts || !blocks || body.container?.is_ephemeral) return;
  const row = blocks.findIndex((b) => 'block_id' in b && isActionBlock(b.block_id, 'by', grant.actionId));
  if (row < 0) return;
  const next = [...blocks.slice(0, row), withoutUndo(blocks[row]!, grant), ...blocks.slice(row + 1)];
  await deps.slack.chat
    .update({ channel, ts, blocks: next as types.KnownBlock[], text: body.message?.text ?? 'Care action' })
    .catch((err) => deps.logger.warn('could not take an expired Undo off a post', { error: err }));
}

/**
 * Undo on a channel post, for UNDO_WINDOW_MS after a Complete, Reopen, Snooze or
 * Edit made there: only the person who made it, once, and only while the action is
 * as that change left it (services/actions/undo-change.ts). Undo of a Complete reopens,
 * of a Reopen completes, of a Snooze puts the due time back, of an Edit puts
 * back the assignee, due time and urgency it changed; the post says
 * "Undone by". Otherwise the clicker is told why not and how to change it
 * another way.
 */
export function registerUndoButton(app: App): void {
  app.action(
    ActionIds.undo,
    buttonListener('undo', async ({ body, action, respond, context }, deps) => {
      const actor = { userId: body.user.id };
      const grant = readUndoValue(deps.signedMetadata, workspaceOf(context), action.value);
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
      const outcome = await deps.actions.undo(
        { ...actor, at: clickedPostOf(body) },
        {
          actionId: grant.actionId,
          kind: grant.kind,
          after: grant.after,
          previousDue: grant.previousDue,
          previous: grant.previous,
          expiresAt: grant.expiresAt,
        },
      );
      if (outcome.kind === 'spent') {
        // The post is drawn from the action as it is now, saying it was undone: true whichever click Slack
        // answers last (this click's copy of the post may be older than the redraw the used Undo made).
        const [now] = await deps.actions.views([await deps.actions.resolve({ type: 'id', id: grant.actionId })]);
        await showWhereClicked(deps, workspaceOf(context), body, respond, now!, undefined, { kind: 'undo', by: grant.by });
        await tellClicker(deps, body, respond, `This Undo was already used: your change was undone once. ${await otherWay(deps, grant)}`);
        return;
      }
      const [view] = await deps.actions.views([outcome.action]);
      if (outcome.kind === 'changed') {
        // The post shows the action as it is now, and who made the change, without Undo.
        await showWhereClicked(deps, workspaceOf(context), body, respond, view!, undefined, { kind: grant.kind, by: grant.by, earlier: grant.earlier });
        const label = outcome.action.action_no ? `#${outcome.action.action_no}` : 'This action';
        await tellClicker(
          deps,
          body,
          respond,
          `Not undone: ${label} has changed since you ${grant.earlier ? 'moved it earlier' : `${DID[grant.kind]} it`}, so Undo could wipe out someone else's change. The post now shows it as it is. ${await otherWay(deps, grant, outcome.action.action_no)}`,
        );
        return;
      }
      await showWhereClicked(deps, workspaceOf(context), body, respond, view!, undefined, { kind: 'undo', by: actor.userId });
      await refreshHomesAfterClick(deps, workspaceOf(context), body, view!);
    }),
  );
}
