/**
 * Notes on actions (issue 33): a short note a person adds when they complete or take an action (`/care done 301
 * gave 2 tablets`, "Complete with note…" on a card). The care API has no notes endpoint: the app is the only
 * place they live. Written once, never edited (evidence); shown in History and in the evidence export with
 * `--with-tasks`, never in a channel post (a note may name a resident). Other features call `addNote` with
 * their own verb (`on-it`, `cant`…).
 */
import type { ActionNote, WorkspaceStore } from '../../store/index.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';

/** The longest note kept (characters, after trimming): a short note, not a care record. */
export const NOTE_MAX = 500;

/** What a note went with. Completing and taking here; others may add theirs (a string in the store). */
export type NoteVerb = 'complete' | 'take' | (string & {});

/** Pure: the note as kept (trimmed, control characters but line ends made spaces), or why it cannot be. */
export function checkNote(raw: string): { ok: true; text: string } | { ok: false; message: string } {
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, ' ')
    .trim();
  if (!text) return { ok: false, message: 'The note is empty: write a few words, or complete without one.' };
  const length = Array.from(text).length;
  if (length > NOTE_MAX) return { ok: false, message: `The note is ${length} characters long; keep it to ${NOTE_MAX}. Nothing was changed.` };
  return { ok: true, text };
}

export interface ActionNotes {
  /** Keep a note by this person on this action (they must be linked). Throws UserFacingError for an empty or long note. */
  addNote(actor: Actor, note: { actionId: string; verb: NoteVerb; text: string }): Promise<ActionNote>;
  /** The action's notes, oldest first. */
  notesOf(actionId: string): Promise<ActionNote[]>;
  /** Several actions' notes (the evidence export), oldest first. */
  notesOfMany(actionIds: readonly string[]): Promise<ActionNote[]>;
}

export function createActionNotes(deps: { store: Pick<WorkspaceStore, 'addNote' | 'listNotes'>; identity: Pick<IdentityService, 'getLink'> }): ActionNotes {
  return {
    async addNote(actor, note) {
      const checked = checkNote(note.text);
      if (!checked.ok) throw new UserFacingError(checked.message, 'invalid');
      const link = await deps.identity.getLink(actor);
      return deps.store.addNote({
        actionId: note.actionId,
        verb: note.verb,
        slackUserId: actor.userId,
        careUserId: link?.careUserId ?? null,
        text: checked.text,
      });
    },
    notesOf: (actionId) => deps.store.listNotes([actionId]),
    notesOfMany: (actionIds) => (actionIds.length ? deps.store.listNotes(actionIds) : Promise.resolve([])),
  };
}
