import type { Action } from '../../care/index.js';
import { CREATED_KIND, UPDATED_KIND } from '../../services/actions/action-posts.js';
import type { SlackDeps } from '../deps.js';
import type { ActionFormMeta } from './action-form-meta.js';
import { isSharedConversation } from '../surface.js';
import { escapeMrkdwn } from '../text.js';
import { actionCard, actionFallback } from '../views/action-card.js';
import { section } from '../views/blocks.js';

/**
 * Tell the person a saved action is done: in the thread it came from, else where they typed, else in a DM.
 * A confirmation Slack keeps (the thread reply, the DM) is recorded in the delivery ledger as a post about
 * the action (services/actions/action-posts.ts), so retention edits it down with the action's other posts; one said
 * to the person alone in a channel (an ephemeral answer) cannot be edited later and is not recorded.
 *
 * Why posting in `meta.channelId` is allowed: the channel and thread were recorded from the
 * person's own interaction (the command they typed there, the message they ran the shortcut on,
 * the card they clicked Edit on), which Slack only sends from a conversation the person is in,
 * and the seal on the metadata proves the app recorded them for this person within the last
 * day. Slack offers no cheap "is this user a member" call (conversations.members pages through
 * the whole channel), so the seal is the check.
 */
export async function confirmSaved(
  deps: SlackDeps,
  actor: { teamId: string; userId: string },
  meta: Pick<ActionFormMeta, 'mode' | 'tz' | 'channelId' | 'threadTs'>,
  action: Action,
): Promise<void> {
  const [view] = await deps.actions.views([action]);
  const verb = meta.mode === 'create' ? 'Created' : 'Updated';
  const kind = meta.mode === 'create' ? CREATED_KIND : UPDATED_KIND;
  const record = (to: { user: string } | { channel: string }, posted: { channel?: string | undefined; ts?: string | undefined }) =>
    posted.channel && posted.ts
      ? deps.posts.record({ kind, actionId: action._id, teamId: actor.teamId, to, channel: posted.channel, ts: posted.ts })
      : undefined;
  const tz = meta.tz;
  // Assigned to someone on the rota who is not in Slack: no DM reaches them, and the person is told where they see it.
  const offSlack =
    view?.assignee && !view.assignee.slackUserId
      ? ` ${escapeMrkdwn(view.assignee.name ?? 'The assignee')} is not in Slack: they will see it in the care system.`
      : '';
  const channel = meta.channelId;
  // A safeguarding action is never confirmed in a channel's thread: to the person alone (safeguarding.ts).
  const safeguarding = (await deps.safeguarding?.covers(action)) ?? false;
  if (channel && meta.threadTs && !safeguarding) {
    const showTask = await deps.channels.showTasksIn(channel);
    // A thread reply in a channel is a shared post: Complete asks first, and hidden text gets View.
    const ctx = { now: deps.now(), timezone: tz, showTask, shared: isSharedConversation(channel) };
    let posted: { channel?: string | undefined; ts?: string | undefined } | undefined;
    try {
      posted = await deps.slack.chat.postMessage({
        channel,
        thread_ts: meta.threadTs,
        text: `${verb} by <@${actor.userId}>: ${actionFallback(view!, ctx)}`,
        blocks: [section(`:white_check_mark: ${verb} by <@${actor.userId}>${offSlack ? `.${offSlack}` : ''}`), ...actionCard(view!, ctx)],
      });
    } catch (err) {
      deps.logger.warn('could not confirm in the thread; sending a DM instead', { error: err });
    }
    if (posted) {
      await record({ channel }, posted);
      return;
    }
  }
  const ctx = { now: deps.now(), timezone: tz, showTask: true };
  const blocks = [section(`:white_check_mark: ${verb}.${offSlack}`), ...actionCard(view!, ctx)];
  if (channel && !channel.startsWith('D')) {
    try {
      await deps.slack.chat.postEphemeral({ channel, user: actor.userId, text: `${verb}: ${actionFallback(view!, ctx)}`, blocks });
      return;
    } catch {
      // not in that channel: fall through to a DM
    }
  }
  const posted = await deps.slack.chat.postMessage({ channel: actor.userId, text: `${verb}: ${actionFallback(view!, ctx)}`, blocks });
  await record({ user: actor.userId }, posted);
}
