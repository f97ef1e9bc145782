/**
 * The two modals of an urgent post's answers (issue 33): "I'm on it" asks first (and, for an action nobody
 * is assigned, who is doing it, optionally), "I can't" asks why (a short list) — each with an optional short
 * note, which is kept for History, the person's DMs and the evidence export, never posted in a channel. Pure.
 */
import type { types } from '@slack/bolt';
import { ANSWER_NOTE_MAX, CANT_REASONS } from '../../services/urgent/answer-policy.js';
import { CallbackIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { userText } from '../text.js';
import { context, plainText, section } from './blocks.js';

export const ON_IT_TITLE = 'I’m on it';
export const CANT_TITLE = 'I can’t';
const NOTE_HINT = 'Only you, History and the evidence export see this note; it is never posted in a channel.';

const noteInput = (): types.InputBlock => ({
  type: 'input',
  block_id: FieldIds.answerNote,
  optional: true,
  // Slack adds "(optional)" after an optional input's label itself: "Note (optional) (optional)" otherwise.
  label: plainText('Note'),
  hint: plainText(NOTE_HINT),
  element: { type: 'plain_text_input', action_id: FIELD_ACTION_ID, multiline: true, max_length: ANSWER_NOTE_MAX },
});

/** "I'm on it — #301?": it stays with its assignee (named), or, when nobody has it, who is doing it. */
export function onItModal(sealed: string, shown: { label: string; assignee: string | null }): types.ModalView {
  const keeps = shown.assignee
    ? `It stays assigned to ${userText(shown.assignee, 80)}, who is told. Everyone who sees its posts sees that you are on it, and the escalation stops.`
    : 'Nobody is assigned to it. Everyone who sees its posts sees who is on it, and the escalation stops.';
  const blocks: types.KnownBlock[] = [section(`*Urgent action ${shown.label}*\n${keeps}`)];
  if (!shown.assignee)
    blocks.push({
      type: 'input',
      block_id: FieldIds.answerDoer,
      optional: true,
      label: plainText('Who is doing it? (leave empty: you)'),
      element: { type: 'users_select', action_id: FIELD_ACTION_ID, placeholder: plainText('Pick a person') },
    });
  blocks.push(noteInput(), context('You can undo this for 5 minutes.'));
  return {
    type: 'modal',
    callback_id: CallbackIds.onItModal,
    private_metadata: sealed,
    title: plainText(ON_IT_TITLE, 24),
    submit: plainText('I’m on it', 24),
    close: plainText('Cancel', 24),
    blocks,
  };
}

/** "I can't — #301": why, from a short list (its words may show on the post), and an optional note (never on a post). */
export function cantModal(sealed: string, shown: { label: string }): types.ModalView {
  return {
    type: 'modal',
    callback_id: CallbackIds.cantModal,
    private_metadata: sealed,
    title: plainText(CANT_TITLE, 24),
    submit: plainText('Send', 24),
    close: plainText('Cancel', 24),
    blocks: [
      section(
        `*Urgent action ${shown.label}*\nIts escalation moves on to the next step straight away (when it was sent to several people by DM: once they all can't).`,
      ),
      {
        type: 'input',
        block_id: FieldIds.cantReason,
        label: plainText('Why?'),
        element: {
          type: 'static_select',
          action_id: FIELD_ACTION_ID,
          placeholder: plainText('Pick a reason'),
          options: Object.entries(CANT_REASONS).map(([value, text]) => ({ text: plainText(text, 75), value })),
        },
      },
      noteInput(),
      context('The reason shows on the post; your note does not.'),
    ],
  };
}
