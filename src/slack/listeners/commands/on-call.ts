import { onCallMessage } from '../../views/on-call.js';
import type { CommandHandler } from '../../deps.js';

/** `/care oncall`: who's on now and who is on each open urgent action, as a private answer (anyone linked). */
export const onCall: CommandHandler<'oncall'> = async (_cmd, ctx, deps) => {
  if (!deps.onCall) {
    await ctx.reply({ text: 'Who’s on now is not available in this deployment.' });
    return;
  }
  const now = await deps.onCall.now({ userId: ctx.userId });
  // The person's own view: the task text shows, as in `/care mine`.
  await ctx.reply(onCallMessage(now, { now: deps.now(), timezone: await deps.profiles.tz(ctx.userId), showTask: true }));
};
