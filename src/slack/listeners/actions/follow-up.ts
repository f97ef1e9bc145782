import type { App } from '@slack/bolt';
import { ActionIds, parseFollowUpValue } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { clickedPostOf } from '../../surface.js';

import { buttonListener, tellClicker } from '../error-policy.js';

const ANSWERS = [
  [ActionIds.followUpDone, 'done', 'follow-up done'],
  [ActionIds.followUpStillOnIt, 'still-on-it', 'follow-up still on it'],
  [ActionIds.followUpHandBack, 'hand-back', 'follow-up hand back'],
] as const;

/**
 * The follow-up DM's buttons (services/urgent/follow-up.ts): Done completes the action, Still on it restarts the
 * follow-up's clock once, Hand back (asked first by the button) unassigns it and alerts the channel again. The DM
 * is drawn again where it was pressed; the other posts about the action follow through the redraw engine.
 */
export function registerFollowUpButtons(app: App): void {
  for (const [actionId, what, name] of ANSWERS) {
    app.action(
      actionId,
      buttonListener(name, async ({ body, action, respond }, deps) => {
        const ref = parseFollowUpValue(action.value);
        if (!ref || !deps.followUps) {
          await tellClicker(deps, body, respond, 'This button is not on a follow-up I can read; nothing was changed.');
          return;
        }
        const at = clickedPostOf(body);
        const actor = { userId: body.user.id, at };
        const answer = await deps.followUps.answer(actor, ref, what);
        if (answer.kind === 'note') {
          await tellClicker(deps, body, respond, answer.text);
          return;
        }
        if (at) await deps.slack.chat.update({ channel: at.channel, ts: at.ts, text: answer.message.text, blocks: answer.message.blocks ?? [] });
        if (answer.note) await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: answer.note }, deps.logger);
      }),
    );
  }
}
