import type { CommandHandler } from '../../deps.js';

/**
 * `/care settings two-staff [<tag Ids>|off]` (admins: which care system tags mean two staff) and
 * `/care two-staff <no> on|off` (anyone linked: mark one action in the app). A two-person action's alert
 * keeps asking until two people answered (services/urgent/answer-policy.ts).
 */
export const twoStaff: CommandHandler<'two-staff'> = async (cmd, ctx, deps) => {
  const actor = { userId: ctx.userId };
  const c = cmd.command;
  if (c.kind === 'two-staff-tags') {
    if (c.tags === undefined) {
      await deps.identity.requireAdmin(actor);
      const tags = await deps.answers.twoStaffTags();
      await ctx.reply({
        text: tags.length ? `Actions tagged ${tags.map((t) => `\`${t}\``).join(', ')} need two staff.` : 'No care system tag means two staff.',
      });
      return;
    }
    const tags = await deps.answers.setTwoStaffTags(actor, c.tags);
    await ctx.reply({
      text: tags.length
        ? `Two staff set: actions tagged ${tags.map((t) => `\`${t}\``).join(', ')} need two people.`
        : 'Two staff set: no care system tag means two staff.',
    });
    return;
  }
  await deps.identity.requireLink(actor);
  const action = await deps.actions.resolve(c.ref);
  await deps.answers.setTwoStaff(actor, action._id, c.on);
  const label = action.action_no ? `#${action.action_no}` : 'The action';
  await ctx.reply({ text: c.on ? `${label} needs two staff: its urgent alert keeps asking until two people answer.` : `${label} no longer needs two staff.` });
};
