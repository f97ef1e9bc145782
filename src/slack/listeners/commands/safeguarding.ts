import { userText } from '../../text.js';
import { nameProblemText } from '../../views/name-lookup.js';
import { safeguardingSettingText } from '../../views/safeguarding-setting.js';
import type { CommandHandler } from '../../deps.js';

/** `/care settings safeguarding …` (admins): show the safeguarding tier, or change one part of it. */
export const safeguarding: CommandHandler<'safeguarding'> = async (cmd, ctx, deps) => {
  const service = deps.safeguarding;
  if (!service) {
    await ctx.reply({ text: 'Safeguarding settings are not available in this deployment.' });
    return;
  }
  const admin = { userId: ctx.userId };
  if (cmd.command.kind === 'show') {
    await ctx.reply({ text: safeguardingSettingText(await service.show(admin)) });
    return;
  }
  const result = await service.change(admin, cmd.command.change);
  switch (result.kind) {
    case 'set':
      await ctx.reply({ text: safeguardingSettingText(result.settings, true) });
      return;
    case 'no-such-group':
      await ctx.reply({
        text: `There is no notification group called “${userText(result.name, 80)}” in the care system. Nothing was changed. Give the names as the care system shows them, commas between.`,
      });
      return;
    default:
      await ctx.reply({ text: nameProblemText(result) });
  }
};
