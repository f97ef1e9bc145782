import { slackDate } from '../../../time/slack-date.js';
import type { CommandContext, CommandHandler } from '../../deps.js';

const adminOf = (ctx: CommandContext) => ({ userId: ctx.userId });

/** `/care handover here [--show-tasks [--public]]` */
export const handoverHere: CommandHandler<'handover-here'> = async (cmd, ctx, deps) => {
  const result = await deps.handovers.setHere(adminOf(ctx), { channelId: ctx.channelId, showTasks: cmd.showTasks, publicConfirmed: cmd.publicConfirmed });
  if (result.kind === 'not-member') {
    await ctx.reply({ text: 'I am not in this channel, so I could not post its handovers. Invite me first (`/invite @Care Actions`), then try again.' });
    return;
  }
  const privacy = result.showTasks
    ? result.isPrivate
      ? 'Task text is shown (private channel, as you asked).'
      : 'Task text is shown: this is a public channel, so everyone in the workspace, guests included, can read it.'
    : result.publicPending
      ? 'Task text stays hidden: this is a public channel, which everyone in the workspace, guests included, can read. To show it anyway, type `/care handover here --show-tasks --public`.'
      : 'Task text is hidden here; numbers, due times and assignees only (`--show-tasks` shows it).';
  await ctx.reply({
    text: `Handovers set for this channel: one post at each shift change, with *Accept handover* for the incoming senior. Next: ${result.next.name} at ${slackDate(result.next.startsAt, deps.timezone)}. ${privacy}`,
  });
};

/** `/care handover off` */
export const handoverOff: CommandHandler<'handover-off'> = async (_cmd, ctx, deps) => {
  const removed = await deps.handovers.off(adminOf(ctx), ctx.channelId);
  await ctx.reply({
    text: removed ? 'This channel will get no more handovers.' : 'This channel had no handovers to stop. `/care handover list` shows which channels have them.',
  });
};

/** `/care handover list` */
export const handoverList: CommandHandler<'handover-list'> = async (_cmd, ctx, deps) => {
  const list = await deps.handovers.list(adminOf(ctx));
  await ctx.reply({
    text: list.length
      ? list
          .map(
            (c) =>
              `<#${c.channelId}>: at each shift change${c.showTasks && (c.channelPrivate || c.publicConfirmed) ? ', task text shown' : ''}, set by <@${c.setUpBy}>`,
          )
          .join('\n')
      : 'No channel gets handovers yet. `/care handover here` sets one up.',
  });
};
