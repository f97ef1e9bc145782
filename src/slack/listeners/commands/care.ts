import type { App } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import { parseCommand } from '../../commands/parse.js';
import type { CommandContext, SlackDeps } from '../../deps.js';
import { safeRespond } from '../../respond.js';
import { escapeMrkdwn } from '../../text.js';
import { errorBlocks } from '../../views/help.js';
import { handleActionCommand } from './action-commands.js';
import { handleAccountCommand } from './account-commands.js';
import { handleDirectoryCommand } from './directory-commands.js';

/** `/care …`: ack at once, parse, hand to the handler for that family of subcommands. */
export function registerCareCommand(app: App, deps: SlackDeps): void {
  app.command('/care', async ({ command, ack, respond }) => {
    await ack();
    const ctx: CommandContext = {
      teamId: command.team_id,
      userId: command.user_id,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      reply: async (m) => {
        await safeRespond(respond, { response_type: 'ephemeral', ...m }, deps.logger);
      },
    };
    const cmd = parseCommand(command.text ?? '');
    deps.logger.info('slash command', { sub: cmd.kind, user: command.user_id });
    try {
      if (cmd.kind === 'error') {
        // Usage forms (`<words>`) and echoed words are text, not Slack markup.
        const message = escapeMrkdwn(cmd.message);
        return await ctx.reply({ text: message, blocks: errorBlocks(message) });
      }
      for (const handler of [handleActionCommand, handleAccountCommand, handleDirectoryCommand]) {
        if (await handler(cmd, ctx, deps)) return;
      }
      for (const extra of deps.adminCommands ?? []) {
        if (await extra(ctx, cmd)) return;
      }
      await ctx.reply({ text: 'That part of /care is not available here yet. Type `/care help`.' });
    } catch (err) {
      const message = describeError(err);
      deps.logger.warn('slash command failed', { sub: cmd.kind, error: err });
      await ctx.reply({ text: message, blocks: errorBlocks(message) });
    }
  });
}
