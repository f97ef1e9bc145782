import type { BlockAction, types } from '@slack/bolt';
import type { Action } from '../../care/index.js';
import type { ActionView } from '../../services/action-model.js';
import type { EditRestore } from '../../services/actions/undo-change.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { movesEarlier } from '../../time/snooze.js';
import { answersOnPost, withAnswersNow } from '../answers-on-post.js';
import type { SlackDeps } from '../deps.js';
import { publishHome, refreshHomes } from '../home-publisher.js';
import { isActionBlock, listSourceOfBlockId, type ListSource } from '../ids.js';
import { renderCommandList } from '../lists.js';
import { safeRespond, type Responder } from '../respond.js';
import { isSharedConversation } from '../surface.js';
import { UNDO_WINDOW_MS, undoValue } from '../sealed/undo-token.js';
import { actionCard } from '../views/action-card.js';
import { section } from '../views/blocks.js';
import { changedByBlock, changedByText, undoButton, type ChangedBy, type EditSummary } from '../views/changed-by.js';
import { patchActionBlocks } from '../views/patch.js';

/*
 * What every button and form that changed an action does after it (Complete, Reopen, Take it, Snooze, Undo, a
 * note, an Edit from a channel post): the action shown where the person clicked, the Home tabs of those affected,
 * and on a channel post the "Completed by @x · Undo" row.
 */

function listSourceOf(body: BlockAction): ListSource | null {
  return listSourceOfBlockId(body.actions?.[0]?.block_id);
}

/**
 * Put the new state where the person clicked: the Home tab, the message, or their ephemeral answer.
 * `changedBy` (only for a channel post): the row saying who did it, with Undo; when the message has
 * no room for it, the words go in the action's text and the Undo to the clicker alone.
 */
export async function showWhereClicked(
  deps: SlackDeps,
  teamId: string,
  body: BlockAction,
  respond: Responder,
  view: ActionView,
  note?: string,
  changedBy?: ChangedBy,
): Promise<void> {
  if (body.container?.type === 'view') {
    await publishHome(deps, teamId, body.user.id);
    return;
  }
  const channelId = body.channel?.id ?? body.container?.channel_id;
  const original = (body.message?.blocks ?? []) as types.AnyBlock[];
  // Read alongside the rest: the post is drawn as soon as before.
  const answers = answersOnPost(deps, original, view);
  const tz = await deps.profiles.tz(body.user.id);
  const ephemeral = Boolean(body.container?.is_ephemeral);
  const showTask = ephemeral || !channelId ? true : await deps.channels.showTasksIn(channelId);
  const shared = !ephemeral && isSharedConversation(channelId);
  const ctx = { now: deps.now(), timezone: tz, showTask, shared };
  const by = shared ? changedBy : undefined;
  const patched = withAnswersNow(await answers, patchActionBlocks(original, view, ctx, by), view, ctx);
  let undoLeftOut = false;
  if (!ephemeral && channelId && body.message?.ts) {
    const blocks = patched ?? [...actionCard(view, ctx), ...(by ? [changedByBlock(view.id, by)] : [])];
    undoLeftOut = Boolean(by?.undo) && !blocks.some((b) => 'block_id' in b && isActionBlock(b.block_id, 'by', view.id));
    await deps.slack.chat.update({ channel: channelId, ts: body.message.ts, blocks: blocks as types.KnownBlock[], text: body.message.text ?? 'Care action' });
  } else {
    // Slack does not send an ephemeral message's blocks back: a list answer is rendered again from where it came from.
    const source = patched ? null : listSourceOf(body);
    const list = source
      ? await renderCommandList(deps, { userId: body.user.id }, source, tz, view).catch((err) => {
          deps.logger.warn('could not render the list again', { error: err });
          return null;
        })
      : null;
    const message = list ?? { text: 'Care action', blocks: patched ?? actionCard(view, ctx) };
    await safeRespond(respond, { replace_original: true, ...message }, deps.logger);
  }
  if (undoLeftOut && by?.undo) {
    const text = `${changedByText(by)}. Undo works for ${by.undo.minutes} minutes.`;
    await safeRespond(
      respond,
      { response_type: 'ephemeral', replace_original: false, text, blocks: [section(text, { accessory: undoButton(by.undo.value) })] },
      deps.logger,
    );
  }
  if (note) await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: note }, deps.logger);
}

/** After a card changed an action: the Home tabs of the clicker and the assignee (the clicker's own Home was just published if they clicked there). */
export async function refreshHomesAfterClick(deps: SlackDeps, teamId: string, body: BlockAction, view: ActionView): Promise<void> {
  const clicker = body.user.id;
  const people = [clicker, view.assignee?.slackUserId].filter((u) => u !== clicker || body.container?.type !== 'view');
  await refreshHomes(deps, teamId, people);
}

/**
 * The "Completed by @x · Undo" row of a change just made on a channel post (undefined elsewhere).
 * `after`: the action as the change left it (its `modified`, sealed into the Undo: a later change refuses it).
 */
export function changedWithUndo(
  deps: SlackDeps,
  teamId: string,
  by: string,
  after: Pick<Action, '_id' | 'modified'>,
  change:
    | { kind: 'complete' | 'reopen' }
    | { kind: 'snooze'; to: { due: Date; tz: string }; previousDue: string | null }
    | { kind: 'edit'; edits: EditSummary; previous: EditRestore },
): ChangedBy {
  const grant = { actionId: after._id, kind: change.kind, by, expiresAt: deps.now().getTime() + UNDO_WINDOW_MS, after: after.modified ?? '' };
  // A snooze that brought the due time forward is said "Due moved earlier", here and when the Undo is gone.
  const earlier = change.kind === 'snooze' && movesEarlier(parseApiDateTime(change.previousDue), change.to.due);
  const value = undoValue(
    deps.signedMetadata,
    teamId,
    change.kind === 'snooze'
      ? { ...grant, previousDue: change.previousDue, earlier }
      : change.kind === 'edit'
        ? { ...grant, previous: change.previous }
        : grant,
  );
  const what = change.kind === 'snooze' ? { to: change.to, earlier } : change.kind === 'edit' ? { edits: change.edits } : {};
  return { kind: change.kind, by, ...what, undo: { value, minutes: UNDO_WINDOW_MS / 60_000 } };
}
