/**
 * The answers to an urgent episode on its posts (issue 33): a context line of who is on it and who can't
 * ("<@priya> is on it since 10:04 · <@sam> can't: with another resident"), a two-person action's count
 * ("1 of 2: <@priya> — need one more"), and the "I'm on it" / "I can't" / "Join" buttons while it needs
 * someone. A "can't" shows its reason's words only: the note someone wrote is never drawn here. Pure.
 */
import type { types } from '@slack/bolt';
import type { ActionView, AnswerLine, AnswersShown, RenderContext } from '../../services/action-model.js';
import { answerNoticeEnded, type AnswerNoticeState } from '../../services/urgent/answer-notice-state.js';
import { CANT_REASONS, isCantReason } from '../../services/urgent/answer-policy.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds } from '../ids.js';
import { actionCard, actionLabel, assigneeText, completedByText } from './action-card.js';
import { actions, button, confirmDialog, context, section, type Block } from './blocks.js';

const who = (id: string) => (id.startsWith('care:') ? 'the assignee' : `<@${id}>`);
const time = (at: Date, tz: string) => slackDate(at, tz, '{time}');

/** One answer as a post says it. Pure. */
export function answerLineText(l: AnswerLine, tz: string): string {
  if (l.answer === 'cant') return `${who(l.by)} can't${l.reason && isCantReason(l.reason) ? `: ${CANT_REASONS[l.reason]}` : ''} (${time(l.at, tz)})`;
  const doer = l.doer && l.doer !== l.by ? `${who(l.doer)} is on it since ${time(l.at, tz)} (said by ${who(l.by)})` : null;
  if (l.answer === 'join') return `${who(l.by)} joined at ${time(l.at, tz)}`;
  return doer ?? `${who(l.by)} is on it since ${time(l.at, tz)}`;
}

/**
 * A two-person action while it has fewer than two: "Needs two staff — nobody on it yet" before anyone answers (so
 * nobody goes alone), then "1 of 2: @priya — need one more"; null otherwise. Pure.
 */
export function staffCountText(shown: AnswersShown): string | null {
  if (shown.needed < 2 || shown.staff.length >= shown.needed) return null;
  if (shown.staff.length === 0) return `Needs ${shown.needed === 2 ? 'two' : shown.needed} staff — nobody on it yet`;
  const more = shown.needed - shown.staff.length;
  return `${shown.staff.length} of ${shown.needed}: ${shown.staff.map(who).join(', ')} — need ${more === 1 ? 'one more' : `${more} more`}`;
}

/** Whether the action still asks for someone (open, urgent, fewer on it than it needs). */
export function stillAsking(a: ActionView, shown: AnswersShown | undefined): boolean {
  if (a.completed || !a.urgent) return false;
  return !shown || shown.staff.length < shown.needed;
}

/** The buttons while it asks: "I'm on it" and "I can't"; a two-person action with one on it: "Join" instead of "I'm on it". */
export function answerButtons(a: ActionView, shown: AnswersShown | undefined): types.Button[] {
  if (!stillAsking(a, shown)) return [];
  const join = shown && shown.needed > 1 && shown.staff.length > 0;
  // Join changes shared care work at once: it asks first. "I'm on it" and "I can't" ask in their modals.
  const ask = confirmDialog(`Join urgent action ${actionLabel(a)}?`, 'You will be shown as the second person on it, and the alerts stop.', 'Join');
  return [
    join ? button('Join (I’ll be the second)', ActionIds.joinIn, a.id, 'primary', ask) : button('I’m on it', ActionIds.onIt, a.id),
    button('I can’t', ActionIds.cant, a.id),
  ];
}

/** The answers' blocks for a post about the action: its context line (when anyone answered) and its buttons (while it asks). */
export function answerBlocks(a: ActionView, ctx: Pick<RenderContext, 'timezone' | 'answers'>): Block[] {
  const shown = ctx.answers;
  // Told apart at a glance: how many staff (two-person work), who is on it, who can't.
  const count = shown ? staffCountText(shown) : null;
  const words = [
    ...(count ? [`:busts_in_silhouette: ${count}`] : []),
    ...(shown?.lines ?? []).map((l) => `${l.answer === 'cant' ? ':no_entry_sign:' : ':raising_hand:'} ${answerLineText(l, ctx.timezone)}`),
  ];
  const blocks: Block[] = [];
  // A context block holds 10 elements: the newest answers are kept when there are more.
  if (words.length) blocks.push({ ...context(...words.slice(-10)), block_id: BlockIds.answers(a.id) });
  const buttons = answerButtons(a, shown);
  if (buttons.length) blocks.push(actions(BlockIds.answerButtons(a.id), buttons));
  return blocks;
}

/** A message with its answers' blocks put in (replacing any it had), within Slack's 50 blocks. */
export function withAnswerBlocks<M extends { text: string; blocks: Block[] }>(message: M, a: ActionView, ctx: Pick<RenderContext, 'timezone' | 'answers'>): M {
  const ours = new Set([BlockIds.answers(a.id), BlockIds.answerButtons(a.id)]);
  const kept = message.blocks.filter((b) => !ours.has((b as { block_id?: string }).block_id ?? ''));
  return { ...message, blocks: [...kept, ...answerBlocks(a, ctx)].slice(0, 50) };
}

/** What the assignee's DM says under its headline once it is drawn again (null: still open and theirs). */
function noticeStanding(a: ActionView, ctx: RenderContext, state: AnswerNoticeState): string | null {
  switch (state.kind) {
    case 'open':
      return null;
    case 'undone':
      return `:leftwards_arrow_with_hook: That answer was undone at ${time(state.at, ctx.timezone)}.`;
    case 'completed':
      return `:white_check_mark: It was completed ${completedByText(a)}${a.completed ? ` ${slackDate(a.completed, ctx.timezone)}` : ''}: nothing more to do.`;
    case 'not-urgent':
      return ':information_source: It is no longer urgent: nothing more to do here.';
    case 'moved':
      return `:arrow_right: It is ${a.assignee ? `with ${assigneeText(a)} now` : 'assigned to nobody now'}, no longer to you: nothing more to do here.`;
  }
}

/**
 * The assignee's DM: someone else is on their urgent action, or joined it; the action's card below. No note.
 * Drawn again (post-redraw.ts) with `state`: once the action is completed, no longer urgent or no longer theirs
 * it says so and its buttons go; an undone answer is said so.
 */
export function answerNotice(a: ActionView, ctx: RenderContext, l: AnswerLine, state: AnswerNoticeState = { kind: 'open' }): { text: string; blocks: Block[] } {
  const label = actionLabel(a);
  const text = l.answer === 'join' ? `Someone joined your urgent action ${label}` : `Someone is on your urgent action ${label}; it stays assigned to you`;
  const stays = state.kind === 'open' || state.kind === 'undone' ? ' (it stays assigned to you)' : '';
  const now = noticeStanding(a, ctx, state);
  const card = actionCard(a, ctx);
  return {
    text,
    blocks: [
      section(`:raising_hand: ${answerLineText(l, ctx.timezone)}: urgent action *${label}*${stays}.`),
      ...(now ? [context(now)] : []),
      ...(answerNoticeEnded(state) ? card.filter((b) => b.type !== 'actions') : card),
    ],
  };
}
