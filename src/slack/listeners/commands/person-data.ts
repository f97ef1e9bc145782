import type { CommandHandler } from './handler.js';
import { exportMessage, forgetQuestion } from '../../views/person-data.js';

/**
 * `/care export @person` (admins): everything the app holds about them, sent to the admin alone, in a DM.
 * The answer in the channel says only where it went.
 */
export const personExport: CommandHandler<'person-export'> = async (cmd, ctx, deps) => {
  const data = await deps.personData.exportOf({ teamId: ctx.teamId, userId: ctx.userId }, cmd.slackUserId);
  const json = JSON.stringify(data, null, 2);
  await deps.slack.chat.postMessage({ channel: ctx.userId, ...exportMessage(data, json) });
  await ctx.reply({ text: `I sent you what Care Actions holds about <@${cmd.slackUserId}> in a direct message, as JSON. Only you can see it there.` });
};

/** `/care forget @person` (admins): asks first, with what would be deleted; the buttons do it (actions/forget-person.ts). */
export const personForget: CommandHandler<'person-forget'> = async (cmd, ctx, deps) => {
  const preview = await deps.personData.preview({ teamId: ctx.teamId, userId: ctx.userId }, cmd.slackUserId);
  await ctx.reply(forgetQuestion(preview));
};
