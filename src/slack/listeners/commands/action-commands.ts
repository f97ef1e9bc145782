import type { Command } from '../../commands/parse.js';
import type { CommandContext, SlackDeps } from '../../deps.js';
import { UserFacingError } from '../../../services/errors.js';
import { localParts } from '../../../time/zones.js';
import { refreshHomes } from '../../home.js';
import { actionCard } from '../../views/action-card.js';
import { renderActionGroups } from '../../views/action-list.js';
import { actionModal } from '../../views/action-modal.js';
import { section } from '../../views/blocks.js';
import { notLinkedBlocks } from '../../views/help.js';
import { plain } from '../../text.js';

const WINDOW_TITLES = { today: 'Due today', tomorrow: 'Due tomorrow', week: 'Due in the next 7 days', overdue: 'Overdue' } as const;

/** new, mine, due, show, done, reopen, find. Returns false for other commands. */
export async function handleActionCommand(cmd: Command, ctx: CommandContext, deps: SlackDeps): Promise<boolean> {
  const actor = { teamId: ctx.teamId, userId: ctx.userId };
  switch (cmd.kind) {
    case 'new': {
      if (!(await deps.identity.getLink(actor))) {
        await ctx.reply({ text: 'Link your care account first: /care link', blocks: notLinkedBlocks() });
        return true;
      }
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      const today = localParts(deps.now(), tz).date;
      await deps.slack.views.open({
        trigger_id: ctx.triggerId,
        view: actionModal({ mode: 'create', tz, channelId: ctx.channelId }, { task: plain(cmd.task, 3000), dueDate: today }),
      });
      return true;
    }
    case 'mine':
    case 'due': {
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      const now = deps.now();
      const render = { now, timezone: tz, showTask: true };
      if (cmd.kind === 'mine') {
        const link = await deps.identity.requireLink(actor);
        const groups = await deps.actions.mine(actor, link.careUserId, now, tz);
        const list = renderActionGroups(groups, render, { maxBlocks: 49, buttons: 'full', emptyText: ':tada: Nothing open for you in the next 7 days.' });
        await ctx.reply({ text: 'Your open actions', blocks: [section('*Your open actions*'), ...list.blocks] });
        return true;
      }
      const whoId = cmd.slackUserId ?? ctx.userId;
      const link = await deps.identity.getLink({ teamId: ctx.teamId, userId: whoId });
      if (!link) {
        throw new UserFacingError(
          whoId === ctx.userId ? 'Link your care account first: `/care link`.' : `<@${whoId}> has not linked a care account, so I cannot tell what is theirs.`,
          'not-linked',
        );
      }
      const views = await deps.actions.due(actor, link.careUserId, cmd.window, now, tz);
      const who = whoId === ctx.userId ? 'you' : `<@${whoId}>`;
      const list = renderActionGroups([{ label: `${WINDOW_TITLES[cmd.window]} for ${who}`, actions: views }], render, {
        maxBlocks: 50,
        buttons: 'full',
        emptyText: `Nothing open ${cmd.window === 'overdue' ? 'is overdue' : WINDOW_TITLES[cmd.window].toLowerCase()} for ${who}.`,
      });
      await ctx.reply({ text: `${WINDOW_TITLES[cmd.window]} for ${who}`, blocks: list.blocks });
      return true;
    }
    case 'show': {
      const action = await deps.actions.resolve(cmd.ref);
      const [view] = await deps.actions.views([action], ctx.teamId);
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      await ctx.reply({ text: `Action ${action.action_no ?? action._id}`, blocks: actionCard(view!, { now: deps.now(), timezone: tz, showTask: true }) });
      return true;
    }
    case 'done':
    case 'reopen': {
      await deps.identity.requireLink(actor);
      const action = await deps.actions.resolve(cmd.ref);
      const result = cmd.kind === 'done' ? await deps.actions.complete(actor, action._id) : await deps.actions.reopen(actor, action._id);
      const [view] = await deps.actions.views([result.action], ctx.teamId);
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      const note = result.changed
        ? cmd.kind === 'done' ? ':white_check_mark: Completed.' : ':arrows_counterclockwise: Reopened.'
        : cmd.kind === 'done' ? 'It was already complete.' : 'It was already open.';
      await ctx.reply({ text: note, blocks: [section(note), ...actionCard(view!, { now: deps.now(), timezone: tz, showTask: true })] });
      if (result.changed) await refreshHomes(deps, ctx.teamId, [ctx.userId, view!.assignee?.slackUserId]);
      return true;
    }
    case 'find': {
      const views = await deps.actions.find(actor, cmd.words);
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      const open = views.filter((v) => !v.completed);
      const done = views.filter((v) => v.completed);
      const list = renderActionGroups(
        [
          { label: 'Open', actions: open },
          { label: 'Complete', actions: done },
        ],
        { now: deps.now(), timezone: tz, showTask: true },
        { maxBlocks: 50, buttons: 'complete', emptyText: 'No actions match those words.' },
      );
      await ctx.reply({ text: 'Search results', blocks: list.blocks });
      return true;
    }
    default:
      return false;
  }
}
