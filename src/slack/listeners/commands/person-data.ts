import { uploadFileToDm } from '../../web-api/file-upload.js';
import { EXPORT_DM_TEXT, exportFileName, forgetQuestion } from '../../views/person-data.js';
import type { CommandHandler } from '../../deps.js';

/**
 * `/care export @person` (admins): everything the app holds about them, as a JSON file in the admin's own DM
 * with the app (nobody else's). The answer where the command was typed says only where it went.
 */
export const personExport: CommandHandler<'person-export'> = async (cmd, ctx, deps) => {
  const data = await deps.personData.exportOf({ userId: ctx.userId }, cmd.slackUserId);
  await uploadFileToDm(deps.slack, ctx.userId, {
    filename: exportFileName(data),
    title: 'Care Actions data export',
    content: `${JSON.stringify(data, null, 2)}\n`,
    comment: EXPORT_DM_TEXT,
  });
  await ctx.reply({
    text: `I sent you what Care Actions holds about <@${cmd.slackUserId}> as a JSON file, in your direct messages with the app. Only you can see it there.`,
  });
};

/** `/care forget @person` (admins): asks first, with what would be deleted; the buttons do it (actions/forget-person.ts). */
export const personForget: CommandHandler<'person-forget'> = async (cmd, ctx, deps) => {
  const preview = await deps.personData.preview({ userId: ctx.userId }, cmd.slackUserId);
  await ctx.reply(forgetQuestion(preview));
};
