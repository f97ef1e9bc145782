import type { Command } from '../../commands/parse.js';
import type { CommandContext, SlackDeps } from '../../deps.js';
import { localParts } from '../../../time/zones.js';
import { refreshHomes } from '../../home.js';
import { actionCard } from '../../views/action-card.js';
import { renderCommandList, type ListSource } from '../../lists.js';
import { actionModal } from '../../views/action-modal.js';
import { section } from '../../views/blocks.js';
import { notLinkedBlocks } from '../../views/help.js';
import { plain } from '../../text.js';

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
      if (cmd.kind === 'due') await deps.identity.requireLink(actor);
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      const source: ListSource = cmd.kind === 'mine' ? { kind: 'mine' } : { kind: 'due', window: cmd.window, slackUserId: cmd.slackUserId ?? ctx.userId };
      await ctx.reply(await renderCommandList(deps, actor, source, tz));
      return true;
    }
    case 'show': {
      // Reading care data needs a care account too: a Slack workspace may hold people who have none.
      await deps.identity.requireLink(actor);
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
        ? cmd.kind === 'done'
          ? ':white_check_mark: Completed.'
          : ':arrows_counterclockwise: Reopened.'
        : cmd.kind === 'done'
          ? 'It was already complete.'
          : 'It was already open.';
      await ctx.reply({ text: note, blocks: [section(note), ...actionCard(view!, { now: deps.now(), timezone: tz, showTask: true })] });
      if (result.changed) await refreshHomes(deps, ctx.teamId, [ctx.userId, view!.assignee?.slackUserId]);
      return true;
    }
    case 'find': {
      await deps.identity.requireLink(actor);
      const tz = (await deps.profiles.get(ctx.userId)).tz;
      await ctx.reply(await renderCommandList(deps, actor, { kind: 'find', words: cmd.words }, tz));
      return true;
    }
    default:
      return false;
  }
}
