import { REPEAT_USAGE } from '../../commands/escalation-parse.js';
import { userText } from '../../text.js';
import { escalationSettingText } from '../../views/escalation-setting.js';
import { nameProblemText } from '../../views/name-lookup.js';
import type { CommandHandler } from '../../deps.js';

/** `/care escalation …` (admins): show the ladder, or change one part of it. */
export const escalation: CommandHandler<'escalation'> = async (cmd, ctx, deps) => {
  const service = deps.escalation;
  if (!service) {
    await ctx.reply({ text: 'Escalation is not available in this deployment.' });
    return;
  }
  const admin = { userId: ctx.userId };
  if (cmd.command.kind === 'show') {
    await ctx.reply({ text: escalationSettingText(await service.show(admin)) });
    return;
  }
  const result = await service.change(admin, cmd.command.change);
  switch (result.kind) {
    case 'set':
      await ctx.reply({ text: escalationSettingText(result.view, true) });
      return;
    case 'bad-minutes':
      if (result.followup) {
        await ctx.reply({
          text: `Give the follow-up minutes as a whole number from 5 to 240 (not ${result.minutes}), or \`off\`: e.g. \`/care escalation followup 30\`.`,
        });
        return;
      }
      await ctx.reply({ text: `Give the minutes between steps as a whole number from 5 to 240 (not ${result.minutes}): e.g. \`/care escalation after 15\`.` });
      return;
    case 'bad-repeat':
      await ctx.reply({ text: REPEAT_USAGE });
      return;
    case 'not-member':
      await ctx.reply({
        text: `I am not in <#${result.channelId}>, so I could not post there. Invite me first (\`/invite @Care Actions\` in that channel), then try again.`,
      });
      return;
    case 'no-such-shift':
      await ctx.reply({
        text: `There is no shift called “${userText(result.shift, 40)}”. The shifts are ${result.shifts.map((s) => userText(s, 40)).join(', ')}: e.g. \`/care escalation seniors ${userText(result.shifts[0] ?? 'Day', 40)} @amelia\`.`,
      });
      return;
    default:
      await ctx.reply({ text: nameProblemText(result) });
  }
};
