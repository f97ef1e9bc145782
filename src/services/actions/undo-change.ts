/**
 * Undo of a change made on a channel post (a Complete, a Reopen, a Snooze, an Edit):
 * once only, and only while the action is still as that change left it.
 *
 * - Spent once used: each Undo is a one-time key in the store (the same memory
 *   that refuses replayed Slack requests), so a second click, on this instance
 *   or another, is refused, also while the first is still under way.
 * - Refused once the action changed since: the care system's `modified` right
 *   after the change travels (sealed) with the Undo; a later one means someone
 *   changed it since, and undoing would undo their change too.
 *
 * A refused or failed Undo gives its key back, so it can be tried again.
 */
import { createHash } from 'node:crypto';
import type { Action, CareClient } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import type { Actor } from '../people/identity.js';
import { UserFacingError } from '../errors.js';

/** The changes a channel post's Undo can reverse. */
export type UndoableKind = 'complete' | 'reopen' | 'snooze' | 'edit';

/**
 * What an Edit's Undo puts back: only the fields it changed, as they were before (the assignee's care
 * user Id, the due time as the care API's text, urgency); a field left out stays as it is now.
 */
export interface EditRestore {
  assignee?: string | null;
  due?: string | null;
  urgent?: boolean;
}

export interface UndoRequest {
  actionId: string;
  kind: UndoableKind;
  /** The action's `modified` right after the change it undoes. */
  after: string;
  /** Snooze: the due time before it (the care API's text; null: it had none). */
  previousDue?: string | null | undefined;
  /** Edit: the fields it changed, as they were before. */
  previous?: EditRestore | undefined;
  /** Unix ms until which this Undo works: its key is remembered that long (and a minute more). */
  expiresAt: number;
}

export type UndoOutcome =
  /** Put back as it was before the change. */
  | { kind: 'undone'; action: Action }
  /** This Undo was used already (here or on another instance). */
  | { kind: 'spent' }
  /** The action changed since the change: nothing was undone; `action` is how it is now. */
  | { kind: 'changed'; action: Action };

/** The changes Undo makes: the opposite of each kind, through the actions service (audit, notices). */
export interface UndoMoves {
  complete(actor: Actor, id: string): Promise<{ action: Action; changed: boolean }>;
  reopen(actor: Actor, id: string): Promise<{ action: Action; changed: boolean }>;
  /** The due time put back after a snooze (told to the assignee as an undone snooze). */
  unsnooze(actor: Actor, id: string, due: Date): Promise<{ action: Action; changed: boolean }>;
  /** The fields an Edit changed put back (its assignee, old and new, told as for any edit). */
  unedit(actor: Actor, id: string, previous: EditRestore): Promise<{ action: Action; changed: boolean }>;
}

const KEY_MARGIN_MS = 60_000;

/** The one-time key of an Undo: its workspace, its person, and the change it undoes. */
function spendKey(what: readonly string[]): string {
  return `undo:${createHash('sha256').update(what.join('|')).digest('hex')}`;
}

/** Whether the action is no longer as the change left it. */
function changedSince(current: Action, request: UndoRequest): boolean {
  if ((current.modified ?? '') !== request.after) return true;
  if (request.kind === 'complete') return !current.completed;
  if (request.kind === 'reopen') return Boolean(current.completed);
  if (request.kind === 'edit') return false;
  return Boolean(current.completed);
}

export async function undoChange(
  deps: {
    care: CareClient;
    store: Pick<WorkspaceStore, 'markRequestSeen' | 'forgetRequestSeen'>;
    moves: UndoMoves;
    now: () => Date;
    /** The workspace it undoes in (bound at composition). */
    teamId: () => Promise<string>;
  },
  actor: Actor,
  request: UndoRequest,
): Promise<UndoOutcome> {
  const previousDue = request.kind === 'snooze' ? parseApiDateTime(request.previousDue) : null;
  if (request.kind === 'snooze' && !previousDue)
    throw new UserFacingError('It had no due time before the snooze, and the care system needs one: use Edit on its card to set the time you want.', 'invalid');
  if (request.kind === 'edit' && !request.previous) throw new UserFacingError('This Undo does not say what to put back: use Edit on its card.', 'invalid');
  const key = spendKey([await deps.teamId(), actor.userId, request.actionId, request.kind, request.after]);
  const now = deps.now().getTime();
  if (!(await deps.store.markRequestSeen(key, { now, expiresAt: Math.max(request.expiresAt, now) + KEY_MARGIN_MS }))) return { kind: 'spent' };
  try {
    const current = await deps.care.actions.retrieve(request.actionId);
    if (changedSince(current, request)) {
      await deps.store.forgetRequestSeen(key);
      return { kind: 'changed', action: current };
    }
    const result =
      request.kind === 'complete'
        ? await deps.moves.reopen(actor, request.actionId)
        : request.kind === 'reopen'
          ? await deps.moves.complete(actor, request.actionId)
          : request.kind === 'snooze'
            ? await deps.moves.unsnooze(actor, request.actionId, previousDue!)
            : await deps.moves.unedit(actor, request.actionId, request.previous!);
    if (result.changed) return { kind: 'undone', action: result.action };
    await deps.store.forgetRequestSeen(key);
    return { kind: 'changed', action: result.action };
  } catch (err) {
    await deps.store.forgetRequestSeen(key).catch(() => undefined);
    throw err;
  }
}
