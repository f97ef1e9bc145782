/**
 * The one error type the store throws on purpose. `message` is a sentence a
 * person starting the app can act on; it never contains a password.
 */
export type StoreErrorCode =
  /** DATABASE_URL / DATA_DIR / schema name is not usable as given. */
  | 'bad-config'
  /** The database could not be reached or opened (host/port or file path in the message). */
  | 'unreachable'
  /** The database was migrated by a newer build than this one. */
  | 'schema-too-new'
  /** A migration failed; nothing of that migration was kept. */
  | 'migration-failed'
  /** A caller passed something the store will not keep (bad HH:MM, unknown time zone, ...). */
  | 'invalid-input'
  /** The store was closed. */
  | 'closed'
  /** A write would break a rule of the data: a care user linked to a second Slack person in one workspace. */
  | 'care-user-taken'
  /** A workspace's store was asked to write a row of another workspace (src/store/workspace-store.ts). */
  | 'other-workspace'
  /** A token or secret was to be stored or read, but the store was opened without a key ring (ENCRYPTION_KEY). */
  | 'encryption-key-missing'
  /** An erasure would have taken a Care Actions admin's rights away, and was not allowed to (store/person-data.ts). */
  | 'person-is-admin'
  /** A stored token or secret does not open with the key ring: its key is not in ENCRYPTION_KEY, or the value was changed. */
  | 'secret-unreadable';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isStoreError(value: unknown, code?: StoreErrorCode): value is StoreError {
  return value instanceof StoreError && (code === undefined || value.code === code);
}
