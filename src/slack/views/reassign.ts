/** Reassign work (admins): the pick, the confirmation that counts what moves, its progress and result, and the summary DMs. Pure. */
import type { types } from '@slack/bolt';
import type { OutgoingMessage } from '../../services/notices/delivery.js';
import type { MovedAction, ReassignOutcome, ReassignPlan, ReassignScope, ReassignSummary, RotaPerson, UndoOffer } from '../../services/reassign/reassign.js';
import { CallbackIds, FIELD_ACTION_ID as V, FieldIds } from '../ids.js';
import { escapeMrkdwn } from '../text.js';
import { context, plainText, section } from './blocks.js';
import { undoOfferBlocks } from './reassign-undo.js';

const TITLE = 'Reassign work';
/** Action numbers named in one sentence before "and N more". */
const NAMED = 30;

const who = (p: RotaPerson) => (p.slackUserId ? `<@${p.slackUserId}>` : escapeMrkdwn(p.name));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const numbered = (a: MovedAction) => (a.no ? `#${a.no}` : `\`${a.id}\``);

export const SCOPE_WORDS: Record<ReassignScope, string> = {
  all: 'All their open actions',
  today: 'Overdue and due today',
  overdue: 'Overdue only',
};
const scopeOption = (scope: ReassignScope) => ({ text: plainText(SCOPE_WORDS[scope], 75), value: scope });

/** Opened from the Team view: whose work is fixed; the admin picks who gets it (anyone on the rota) and which of it. */
export function reassignPickModal(from: RotaPerson, privateMetadata: string): types.ModalView {
  return {
    type: 'modal',
    callback_id: CallbackIds.reassignPick,
    title: plainText(TITLE, 24),
    submit: plainText('Next', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(
        `Move open actions of *${escapeMrkdwn(from.name)}*${from.slackUserId ? ` (<@${from.slackUserId}>)` : ''} to someone else. You see what moves before anything does.`,
      ),
      {
        type: 'input',
        block_id: FieldIds.assignee,
        label: plainText('Move them to', 2000),
        element: { type: 'external_select', action_id: V, min_query_length: 0, placeholder: plainText('Anyone on the rota') },
      },
      {
        type: 'input',
        block_id: FieldIds.reassignScope,
        label: plainText('Which', 2000),
        element: { type: 'radio_buttons', action_id: V, options: (['all', 'today', 'overdue'] as const).map(scopeOption), initial_option: scopeOption('all') },
      },
    ],
  };
}

/** "Move 25 open actions from Amelia Hughes to Ben Whitaker? 3 overdue, 5 due today, 17 later." */
export function reassignQuestion(plan: ReassignPlan): string {
  const split = [`${plan.overdue} overdue`, `${plan.today} due today`, ...(plan.later ? [`${plan.later} due later`] : [])].join(', ');
  return `Move ${plural(plan.total, 'open action')} from ${who(plan.from)} to ${who(plan.to)}? ${split}.`;
}

export function reassignConfirmModal(plan: ReassignPlan, privateMetadata: string): types.ModalView {
  const notes = [
    plan.capped ? `Only the first ${plan.total} are moved this time; run it again for the rest.` : '',
    plan.to.slackUserId ? '' : `${escapeMrkdwn(plan.to.name)} is not in Slack: they will see the work in the care system.`,
    'Each person affected who is in Slack gets one message saying what moved.',
  ].filter(Boolean);
  return {
    type: 'modal',
    callback_id: CallbackIds.reassignConfirm,
    title: plainText(TITLE, 24),
    submit: plainText(`Move ${plan.total}`, 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [section(reassignQuestion(plan)), context(notes.join(' '))],
  };
}

/** Nothing to move: said plainly, with nothing to submit. */
export function nothingToMoveText(from: RotaPerson, scope: ReassignScope): string {
  const which = scope === 'all' ? 'no open actions' : scope === 'today' ? 'nothing overdue or due today' : 'nothing overdue';
  return `${who(from)} has ${which} in the care system, so there is nothing to move.`;
}

export function reassignProgressModal(plan: ReassignPlan, done: number): types.ModalView {
  return {
    type: 'modal',
    callback_id: CallbackIds.reassignConfirm,
    title: plainText(TITLE, 24),
    close: plainText('Close', 24),
    blocks: [
      section(`:hourglass_flowing_sand: Moving ${plan.total} from ${who(plan.from)} to ${who(plan.to)}: moved ${done} of ${plan.total}…`),
      context('It carries on if you close this; you are told the result.'),
    ],
  };
}

/** "23 moved; 2 could not be moved: #1042 (deleted in the care system), …" */
export function reassignResultText(plan: ReassignPlan, outcome: ReassignOutcome): string {
  const moved = outcome.moved.length;
  const head = `${moved} moved from ${who(plan.from)} to ${who(plan.to)}`;
  if (!outcome.failed.length) return `:white_check_mark: ${head}; all ${moved} done.`;
  const named = outcome.failed.slice(0, NAMED).map((f) => `${numbered(f)} (${f.why})`);
  const more = outcome.failed.length > NAMED ? `, and ${outcome.failed.length - NAMED} more` : '';
  return `:warning: ${head}; ${plural(outcome.failed.length, 'could not be moved', 'could not be moved')}: ${named.join(', ')}${more}.`;
}

/**
 * The admin's result DM when a run ends: who from and to, what moved (by number), what could not and why,
 * what the run left for another (more than one run moves), and Undo while its window lasts.
 */
export function reassignResultMessage(plan: ReassignPlan, outcome: ReassignOutcome, undo: UndoOffer | null, timezone: string): OutgoingMessage {
  const text = `Reassigned work: ${outcome.moved.length} moved, ${outcome.failed.length} could not be moved.`;
  const n = outcome.moved.length;
  const listed = n ? `Moved: ${outcome.moved.slice(0, NAMED).map(numbered).join(', ')}${n > NAMED ? `, and ${n - NAMED} more` : ''}.` : '';
  const skipped = plan.capped ? `Not in this run: their open actions after the first ${plan.total}; run it again for the rest.` : '';
  return {
    text,
    blocks: [
      section(`:arrows_counterclockwise: ${reassignResultText(plan, outcome)}`),
      ...(listed || skipped ? [context([listed, skipped].filter(Boolean).join(' '))] : []),
      ...(undo ? undoOfferBlocks(plan, n, undo, timezone) : []),
    ],
  };
}

export function reassignResultModal(plan: ReassignPlan, outcome: ReassignOutcome): types.ModalView {
  const notes = [
    plan.to.slackUserId ? '' : `${escapeMrkdwn(plan.to.name)} is not in Slack: they see the work in the care system.`,
    outcome.moved.length ? 'The result is in your DMs too, with Undo.' : '',
  ].filter(Boolean);
  return {
    type: 'modal',
    callback_id: CallbackIds.reassignConfirm,
    title: plainText(TITLE, 24),
    close: plainText('Close', 24),
    blocks: [section(reassignResultText(plan, outcome)), ...(notes.length ? [context(notes.join(' '))] : [])],
  };
}

/** The one DM to a person whose work moved (or who received it). `text` names no resident and no task. */
export function reassignSummaryMessage(s: ReassignSummary): OutgoingMessage {
  const n = s.moved.length;
  const listed = s.moved.slice(0, NAMED).map(numbered).join(', ') + (n > NAMED ? `, and ${n - NAMED} more` : '');
  const back = s.back ? ' back' : '';
  const text =
    s.reader === 'from'
      ? `<@${s.by}> moved ${plural(n, 'of your open actions', 'of your open actions')}${back} to ${who(s.to)}${s.back ? ' (an Undo of a reassignment)' : ''}.`
      : `<@${s.by}> moved ${plural(n, 'open action')}${back} from ${who(s.from)} to you${s.back ? ' (an Undo of a reassignment)' : ''}.`;
  const where = s.reader === 'to' ? 'They are in `/care mine` and on your Home tab.' : 'They are no longer yours.';
  return { text, blocks: [section(`:arrows_counterclockwise: ${text}`), section(listed), context(where)] };
}
