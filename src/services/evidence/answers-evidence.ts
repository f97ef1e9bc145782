/**
 * The answers to an action's urgent episodes as the evidence file says them (issue 33), pure:
 * - the **Answers** cell (always in the file): one line per answer, oldest first, with when (the workspace
 *   zone's wall clock with its offset), who (their Slack name) and what: "on it", "can't" with the reason's
 *   words (a fixed list: no resident detail), "joined"; an undone one says when it was undone. Never the note.
 * - the **Staff** cell of a two-person action: "2 of 2: Priya Shah, Sam Okafor" (empty for other actions).
 * - the answers' notes, for the Notes column (only with `--with-tasks`: a note may name a resident).
 */
import type { EpisodeAnswer } from '../../store/index.js';
import { isoWithOffset } from '../../time/iso-offset.js';
import { CANT_REASONS, isCantReason } from '../urgent/answer-policy.js';
import type { EvidenceAnswer, EvidenceNote, EvidenceStaff } from './evidence-rows.js';

export type { EvidenceAnswer, EvidenceStaff };

/** The stored answers as the file says them (`nameOf`: a Slack user's name), oldest first. */
export function evidenceAnswers(answers: readonly EpisodeAnswer[], nameOf: (slackUserId: string) => string): EvidenceAnswer[] {
  return [...answers]
    .sort((a, b) => a.at - b.at || a.id - b.id)
    .map((a) => ({
      at: a.at,
      by: nameOf(a.slackUserId),
      answer: a.answer,
      ...(a.doerSlackUserId && a.doerSlackUserId !== a.slackUserId ? { doer: nameOf(a.doerSlackUserId) } : {}),
      ...(a.answer === 'cant' ? { reason: a.reason } : {}),
      undoneAt: a.undoneAt,
    }));
}

function answerWords(a: EvidenceAnswer): string {
  if (a.answer === 'cant') return `can't${a.reason && isCantReason(a.reason) ? ` (${CANT_REASONS[a.reason]})` : ''}`;
  if (a.answer === 'join') return 'joined';
  return a.doer ? `said ${a.doer} is on it` : 'on it';
}

/** The Answers cell: "2027-06-15T10:04:00+01:00 Priya Shah: on it", one line each, oldest first. */
export function answersCell(answers: readonly EvidenceAnswer[], tz: string): string {
  return answers
    .map((a) => {
      const undone = a.undoneAt !== null ? ` (undone ${isoWithOffset(a.undoneAt, tz)})` : '';
      return `${isoWithOffset(a.at, tz)} ${a.by}: ${answerWords(a)}${undone}`;
    })
    .join('\n');
}

/** The Staff cell: "2 of 2: Priya Shah, Sam Okafor" for a two-person action ("0 of 2" when nobody); empty otherwise. */
export function staffCell(staff: EvidenceStaff | null | undefined): string {
  if (!staff) return '';
  return `${staff.names.length} of ${staff.needed}${staff.names.length ? `: ${staff.names.join(', ')}` : ''}`;
}

/** The notes written with answers, for the Notes column (only with task text): who, when, with what. */
export function answerNotes(answers: readonly EpisodeAnswer[], nameOf: (slackUserId: string) => string): EvidenceNote[] {
  return answers.flatMap((a) => (a.note ? [{ at: a.at, by: nameOf(a.slackUserId), verb: a.answer, text: a.note }] : []));
}
