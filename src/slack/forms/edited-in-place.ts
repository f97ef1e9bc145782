import type { BlockAction, types } from '@slack/bolt';
import { answersOnPost, withAnswersNow } from '../answers-on-post.js';
import type { SlackDeps } from '../deps.js';
import { listSourceOfBlockId } from '../ids.js';
import { isSharedConversation } from '../surface.js';
import { renderCommandList } from '../lists.js';
import { actionCard } from '../views/action-card.js';
import type { ActionView } from '../../services/action-model.js';
import type { ChangedBy } from '../views/changed-by.js';
import { patchActionBlocks } from '../views/patch.js';

/** Where an Edit button was clicked: a channel message (by ts) or an ephemeral answer (by response_url). */
export interface EditOrigin {
  channel: string;
  ts?: string | undefined;
  /** Set when the card is a thread reply (read back with conversations.replies). */
  threadTs?: string | undefined;
  responseUrl?: string | undefined;
  blockId?: string | undefined;
}

/** Where a button or menu that opens a form was used, so the saved state replaces that card in place (none on the Home tab). */
export function clickOrigin(body: BlockAction, blockId: string): EditOrigin | undefined {
  const channelId = body.channel?.id ?? body.container?.channel_id;
  if (body.container?.type !== 'message' || !channelId) return undefined;
  return body.container.is_ephemeral
    ? { channel: channelId, responseUrl: body.response_url, blockId }
    : { channel: channelId, ts: body.message?.ts ?? body.container.message_ts, threadTs: body.message?.thread_ts ?? body.container.thread_ts };
}

/**
 * After an Edit (or a Snooze from a form) is saved, show the new state on the
 * message the person clicked on, as Complete/Reopen do; on a channel post
 * `changedBy` adds the row saying who did it (with Undo). Returns whether it could.
 */
export async function showEditedInPlace(
  deps: SlackDeps,
  actor: { teamId: string; userId: string },
  origin: EditOrigin,
  view: ActionView,
  tz: string,
  changedBy?: ChangedBy,
): Promise<boolean> {
  if (origin.ts) {
    // Without the history scopes the card cannot be read back to patch: the caller answers another way.
    if (deps.historyAccess && !(await deps.historyAccess.readable())) return false;
    const read =
      origin.threadTs && origin.threadTs !== origin.ts
        ? await deps.slack.conversations.replies({ channel: origin.channel, ts: origin.threadTs, latest: origin.ts, inclusive: true, limit: 200 })
        : await deps.slack.conversations.history({ channel: origin.channel, latest: origin.ts, inclusive: true, limit: 1 });
    const message = read.messages?.find((m) => m.ts === origin.ts);
    if (!message?.blocks) return false;
    const showTask = await deps.channels.showTasksIn(origin.channel);
    const ctx = { now: deps.now(), timezone: tz, showTask, shared: isSharedConversation(origin.channel) };
    const blocks = message.blocks as types.AnyBlock[];
    const answers = await answersOnPost(deps, blocks, view);
    const patched = withAnswersNow(answers, patchActionBlocks(blocks, view, ctx, ctx.shared ? changedBy : undefined), view, ctx);
    if (!patched) return false;
    await deps.slack.chat.update({ channel: origin.channel, ts: origin.ts, blocks: patched as types.KnownBlock[], text: message.text ?? 'Care action' });
    return true;
  }
  if (origin.responseUrl) {
    const source = listSourceOfBlockId(origin.blockId);
    const answer = source
      ? await renderCommandList(deps, actor, source, tz, view)
      : { text: 'Care action', blocks: actionCard(view, { now: deps.now(), timezone: tz, showTask: true }) };
    const res = await fetch(origin.responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replace_original: true, ...answer }),
    });
    return res.ok;
  }
  return false;
}
