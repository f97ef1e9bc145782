/**
 * The thin dialect layer. Entity files write one SQL text with `?`
 * placeholders that means the same on SQLite and PostgreSQL (upserts with
 * ON CONFLICT, RETURNING, conditional UPDATEs); this layer binds parameters,
 * turns rows into plain objects and runs transactions.
 */
import type { KeyRing } from '../crypto/key-ring.js';

export type Dialect = 'sqlite' | 'postgres';

/** What may be bound to a `?`. Booleans become 1/0 on SQLite. */
export type Param = string | number | boolean | null;

export type Row = Record<string, unknown>;

export interface Db {
  readonly kind: Dialect;
  /** All rows of a query (SELECT, or a write with RETURNING). */
  all<R extends Row = Row>(sql: string, params?: readonly Param[]): Promise<R[]>;
  /** The first row, or undefined. */
  get<R extends Row = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined>;
  /** A write without RETURNING; resolves to the number of rows changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
  /**
   * Run `fn` in one transaction (BEGIN IMMEDIATE on SQLite). On SQLite other
   * callers of the same store wait until it ends; nested calls join the outer one.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * After an erasure has committed: leave no copy of what it deleted or overwrote in the database's own files,
   * as far as the database can do it while running. SQLite (which zeroes freed space as it goes: secure_delete)
   * copies its write-ahead log into the main file and truncates the log to nothing. PostgreSQL does nothing here:
   * its old row versions go with `VACUUM FULL`, which the deployer runs (docs/data-protection.md). Resolves to
   * false when it could not be done now (another connection kept reading the log, or called inside a transaction).
   */
  clearErased(): Promise<boolean>;
  close(): Promise<void>;
}

/** Everything an entity function needs: the db, the store's clocks and its key ring. */
export interface Ctx {
  readonly db: Db;
  /** Encrypts and decrypts tokens and secrets at rest; absent = the store keeps none (single-workspace mode). */
  readonly keyRing?: KeyRing | undefined;
  /** The app's clock: when something was done (links, requests, subscriptions, routes, audit). */
  readonly now: () => number;
  /** Tests only: claims and leases read this instead of the database's clock (see shared-clock.ts). */
  readonly sharedClock?: (() => number) | undefined;
}

/** Same context over another Db (a transaction). */
export function withDb(ctx: Ctx, db: Db): Ctx {
  return { ...ctx, db };
}

// ---- row value helpers (SQLite and pg return different JS types) ----

export function str(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

export function strOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : str(value);
}

/** INTEGER (SQLite) or BIGINT (pg, parsed to number by our type parser). */
export function num(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

/** 0/1 (SQLite) or true/false (pg BOOLEAN). */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** TEXT holding JSON (SQLite) or JSONB already parsed by pg. */
export function json(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  return value;
}
