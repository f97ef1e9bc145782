import type { EscalationInfo, EscalationLine, EscalationSkip } from '../../services/renderers.js';
import { isOverdue, type ActionView, type RenderContext } from '../../services/action-model.js';
import { slackDate } from '../../time/slack-date.js';
import { actionBlockId, BlockIds, isActionBlock } from '../ids.js';
import { taskText, userText } from '../text.js';
import { actionLabel, assigneeText, cardButtons, takeItButton } from './action-card.js';
import { offerTakeNote } from './note-menu.js';
import { context, section, type Block } from './blocks.js';
import { withAnswerBlocks } from './episode-answers.js';
import { urgentAlert } from './notices.js';

const at = (l: EscalationLine, tz: string) => slackDate(l.at, tz, '{time}');
const people = (ids: readonly string[]) => ids.map((u) => `<@${u}>`).join(', ');
const channels = (ids: readonly string[]) => ids.map((c) => `<#${c}>`).join(', ');
const whom = (l: Pick<EscalationLine, 'step'>, ids: readonly string[]) => (l.step === 'seniors' ? people(ids) : channels(ids));
const shiftName = (shift: string) => userText(shift, 40);
const STEP_NAMES = { thread: 'reminder in the alert’s thread', seniors: 'DMs to the seniors', managers: 'managers’ post' } as const;

/** Why a step reached nobody, in words ("no seniors are named for the Night shift"). Pure. */
export function skipText(skip: EscalationSkip): string {
  if (skip.reason === 'no-seniors') return `no seniors are named for the ${shiftName(skip.shift)} shift`;
  if (skip.reason === 'no-managers-channel') return 'no managers’ channel is set';
  return userText(skip.words, 200);
}

/** " (could not reach @b)" for those a step was meant for but Slack refused. */
const unreachedText = (l: EscalationLine) => (l.unreached?.length ? ` (could not reach ${whom(l, l.unreached)})` : '');

/** Why a step of a resumed ladder ran, before its words ("Still open after the follow-up: …"). */
const againText = (l: Pick<EscalationLine, 'again'>) =>
  l.again === 'followup' ? 'Still open after the follow-up: ' : l.again === 'hand-back' ? 'Handed back: ' : '';
/** " (2 of 3)" after a repeat of the last step. */
const ofText = (l: Pick<EscalationLine, 'repeat'>) => (l.repeat ? ` (${l.repeat.n} of ${l.repeat.of})` : '');
/** "again " before the time of a repeat. */
const again = (l: Pick<EscalationLine, 'repeat'>) => (l.repeat ? 'again ' : '');

/**
 * One step as the alert shows it: whom it reached, or why nobody; a step of a resumed ladder says why it ran, a
 * repeat says "again" and which of how many. Pure.
 */
export function escalationLineText(l: EscalationLine, tz: string): string {
  return `${againText(l)}${stepLineText(l, `${again(l)}at ${at(l, tz)}`)}${ofText(l)}`;
}

/** `atWhen`: "at 10:32", or "again at 11:15". */
function stepLineText(l: EscalationLine, atWhen: string): string {
  if (l.skipped) {
    const what = l.step === 'seniors' ? 'Nobody DMed' : l.step === 'managers' ? 'Managers not told' : 'No reminder';
    return `${what} ${atWhen}: ${skipText(l.skipped)}`;
  }
  if (!l.to.length) return `${l.step === 'thread' ? 'Reminder' : 'Escalation'} could not be sent ${atWhen}${unreachedText(l)}`;
  if (l.step === 'thread') return `Reminder sent in thread ${atWhen}${unreachedText(l)}`;
  return `Escalated to ${whom(l, l.to)} ${atWhen}${unreachedText(l)}`;
}

/** One step as History says it (the time follows on the line): whom it reached, or why nobody; a repeat says which. Pure. */
export function historyStepText(l: EscalationLine): string {
  return `${againText(l)}${historyLineText(l)}${l.repeat ? `, again (${l.repeat.n} of ${l.repeat.of})` : ''}`;
}

function historyLineText(l: EscalationLine): string {
  if (l.skipped)
    return l.step === 'seniors'
      ? `Escalation: nobody DMed, ${skipText(l.skipped)}`
      : l.step === 'managers'
        ? `Escalation: managers not told, ${skipText(l.skipped)}`
        : `Escalation: no reminder, ${skipText(l.skipped)}`;
  const missed = unreachedText(l);
  if (!l.to.length) return `Escalation: the ${STEP_NAMES[l.step]} could not be sent${missed}`;
  if (l.step === 'thread') return `Escalated: reminder in the alert thread in ${channels(l.to)}${missed}`;
  if (l.step === 'seniors') return `Escalated to ${people(l.to)} (DM, the seniors ${l.shift ? `of the ${shiftName(l.shift)} shift` : 'on shift'})${missed}`;
  return `Escalated to ${channels(l.to)} (the managers’ channel)${missed}`;
}

/** One earlier step as a later step's post tells it ("no seniors are named for the Night shift, so nobody was DMed"). Pure. */
export function earlierStepText(l: EscalationLine, tz: string): string {
  const atWhen = `${again(l)}at ${at(l, tz)}${ofText(l)}`;
  if (l.skipped)
    return l.step === 'seniors'
      ? `${skipText(l.skipped)}, so nobody was DMed`
      : l.step === 'managers'
        ? `${skipText(l.skipped)}, so the managers were not told`
        : `no reminder was sent: ${skipText(l.skipped)}`;
  if (!l.to.length) return `the ${STEP_NAMES[l.step]} could not be sent`;
  if (l.step === 'thread') return `a reminder went to the alert’s thread in ${channels(l.to)} ${atWhen}`;
  if (l.step === 'seniors') {
    const one = l.to.length === 1;
    const who = `the senior${one ? '' : 's'} ${l.shift ? `of the ${shiftName(l.shift)} shift` : 'on shift'}`;
    return `${who} (${people(l.to)}) ${one ? 'was' : 'were'} DMed ${atWhen}${unreachedText(l)}`;
  }
  return `${channels(l.to)} was told ${atWhen}`;
}

const idOf = (b: unknown) => (b as { block_id?: unknown })?.block_id;

/**
 * The urgent alert with a context line of the escalation steps taken so far, after its buttons. Given the
 * post's `current` blocks, only that line is replaced or added (everything else stays as Slack holds it);
 * without them (or when they no longer show the alert), the alert is drawn afresh.
 */
export function escalatedAlert(a: ActionView, ctx: RenderContext, lines: EscalationLine[], current?: unknown[]): { text: string; blocks: Block[] } {
  const alert = urgentAlert(a, ctx);
  const line: Block[] = lines.length
    ? [{ ...context(`:bell: ${lines.map((l) => escalationLineText(l, ctx.timezone)).join(' · ')}`), block_id: BlockIds.escalated(a.id) }]
    : [];
  const kept = (current ?? []).filter((b) => idOf(b) !== BlockIds.escalated(a.id)) as Block[];
  const at = kept.findIndex((b) => isActionBlock(idOf(b) as string | undefined, 'alert', a.id));
  // The answers' blocks (who is on it; I'm on it / I can't) come after the line.
  if (at < 0) return withAnswerBlocks({ text: alert.text, blocks: [...alert.blocks, ...line] }, a, ctx);
  const after = at + (isActionBlock(idOf(kept[at + 1]) as string | undefined, 'card', a.id) ? 2 : 1);
  const drawn = { text: alert.text, blocks: [...kept.slice(0, after), ...line, ...kept.slice(after)].slice(0, 50) };
  // The answers as they are now (when known), else as the post holds them.
  return ctx.answers ? withAnswerBlocks(drawn, a, ctx) : drawn;
}

/** What became of the alert so far, as a step's post says it. */
const answerText = (info: Pick<EscalationInfo, 'again'>) =>
  info.again === 'followup'
    ? 'it was taken but is still open, and its follow-up had no answer.'
    : info.again === 'hand-back'
      ? 'it was taken, then handed back, and nobody has taken it since.'
      : 'nobody has taken it yet.';

const minutes = (n: number) => (n === 1 ? '1 minute' : n < 120 ? `${n} minutes` : `${Math.floor(n / 60)} h ${n % 60} min`);

/**
 * What an escalation step posts: in the alert's thread a short reminder; to a
 * senior (DM) or the managers' channel the action's number, due time,
 * location, how long it has gone unanswered, Take it and the link, and what
 * the steps before it did as they were recorded (whom they reached, or why
 * nobody), never a guess from the settings. Task text
 * only where `ctx.showTask` allows; the `text` fallback names no resident and
 * carries no task text.
 */
export function escalationMessage(a: ActionView, ctx: RenderContext, info: EscalationInfo): { text: string; blocks: Block[] } {
  return withAnswerBlocks(escalationPost(a, ctx, info), a, ctx);
}

function escalationPost(a: ActionView, ctx: RenderContext, info: EscalationInfo): { text: string; blocks: Block[] } {
  const label = actionLabel(a);
  const waited = minutes(info.unansweredMinutes);
  const n = info.repeat ? ` (${info.repeat.n} of ${info.repeat.of})` : '';
  if (info.step === 'thread') {
    const text = `Reminder${info.repeat ? ` again${n}` : ''}: urgent action ${label} has had no answer for ${waited}.`;
    return { text, blocks: [section(`:bell: ${text} Can someone take it? Use *Take it* on the alert above.`)] };
  }
  const text = `Escalated${info.repeat ? ` again${n}` : ''}: urgent action ${label}, unanswered for ${waited}`;
  const overdue = isOverdue(a, ctx.now) ? ' · :warning: *Overdue*' : '';
  const where = info.location ? ` · ${userText(info.location, 80)}` : '';
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const first = (info.before ?? []).map((l) => earlierStepText(l, ctx.timezone));
  const why = [
    info.step === 'seniors'
      ? `You are told as a senior on ${info.shift ? `the ${shiftName(info.shift)} shift` : 'shift'}: ${answerText(info)}`
      : `The managers’ channel is told: ${answerText(info).replace(' yet', '')}`,
    ...(first.length ? [`Before this: ${first.join('; then ')}.`] : []),
  ].join(' ');
  const buttons = cardButtons(a, ctx);
  if (!a.completed) offerTakeNote(buttons, a).elements.splice(ctx.shared ? 1 : 0, 0, takeItButton(a));
  return {
    text,
    blocks: [
      section(
        `:rotating_light: *Urgent action ${label}* · unanswered for ${waited}${overdue} · due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}${where} · ${assigneeText(a)}${task}`,
        { block_id: actionBlockId('alert', a.id) },
      ),
      buttons,
      context(why),
    ],
  };
}
