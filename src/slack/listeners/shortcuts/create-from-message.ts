import type { App, MessageShortcut } from '@slack/bolt';
import { localParts } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { CallbackIds } from '../../ids.js';
import { plain } from '../../text.js';
import { actionModal } from '../../views/action-modal.js';

/** Message shortcut "Create care action": task prefilled from the message, confirmed in its thread. */
export function registerCreateFromMessage(app: App, deps: SlackDeps): void {
  app.shortcut<MessageShortcut>(CallbackIds.createFromMessage, async ({ ack, shortcut }) => {
    await ack();
    const actor = { teamId: shortcut.team?.id ?? '', userId: shortcut.user.id };
    try {
      if (!(await deps.identity.getLink(actor))) {
        await deps.slack.chat.postMessage({
          channel: actor.userId,
          text: 'To create care actions from messages, link your care account first: type `/care link`.',
        });
        return;
      }
      const tz = (await deps.profiles.get(actor.userId)).tz;
      const threadTs = shortcut.message.thread_ts ?? shortcut.message.ts;
      await deps.slack.views.open({
        trigger_id: shortcut.trigger_id,
        view: actionModal(
          { mode: 'create', tz, channelId: shortcut.channel.id, threadTs },
          { task: plain(shortcut.message.text ?? '', 3000), dueDate: localParts(deps.now(), tz).date },
        ),
      });
    } catch (err) {
      deps.logger.warn('message shortcut failed', { error: err });
    }
  });
}
