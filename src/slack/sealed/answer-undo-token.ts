/**
 * The Undo of an answer to an urgent episode ("I'm on it", "I can't", "Join"): its button's value is
 * `<by>:<sealed>`, the seal (signed-metadata.ts, form `care_answer_undo`, issued to `by` in this team) covering
 * the action and the answer's row. Nobody can make one for another answer or person.
 */
import { z } from 'zod';
import { ActionIds, CARE_ID } from '../ids.js';
import type { SignedMetadata } from './signed-metadata.js';

const Meta = z.object({ a: z.string().regex(CARE_ID), i: z.number().int().positive() });
const USER = /^[UW][A-Z0-9]+$/;

export function answerUndoValue(signed: SignedMetadata, teamId: string, by: string, actionId: string, answerId: number): string {
  return `${by}:${signed.encode({ a: actionId, i: answerId }, { teamId, userId: by, form: ActionIds.answerUndo })}`;
}

/** The answer an Undo button names, with who gave it; null when it was not issued by this app (or its seal lapsed). */
export function readAnswerUndo(signed: SignedMetadata, teamId: string, value: string | undefined): { by: string; actionId: string; answerId: number } | null {
  const at = value?.indexOf(':') ?? -1;
  if (!value || at <= 0) return null;
  const by = value.slice(0, at);
  if (!USER.test(by)) return null;
  const meta = Meta.safeParse(signed.decode(value.slice(at + 1), { teamId, userId: by, form: ActionIds.answerUndo }));
  return meta.success ? { by, actionId: meta.data.a, answerId: meta.data.i } : null;
}
