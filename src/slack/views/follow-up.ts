import type { ActionView, RenderContext } from '../../services/action-model.js';
import type { FollowUpInfo } from '../../services/renderers.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, actionBlockId, followUpValue } from '../ids.js';
import { taskText } from '../text.js';
import { actionLabel, assigneeText, completedByText, plainLabel } from './action-card.js';
import { actions, button, confirmDialog, context, section, type Block } from './blocks.js';
import { urgentAlert } from './notices.js';

const time = (d: Date, tz: string) => slackDate(d, tz, '{time}');

/** What the follow-up DM says under its headline, as it stands now (null: its buttons are shown). */
function standing(a: ActionView, ctx: RenderContext, info: FollowUpInfo): string | null {
  const s = info.state;
  switch (s.kind) {
    case 'open':
      return null;
    case 'still-on-it':
      return `:ok_hand: You said you are still on it at ${time(s.at, ctx.timezone)}. If it is still open at ${time(s.until, ctx.timezone)}, the seniors on shift are told.`;
    case 'handed-back':
      return `:leftwards_arrow_with_hook: You handed it back at ${time(s.at, ctx.timezone)}: it is unassigned and the channel was alerted again.`;
    case 'completed':
      return `:white_check_mark: It was completed ${completedByText(a)}${a.completed ? ` ${slackDate(a.completed, ctx.timezone)}` : ''}: nothing more to do.`;
    case 'not-urgent':
      return ':information_source: It is no longer urgent: nothing more to do here.';
    case 'moved':
      return `:arrow_right: It is with ${assigneeText(a)} now: nothing more to do here.`;
  }
}

/**
 * The follow-up DM to whoever holds a taken urgent action still open: "Still open: #301", since when they hold
 * it, its due time and task (a DM: the task is shown), and Done / Still on it / Hand back (asks first). Drawn
 * again as the action and the answers change: once it is completed, not urgent or with someone else, it says so
 * and its buttons go; after Still on it, that button goes. The `text` fallback carries no task text. Pure.
 */
export function followUpMessage(a: ActionView, ctx: RenderContext, info: FollowUpInfo): { text: string; blocks: Block[] } {
  const label = actionLabel(a);
  const text = `Still open: urgent action ${label}`;
  const held = info.via === 'acknowledged' ? 'you said you are on it' : 'you took it';
  const due = `due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}`;
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const head = section(`:hourglass_flowing_sand: *${text}* · ${held} at ${time(info.heldSince, ctx.timezone)} · ${due} · ${assigneeText(a)}${task}`, {
    block_id: actionBlockId('alert', a.id),
  });
  const now = standing(a, ctx, info);
  const value = followUpValue(a.id, info.ref);
  const open = info.state.kind === 'open' || info.state.kind === 'still-on-it';
  const buttons = open
    ? [
        actions(actionBlockId('card', a.id), [
          button('Done', ActionIds.followUpDone, value, 'primary'),
          ...(info.state.kind === 'open' ? [button('Still on it', ActionIds.followUpStillOnIt, value)] : []),
          button(
            'Hand back',
            ActionIds.followUpHandBack,
            value,
            'danger',
            confirmDialog(
              `Hand back ${plainLabel(a)}?`,
              `Action ${plainLabel(a)} will be unassigned in the care system and the channel alerted again, so someone else can take it.`,
              'Hand back',
            ),
          ),
        ]),
      ]
    : [];
  const after = info.state.kind === 'open' ? [context('If it is still open later, the seniors on shift are told.')] : [];
  return { text, blocks: [head, ...(now ? [context(now)] : []), ...buttons, ...after] };
}

/** The urgent alert posted again after its holder handed it back: the alert as it is now, and who handed it back when. Pure. */
export function handBackAlert(a: ActionView, ctx: RenderContext, handed: { by: string; at: Date }): { text: string; blocks: Block[] } {
  const alert = urgentAlert(a, ctx);
  const line = context(`:leftwards_arrow_with_hook: Handed back by <@${handed.by}> at ${time(handed.at, ctx.timezone)}: it needs someone to take it.`);
  return { text: `${alert.text}: handed back`, blocks: [...alert.blocks, line] };
}
