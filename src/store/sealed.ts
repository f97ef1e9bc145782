/**
 * Tokens and secrets in columns: sealed with the store's key ring on the way
 * in, opened on the way out. Each value is bound to its table, column and row
 * (the secret box's context), so a value copied to another row does not open.
 */
import type { KeyRing } from '../crypto/key-ring.js';
import { isCurrent, open, SecretBoxError, seal } from '../crypto/secret-box.js';
import type { Ctx } from './db.js';
import { StoreError } from './errors.js';

export interface Column {
  table: string;
  column: string;
  /** The row's key (e.g. `team:T123`, a workspace Id). */
  row: string;
}

const context = (c: Column) => `${c.table}.${c.column}:${c.row}`;

/** The store's key ring, or a clear error naming what needed it. */
export function ringOf(ctx: Ctx, what: string): KeyRing {
  if (!ctx.keyRing) {
    throw new StoreError(
      'encryption-key-missing',
      `${what} needs ENCRYPTION_KEY: tokens and secrets are only stored encrypted. Set it (openssl rand -base64 32) and start again.`,
    );
  }
  return ctx.keyRing;
}

export function sealValue(ring: KeyRing, where: Column, value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : seal(ring, value, context(where));
}

/** Open a stored value; a value that does not open is a StoreError naming the row and column, never the value. */
export function openValue(ring: KeyRing, where: Column, box: unknown): string | null {
  if (box === null || box === undefined) return null;
  try {
    return open(ring, String(box), context(where));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    throw new StoreError('secret-unreadable', `The stored ${where.column} of ${where.table} ${where.row} cannot be read: ${error.message}`);
  }
}

/**
 * Re-seal under the ring's primary key: the new text, or null when there is
 * nothing to do (no value, or already under the primary key). The value is
 * opened either way, so one that does not open is reported.
 */
export function resealValue(ring: KeyRing, where: Column, box: unknown): string | null {
  if (box === null || box === undefined) return null;
  const text = String(box);
  const value = openValue(ring, where, text) as string;
  return isCurrent(ring, text) ? null : seal(ring, value, context(where));
}
