import { z } from 'zod';
import type { EditRestore, UndoableKind } from '../../services/actions/undo-change.js';
import { ActionIds, CARE_ID } from '../ids.js';
import type { SignedMetadata } from './signed-metadata.js';

/** How long after a Complete, Reopen, Snooze or Edit on a channel post its Undo works. */
export const UNDO_WINDOW_MS = 5 * 60_000;

export type UndoKind = UndoableKind;

/** What an Undo button undoes: which change, of which action, made by whom, until when, and what it left. */
export interface UndoGrant {
  actionId: string;
  /** The change to undo (Undo of a Complete reopens; of a Reopen completes; of a Snooze puts the due time back; of an Edit, the fields it changed). */
  kind: UndoKind;
  /** The Slack user who made the change: the only one whose Undo click is taken. */
  by: string;
  /** Unix ms after which Undo answers that it is too late. */
  expiresAt: number;
  /** The action's `modified` right after the change: a later one means someone changed it since (then Undo is refused). */
  after: string;
  /** Snooze only: the due time before it (the care API's text; null when it had none). */
  previousDue?: string | null;
  /** Snooze only: it brought the due time forward (the post says "Due moved earlier" after the Undo too). */
  earlier?: boolean;
  /** Edit only: the fields it changed, as they were before. */
  previous?: EditRestore;
}

const Meta = z.object({
  a: z.string().regex(CARE_ID),
  k: z.enum(['complete', 'reopen', 'snooze', 'edit']),
  x: z.number().int().positive(),
  m: z.string().max(64),
  p: z.string().max(64).nullable().optional(),
  f: z.literal(1).optional(),
  e: z.object({ a: z.string().regex(CARE_ID).nullable().optional(), d: z.string().max(64).nullable().optional(), u: z.boolean().optional() }).optional(),
});

const sealEdit = (p: EditRestore) => ({
  ...('assignee' in p ? { a: p.assignee ?? null } : {}),
  ...('due' in p ? { d: p.due ?? null } : {}),
  ...('urgent' in p ? { u: Boolean(p.urgent) } : {}),
});
const readEdit = (e: NonNullable<z.infer<typeof Meta>['e']>): EditRestore => ({
  ...(e.a !== undefined ? { assignee: e.a } : {}),
  ...(e.d !== undefined ? { due: e.d } : {}),
  ...(e.u !== undefined ? { urgent: e.u } : {}),
});
const USER = /^[UW][A-Z0-9]+$/;

/**
 * An Undo button's value: `<by>:<sealed>`, where the seal (signed-metadata.ts,
 * the form `care_undo`, issued to `by` in this team) covers the action Id, the
 * kind, the expiry and what the action looked like after the change. Anyone can
 * read a button's value in Slack's payload; nobody can make one for another
 * action, kind, person, time or state.
 */
export function undoValue(signed: SignedMetadata, teamId: string, grant: UndoGrant): string {
  const meta = {
    a: grant.actionId,
    k: grant.kind,
    x: Math.ceil(grant.expiresAt / 1000),
    m: grant.after,
    ...(grant.kind === 'snooze' ? { p: grant.previousDue ?? null, ...(grant.earlier ? { f: 1 } : {}) } : {}),
    ...(grant.kind === 'edit' ? { e: sealEdit(grant.previous ?? {}) } : {}),
  };
  return `${grant.by}:${signed.encode(meta, { teamId, userId: grant.by, form: ActionIds.undo })}`;
}

/**
 * The grant in an Undo button's value, or null when it was not issued by this
 * app (forged, garbled, or from before it carried the action's state) or its
 * seal has lapsed (a day; see signed-metadata.ts). An expired window is still
 * read, so the clicker can be told it is too late.
 */
export function readUndoValue(signed: SignedMetadata, teamId: string, value: string | undefined): UndoGrant | null {
  const at = value?.indexOf(':') ?? -1;
  if (!value || at <= 0) return null;
  const by = value.slice(0, at);
  if (!USER.test(by)) return null;
  const meta = Meta.safeParse(signed.decode(value.slice(at + 1), { teamId, userId: by, form: ActionIds.undo }));
  if (!meta.success) return null;
  const { a, k, x, m, p, f, e } = meta.data;
  if (k === 'edit' && !e) return null;
  return {
    actionId: a,
    kind: k,
    by,
    expiresAt: x * 1000,
    after: m,
    ...(k === 'snooze' ? { previousDue: p ?? null, ...(f ? { earlier: true } : {}) } : {}),
    ...(k === 'edit' && e ? { previous: readEdit(e) } : {}),
  };
}
