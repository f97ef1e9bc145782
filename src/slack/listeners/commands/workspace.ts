import type { CommandHandler } from '../../deps.js';
import { answerWorkspaceCommand } from './workspace-answers.js';

/** `/care admins|settings|connect …`: answered as this deployment sets workspaces up (workspace-answers.ts). */
export const workspace: CommandHandler<'workspace'> = async (cmd, ctx, deps) => {
  await ctx.reply({ text: await answerWorkspaceCommand(cmd.command, ctx.userId, deps.workspaceSetup) });
};
