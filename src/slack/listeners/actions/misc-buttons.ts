import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import type { SlackDeps } from '../../deps.js';
import { publishHome } from '../../home.js';
import { HOME_PAGE_SIZE } from '../../views/home.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { sharedLiteratureText } from '../../views/directory.js';
import { approveLinkModal } from '../../views/simple-modals.js';
import { tellClicker } from './complete-reopen.js';

type Body = BlockAction<ButtonAction>;

/** Home "Show more", literature "Share in channel", admin link buttons. */
export function registerMiscButtons(app: App, deps: SlackDeps): void {
  app.action<Body>(ActionIds.homeMore, async ({ ack, body, action }) => {
    await ack();
    // The value is where the next page starts (0 = back to the top).
    const offset = Math.min(Math.max(Math.floor(Number(action.value)) || 0, 0), 10_000);
    await publishHome(deps, body.team?.id ?? '', body.user.id, HOME_PAGE_SIZE, offset);
  });

  app.action<Body>(ActionIds.shareLiterature, async ({ ack, body, action, respond }) => {
    await ack();
    const channel = body.channel?.id;
    try {
      if (!channel) throw new Error('no channel');
      const item = await deps.directory.literatureItem(action.value ?? '');
      await deps.slack.chat.postMessage({ channel, text: sharedLiteratureText(item, body.user.id), unfurl_links: false });
      await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: 'Shared in the channel.' }, deps.logger);
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      const message =
        code === 'not_in_channel' || code === 'channel_not_found'
          ? 'I am not in this channel: invite me with `/invite @Care Actions`, then try again.'
          : describeError(err);
      await tellClicker(deps, body, respond, message);
    }
  });

  app.action<Body>(ActionIds.unlink, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      const removed = await deps.identity.unlink(actor, action.value ?? '');
      await safeRespond(
        respond,
        { response_type: 'ephemeral', replace_original: false, text: removed ? `<@${action.value}> is unlinked.` : 'That link was already gone.' },
        deps.logger,
      );
      if (removed) await publishHome(deps, actor.teamId, action.value ?? '');
    } catch (err) {
      await tellClicker(deps, body, respond, describeError(err));
    }
  });

  app.action<Body>(ActionIds.approveLink, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      await deps.identity.requireAdmin(actor);
      const request = await deps.store.getLinkRequest(Number(action.value));
      if (!request) throw new Error('no such request');
      if (request.state !== 'pending') {
        await tellClicker(deps, body, respond, `That request was already ${request.state}${request.decidedBy ? ` by <@${request.decidedBy}>` : ''}.`);
        return;
      }
      const meta = {
        requestId: String(request.id),
        ...(body.channel?.id ? { channel: body.channel.id } : {}),
        ...(body.message?.ts ? { ts: body.message.ts } : {}),
      };
      await deps.slack.views.open({
        trigger_id: body.trigger_id,
        view: approveLinkModal(CallbackIds.approveLinkModal, meta, request.slackUserId, request.careUserId ?? undefined),
      });
    } catch (err) {
      await tellClicker(deps, body, respond, describeError(err));
    }
  });

  app.action<Body>(ActionIds.rejectLink, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      const request = await deps.identity.decideRequest(actor, Number(action.value), 'rejected');
      if (body.channel?.id && body.message?.ts) {
        await deps.slack.chat.update({
          channel: body.channel.id,
          ts: body.message.ts,
          text: `Link request from <@${request.slackUserId}> rejected by <@${actor.userId}>.`,
          blocks: [],
        });
      }
      await deps.slack.chat.postMessage({
        channel: request.slackUserId,
        text: 'An admin did not approve your request to link your care account. Ask them if you think this is wrong.',
      });
    } catch (err) {
      await tellClicker(deps, body, respond, describeError(err));
    }
  });
}
