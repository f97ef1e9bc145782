import { userText } from '../../text.js';
import type { CommandHandler } from '../../deps.js';

const dayText = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(`${date}T00:00:00Z`));

/** `/care evidence [from DATE] [to DATE] [location <name>] [--with-tasks]`: admins get a CSV in their DM. */
export const evidence: CommandHandler<'evidence'> = async (cmd, ctx, deps) => {
  const outcome = await deps.evidence.send({ userId: ctx.userId }, cmd);
  switch (outcome.kind) {
    case 'not-admin':
      await ctx.reply({ text: 'Only Care Actions admins can export evidence; ask one of your workspace’s admins to run `/care evidence` for you.' });
      return;
    case 'cannot-send-files':
      await ctx.reply({
        text: 'Slack did not let me send you the file: this workspace’s install of Care Actions is missing the files:write permission. Reinstall the app (Add to Slack) to grant it, then try again.',
      });
      return;
    case 'bad-range':
      await ctx.reply({ text: outcome.message });
      return;
    case 'no-such-location':
      await ctx.reply({
        text: `No location is called “${userText(outcome.name, 80)}”.${outcome.known.length ? ` The locations are: ${outcome.known.map((n) => userText(n, 60)).join(', ')}.` : ''} \`/care locations\` lists them.`,
      });
      return;
    case 'sent': {
      const where = outcome.location ? ` at ${userText(outcome.location, 80)}` : '';
      await ctx.reply({
        text: `I have sent you the evidence export in a DM: ${outcome.figures.actions} actions first due or completed ${dayText(outcome.range.from)} to ${dayText(outcome.range.to)}${where}${outcome.withTasks ? ', with task text' : ''}.`,
      });
    }
  }
};
