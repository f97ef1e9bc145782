import type { App } from '@slack/bolt';
import { UserFacingError } from '../../../services/errors.js';
import { ActionIds } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { sharedLiteratureText } from '../../views/directory.js';
import { buttonListener } from '../error-policy.js';

const NOT_IN_CHANNEL = new Set(['not_in_channel', 'channel_not_found']);

/** "Share in channel" on a literature item: posts its name and link where the person is. */
export function registerShareLiterature(app: App): void {
  app.action(
    ActionIds.shareLiterature,
    buttonListener('share literature', async ({ body, action, respond }, deps) => {
      const channel = body.channel?.id;
      if (!channel) throw new UserFacingError('There is no channel here to share it in.', 'invalid');
      const item = await deps.directory.literatureItem(action.value ?? '');
      try {
        await deps.slack.chat.postMessage({ channel, text: sharedLiteratureText(item, body.user.id), unfurl_links: false });
      } catch (err) {
        const code = (err as { data?: { error?: string } }).data?.error;
        if (code && NOT_IN_CHANNEL.has(code))
          throw new UserFacingError('I am not in this channel: invite me with `/invite @Care Actions`, then try again.', 'invalid');
        throw err;
      }
      await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: 'Shared in the channel.' }, deps.logger);
    }),
  );
}
