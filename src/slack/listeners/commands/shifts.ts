import type { CommandContext, CommandHandler } from '../../deps.js';
import { shiftsText } from '../../views/shifts.js';

const actorOf = (ctx: CommandContext) => ({ userId: ctx.userId });

/** `/care shifts`: anyone. */
export const shiftsShow: CommandHandler<'shifts-show'> = async (_cmd, ctx, deps) => {
  await ctx.reply({ text: shiftsText(await deps.shifts.now()) });
};

/** `/care shifts <shifts>` or `/care shifts default`: admins (the service says who can to anyone else). */
export const shiftsSet: CommandHandler<'shifts-set'> = async (cmd, ctx, deps) => {
  await ctx.reply({ text: shiftsText(await deps.shifts.set(actorOf(ctx), cmd.shifts), true) });
};
