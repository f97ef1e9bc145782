import type { CommandHandler } from '../../deps.js';
import { openThenFill } from '../modal-flow.js';
import { confirmationView, REASSIGN_TITLE } from '../../reassign-flow.js';

const NOT_ADMIN = 'Only admins can reassign someone’s work. Ask a workspace admin to do it (`/care admins` lists them).';

/**
 * `/care reassign <person> to <person> [overdue|today|all]` (admins): a modal
 * opens at once ("Loading…"), then asks "Move 25 open actions from … to …?"
 * with the counts; a name that finds no one (or several) is said there in one
 * sentence. Nothing moves before the admin confirms.
 */
export const reassign: CommandHandler<'reassign'> = async (cmd, ctx, deps) => {
  const admin = { userId: ctx.userId };
  if (!(await deps.identity.isAdmin(admin))) {
    await ctx.reply({ text: NOT_ADMIN });
    return;
  }
  const flow = { triggerId: ctx.triggerId, title: REASSIGN_TITLE, log: 'could not ask about a reassignment', onOpened: ctx.answeredElsewhere };
  await openThenFill(deps, flow, async () => {
    const [from, to] = await Promise.all([deps.reassign.person(cmd.from), deps.reassign.person(cmd.to)]);
    return confirmationView(deps, ctx.teamId, admin, from, to, cmd.scope);
  });
};
