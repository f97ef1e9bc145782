import type { App, types } from '@slack/bolt';
import { ActionIds, parseHandoverRef } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { acceptedAnswer, acceptedBlocks } from '../../views/handover.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/**
 * **Accept handover** on a handover post: the first press accepts (the post then says who and when,
 * for everyone in the channel); a later press is told, to the presser alone, who already did.
 */
export function registerHandoverAcceptButton(app: App): void {
  app.action(
    ActionIds.handoverAccept,
    buttonListener('accept handover', async ({ body, action, respond, context }, deps) => {
      const ref = parseHandoverRef(action.value);
      const ts = body.message?.ts;
      const channelId = body.channel?.id ?? body.container?.channel_id;
      if (!ref || !ts || channelId !== ref.channelId) {
        await safeRespond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: 'This button is not on a handover post I can read; nothing was changed.' },
          deps.logger,
        );
        return;
      }
      const actor = { teamId: workspaceOf(context), userId: body.user.id };
      const result = await deps.handovers.accept(actor, ref, { ts });
      if (result.kind === 'already') {
        await safeRespond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: acceptedAnswer(result.by, result.at, deps.timezone) },
          deps.logger,
        );
        return;
      }
      const blocks = acceptedBlocks((body.message?.blocks ?? []) as types.KnownBlock[], result.by, result.at, deps.timezone);
      await deps.slack.chat.update({ channel: channelId, ts, blocks, text: body.message?.text ?? 'Handover' });
    }),
  );
}
