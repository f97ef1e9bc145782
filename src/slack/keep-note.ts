import type { ActionNotes, NoteVerb } from '../services/actions/action-notes.js';
import type { Logger } from '../logging/logger.js';
import type { Actor } from '../services/people/identity.js';

/** What became of a note given with a Complete or Take it. */
export type NoteKept = 'kept' | 'not-yours' | 'failed';

/**
 * A note given with a change, kept when the change was this person's (`changed`): a change that did not happen
 * (already complete, someone else's) keeps no note. Never throws: the change stands whatever becomes of its note.
 */
export async function keepNote(
  deps: { notes: Pick<ActionNotes, 'addNote'>; logger: Logger },
  actor: Actor,
  result: { action: { _id: string }; changed: boolean },
  text: string,
  verb: NoteVerb,
): Promise<NoteKept> {
  if (!result.changed) return 'not-yours';
  try {
    await deps.notes.addNote(actor, { actionId: result.action._id, verb, text });
    return 'kept';
  } catch (err) {
    // The error's kind only: a database's message may quote the row, and a note is task text.
    deps.logger.warn('could not keep a note', { actionId: result.action._id, error: err instanceof Error ? err.name : 'unknown' });
    return 'failed';
  }
}

/** The sentence that says it (after the change's own). */
export const NOTE_KEPT_TEXT: Record<NoteKept, string> = {
  kept: 'Your note is kept with it, in its History.',
  'not-yours': 'Your note was not kept: a note goes with your own change.',
  failed: 'Your note could not be kept (the app’s database did not answer).',
};
