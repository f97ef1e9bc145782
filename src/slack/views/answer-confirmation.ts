/**
 * What the person who answered an urgent post is told, privately (issue 33): what was recorded, with their
 * own note (only they see it here), and Undo for a few minutes; or why nothing was. Pure.
 */
import type { ActionView } from '../../services/action-model.js';
import type { EpisodeAnswerKind } from '../../store/index.js';
import { ActionIds } from '../ids.js';
import { userText } from '../text.js';
import { actionLabel } from './action-card.js';
import { button, section, type Block } from './blocks.js';

const SAID: Record<EpisodeAnswerKind, string> = {
  'on-it': 'You’re on it',
  cant: 'Noted that you can’t',
  join: 'You joined: you’re the second person on it',
};

export function answerConfirmation(
  a: ActionView,
  answer: EpisodeAnswerKind | null,
  outcome: 'recorded' | 'already' | 'not-asking',
  extra: { note: string | null; undo: { value: string; minutes: number } | null },
): { text: string; blocks: Block[] } {
  const label = actionLabel(a);
  if (outcome === 'not-asking') {
    const text = `Urgent action ${label} is not asking for anyone now (completed, no longer urgent, or its alert ended): nothing was recorded.`;
    return { text, blocks: [section(text)] };
  }
  if (outcome === 'already' || !answer) {
    const text = `You already answered urgent action ${label} that way; nothing changed.`;
    return { text, blocks: [section(text)] };
  }
  const text = `${SAID[answer]}: urgent action ${label}.`;
  const note = extra.note ? `\nYour note (not posted in any channel): ${userText(extra.note, 400)}` : '';
  const undo = extra.undo ? ` · Undo (for ${extra.undo.minutes} minutes)` : '';
  return {
    text,
    blocks: [
      section(
        `${answer === 'cant' ? ':no_entry_sign:' : ':raising_hand:'} ${text}${undo}${note}`,
        extra.undo ? { accessory: button('Undo', ActionIds.answerUndo, extra.undo.value) } : {},
      ),
    ],
  };
}
