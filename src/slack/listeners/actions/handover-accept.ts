import type { App, types } from '@slack/bolt';
import { ActionIds, parseHandoverRef } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { acceptedAnswer, acceptedBlocks, refusedAnswer } from '../../views/handover.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { handoverPostOf, NOT_A_HANDOVER_POST } from './handover-post.js';

/**
 * **Accept handover** on a handover post: the first press of someone who may accept (a linked person;
 * where seniors are named for the incoming shift, one of them or an admin) accepts, and the post then
 * says who and when (each reader's own zone), with Undo for the accepter; a later press is told, to the
 * presser alone, who already did; anyone else is told why not, and the post stays as it was.
 */
export function registerHandoverAcceptButton(app: App): void {
  app.action(
    ActionIds.handoverAccept,
    buttonListener('accept handover', async ({ body, action, respond }, deps) => {
      const ref = parseHandoverRef(action.value);
      const post = handoverPostOf(body, ref);
      if (!ref || !post) {
        await tellClicker(deps, body, respond, NOT_A_HANDOVER_POST);
        return;
      }
      const { ts, channelId } = post;
      const actor = { userId: body.user.id };
      const result = await deps.handovers.accept(actor, ref, { ts });
      if (result.kind === 'refused') {
        await tellClicker(deps, body, respond, refusedAnswer(result));
        return;
      }
      if (result.kind === 'already') {
        await safeRespond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: acceptedAnswer(result.by, result.at, deps.timezone) },
          deps.logger,
        );
        return;
      }
      const blocks = acceptedBlocks((body.message?.blocks ?? []) as types.KnownBlock[], result.by, result.at, deps.timezone, { ref, round: result.round });
      await deps.slack.chat.update({ channel: channelId, ts, blocks: blocks as types.KnownBlock[], text: body.message?.text ?? 'Handover' });
    }),
  );
}
