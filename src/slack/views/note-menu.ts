/**
 * Notes with a Complete or a Take it (issue 33), on cards and alerts: a "⋯" menu beside the buttons with
 * "Complete with note…" (and "Take it with note…" where Take it is offered), and the note's form. Complete and
 * Take it stay one click; the menu is the way to add words. The form says where the note goes (History and the
 * evidence export, never a channel); on a channel post it is also the question asked first. Pure.
 */
import type { types } from '@slack/bolt';
import { NOTE_MAX } from '../../services/actions/action-notes.js';
import type { ActionView } from '../../services/action-model.js';
import { ActionIds, CallbackIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { cutId } from '../cut.js';
import { context, plainText, section } from './blocks.js';

export type NoteMove = 'complete' | 'take';

const OPTION = { complete: 'Complete with note…', take: 'Take it with note…' } as const;

/** An option of the menu: `<move>:<action Id>`. */
export const noteOptionValue = (move: NoteMove, actionId: string) => `${move}:${actionId}`;

export function parseNoteOption(value: string | undefined): { move: NoteMove; actionId: string } | null {
  const m = /^(complete|take):([0-9a-f]{24})$/.exec(value ?? '');
  return m ? { move: m[1] as NoteMove, actionId: m[2]! } : null;
}

const option = (move: NoteMove, a: ActionView) => ({ text: plainText(OPTION[move], 75), value: cutId(noteOptionValue(move, a.id), 150) });

/** The "⋯" menu of an open action's card: Complete with note… (no menu once complete). */
export function noteMenu(a: ActionView): types.Overflow {
  return { type: 'overflow', action_id: ActionIds.noteMenu, options: [option('complete', a)] };
}

/** Where an alert offers Take it, its menu offers Take it with note… too (a block without the menu is left as it is). */
export function offerTakeNote(block: types.ActionsBlock, a: ActionView): types.ActionsBlock {
  for (const el of block.elements) {
    if (el.type === 'overflow' && el.action_id === ActionIds.noteMenu && !el.options.some((o) => o.value === noteOptionValue('take', a.id)))
      el.options.push(option('take', a));
  }
  return block;
}

/** What the note's form carries (sealed): the action, the move, the zone, the card to update, and whom it was shown as assigned to. */
export interface NoteMeta {
  actionId: string;
  move: NoteMove;
  tz: string;
  /** The assignee's care user Id when the form opened (a Take it shown on an action nobody had takes it only if still nobody's). */
  shownAssignee: string | null;
  origin?: { channel: string; ts?: string | undefined; threadTs?: string | undefined; responseUrl?: string | undefined; blockId?: string | undefined };
}

export const NOTE_TITLE = { complete: 'Complete with note', take: 'Take it with note' } as const;

/**
 * The note's form. `label` is the action's number (mrkdwn), `assignee` who has it now (mrkdwn, null: nobody);
 * `shared`: opened from a channel post (everyone there sees the change, not the note).
 */
export function noteModal(privateMetadata: string, shown: { move: NoteMove; label: string; assignee: string | null; shared: boolean }): types.ModalView {
  const whose = shown.assignee ? `, assigned to ${shown.assignee}` : ' (assigned to nobody)';
  const question =
    shown.move === 'complete'
      ? `Complete action *${shown.label}*${whose}, with a note?`
      : shown.assignee
        ? `Action *${shown.label}* is assigned to ${shown.assignee}. Take it yourself, with a note? They will be told.`
        : `Take action *${shown.label}* (assigned to nobody), with a note?`;
  const where = `The note is kept by Care Actions with your name and the time, in the action’s History and in the evidence export with task text. It is never posted in a channel, and it is not sent to the care system.`;
  const everyone = shown.shared
    ? ` Everyone in this channel will see that you ${shown.move === 'complete' ? 'completed' : 'took'} it (not your note)${shown.move === 'complete' ? ', with Undo for a few minutes' : ''}.`
    : '';
  return {
    type: 'modal',
    callback_id: CallbackIds.noteModal,
    title: plainText(NOTE_TITLE[shown.move], 24),
    submit: plainText(shown.move === 'complete' ? 'Complete' : 'Take it', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(question),
      {
        type: 'input',
        block_id: FieldIds.note,
        label: plainText('Note'),
        element: {
          type: 'plain_text_input',
          action_id: FIELD_ACTION_ID,
          multiline: true,
          max_length: NOTE_MAX,
          placeholder: plainText(shown.move === 'complete' ? 'What was done, e.g. gave 2 tablets at 10:05, GP told' : 'What you will do, or when'),
        },
        hint: plainText(`Up to ${NOTE_MAX} characters.`),
      },
      context(`${where}${everyone}`),
    ],
  };
}
