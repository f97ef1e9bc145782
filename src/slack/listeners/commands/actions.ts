import type { ActionView } from '../../../services/action-model.js';
import { resolveWhere } from '../../../services/actions/list-where.js';
import type { CommandContext, CommandHandler, SlackDeps } from '../../deps.js';
import { refreshHomes } from '../../home-publisher.js';
import { keepNote, NOTE_KEPT_TEXT } from '../../keep-note.js';
import { renderCommandList } from '../../lists.js';
import { openCreateForm } from '../../forms/open-action-form.js';
import { actionCard } from '../../views/action-card.js';
import { section } from '../../views/blocks.js';
import { firstWordOf, readAsNewText } from '../../views/action-form-modal.js';
import { notLinkedBlocks } from '../../views/help.js';
import { nameProblemText } from '../../views/name-lookup.js';

const actorOf = (ctx: CommandContext) => ({ userId: ctx.userId });

async function replyWithCard(ctx: CommandContext, deps: SlackDeps, view: ActionView, note?: string): Promise<void> {
  const tz = await deps.profiles.tz(ctx.userId);
  const card = actionCard(view, { now: deps.now(), timezone: tz, showTask: true });
  await ctx.reply(note ? { text: note, blocks: [section(note), ...card] } : { text: `Action ${view.actionNo ?? view.id}`, blocks: card });
}

/**
 * `/care new [task]`: the create form (linked people only); a due phrase in the task ("tomorrow 3pm") fills the due time.
 * Words that are no sub-command come here too (`implied`), and the form (or the reply) says they were read as `/care new`.
 */
export const newAction: CommandHandler<'new'> = async (cmd, ctx, deps) => {
  if (!(await deps.identity.getLink(actorOf(ctx)))) {
    const readAs = cmd.implied ? `${readAsNewText(firstWordOf(cmd.task))} ` : '';
    await ctx.reply({ text: `${readAs}Link your care account first: /care link`, blocks: [...(readAs ? [section(readAs)] : []), ...notLinkedBlocks()] });
    return;
  }
  await openCreateForm(
    deps,
    ctx.triggerId,
    { teamId: ctx.teamId, ...actorOf(ctx) },
    {
      channelId: ctx.channelId,
      task: cmd.task,
      dueFromTask: true,
      onOpened: ctx.answeredElsewhere,
      readAsNew: cmd.implied === true,
    },
  );
};

/** `/care mine [location <name>|resident <Id>]` */
export const mine: CommandHandler<'mine'> = async (cmd, ctx, deps) => {
  const where = cmd.where ? await resolveWhere(deps.directory, cmd.where) : undefined;
  await ctx.reply(await renderCommandList(deps, actorOf(ctx), { kind: 'mine', ...(where ? { where } : {}) }, await deps.profiles.tz(ctx.userId)));
};

/** `/care due [window] [@person]`: the person as a mention, or `@name` looked up in the workspace. */
export const due: CommandHandler<'due'> = async (cmd, ctx, deps) => {
  await deps.identity.requireLink(actorOf(ctx));
  let slackUserId = cmd.slackUserId ?? ctx.userId;
  if (cmd.personName) {
    const found = await deps.names.person({ type: 'name', name: cmd.personName });
    if (found.kind !== 'found') {
      await ctx.reply({ text: nameProblemText({ kind: 'person-name', lookup: found }) });
      return;
    }
    slackUserId = found.match.id;
  }
  const where = cmd.where ? await resolveWhere(deps.directory, cmd.where) : undefined;
  const source = { kind: 'due' as const, window: cmd.window, slackUserId, ...(where ? { where } : {}) };
  await ctx.reply(await renderCommandList(deps, actorOf(ctx), source, await deps.profiles.tz(ctx.userId)));
};

/** `/care find <words>` */
export const find: CommandHandler<'find'> = async (cmd, ctx, deps) => {
  await deps.identity.requireLink(actorOf(ctx));
  await ctx.reply(await renderCommandList(deps, actorOf(ctx), { kind: 'find', words: cmd.words }, await deps.profiles.tz(ctx.userId)));
};

/** `/care show <no or Id>`: reading care data needs a care account too (a workspace may hold people who have none). */
export const show: CommandHandler<'show'> = async (cmd, ctx, deps) => {
  await deps.identity.requireLink(actorOf(ctx));
  const action = await deps.actions.resolve(cmd.ref);
  const [view] = await deps.actions.views([action]);
  await replyWithCard(ctx, deps, view!);
};

/** `/care done <no or Id> [note]` and `/care reopen <no or Id>`: a note is kept with this person's own completion only. */
export const doneOrReopen: CommandHandler<'done' | 'reopen'> = async (cmd, ctx, deps) => {
  const actor = actorOf(ctx);
  await deps.identity.requireLink(actor);
  const action = await deps.actions.resolve(cmd.ref);
  const done = cmd.kind === 'done';
  const result = done ? await deps.actions.complete(actor, action._id) : await deps.actions.reopen(actor, action._id);
  const [view] = await deps.actions.views([result.action]);
  const kept = done && cmd.note !== undefined ? ` ${NOTE_KEPT_TEXT[await keepNote(deps, actor, result, cmd.note, 'complete')]}` : '';
  const note = result.changed
    ? done
      ? `:white_check_mark: Completed.${kept}`
      : ':arrows_counterclockwise: Reopened.'
    : done
      ? `It was already complete.${kept}`
      : 'It was already open.';
  await replyWithCard(ctx, deps, view!, note);
  if (result.changed) await refreshHomes(deps, ctx.teamId, [ctx.userId, view!.assignee?.slackUserId]);
};
