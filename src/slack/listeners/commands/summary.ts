import type { CommandContext, CommandHandler, SlackDeps } from '../../deps.js';
import { publishHome } from '../../home-publisher.js';
import { notLinkedBlocks } from '../../views/help.js';
import { summaryStatusText } from '../../views/summary-setting.js';

const actorOf = (ctx: CommandContext) => ({ userId: ctx.userId });

/** It shows a person's own actions: unlinked people are told how to link (true when they were). */
async function toldToLink(ctx: CommandContext, deps: SlackDeps): Promise<boolean> {
  if (await deps.identity.getLink(actorOf(ctx))) return false;
  await ctx.reply({ text: 'Link your care account first: /care link', blocks: notLinkedBlocks() });
  return true;
}

/** `/care summary`: your setting. */
export const summaryShow: CommandHandler<'summary-show'> = async (_cmd, ctx, deps) => {
  if (await toldToLink(ctx, deps)) return;
  await ctx.reply({ text: summaryStatusText(await deps.summaries.status(actorOf(ctx))) });
};

/** `/care summary [HH:MM|shift-start|at <shift> start] [daily|weekdays]` (and `/care summary on`): turn it on or change it. */
export const summarySet: CommandHandler<'summary-set'> = async (cmd, ctx, deps) => {
  if (await toldToLink(ctx, deps)) return;
  const status = await deps.summaries.set(actorOf(ctx), { time: cmd.time, days: cmd.days });
  await ctx.reply({ text: summaryStatusText(status, true) });
  await publishHome(deps, ctx.teamId, ctx.userId);
};

/** `/care summary off` */
export const summaryOff: CommandHandler<'summary-off'> = async (_cmd, ctx, deps) => {
  if (await toldToLink(ctx, deps)) return;
  const wasOn = await deps.summaries.turnOff(actorOf(ctx));
  await ctx.reply({
    text: wasOn
      ? 'Your morning summary is off. `/care summary on` turns it back on at the same time.'
      : 'Your morning summary was not on. `/care summary 07:30` turns it on (any time; every day unless you add `weekdays`).',
  });
  if (wasOn) await publishHome(deps, ctx.teamId, ctx.userId);
};
