import { createHmac } from 'node:crypto';

/** AES-256 keys are 32 bytes. */
export const KEY_BYTES = 32;

/** One encryption key: its bytes and a short public fingerprint that names it in ciphertexts. */
export interface EncryptionKey {
  /** 8 base64url characters (48 bits of HMAC-SHA256 over a fixed label): names the key, reveals nothing of it. */
  readonly id: string;
  readonly bytes: Buffer;
}

/** Thrown for an unusable ENCRYPTION_KEY; the message names the position of the key, never its value. */
export class KeyRingError extends Error {
  override readonly name = 'KeyRingError';
}

const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL = /^[A-Za-z0-9_-]{43}=?$/;

/** The key's fingerprint: HMAC-SHA256(key, label), first 6 bytes, base64url. */
export function keyIdOf(bytes: Buffer): string {
  return createHmac('sha256', bytes).update('care-actions-slack/key-id/v1').digest().subarray(0, 6).toString('base64url');
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** 32 bytes from 64 hex digits or from base64 / base64url (43 characters, or 44 with one `=`). */
function decodeKey(text: string, position: number): Buffer {
  if (HEX.test(text)) return Buffer.from(text, 'hex');
  if (BASE64.test(text)) return Buffer.from(text, 'base64');
  if (BASE64URL.test(text)) return Buffer.from(text, 'base64url');
  throw new KeyRingError(
    `The ${ordinal(position)} key in ENCRYPTION_KEY is not 32 bytes written as 64 hex digits or as base64 (44 characters); ` +
      `it is ${text.length} characters long. Make one with: openssl rand -base64 32`,
  );
}

/**
 * The keys that protect secrets at rest. The first (primary) encrypts; every
 * key decrypts, so a key is rotated by putting a new one first and keeping
 * the old one after it until the stored rows are re-encrypted.
 */
export class KeyRing {
  readonly keys: readonly EncryptionKey[];
  private readonly byId: ReadonlyMap<string, EncryptionKey>;

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new KeyRingError('ENCRYPTION_KEY holds no key.');
    this.keys = keys.map((bytes, i) => {
      if (bytes.length !== KEY_BYTES) throw new KeyRingError(`The ${ordinal(i + 1)} key is ${bytes.length} bytes; AES-256 needs ${KEY_BYTES}.`);
      return Object.freeze({ id: keyIdOf(bytes), bytes: Buffer.from(bytes) });
    });
    const byId = new Map<string, EncryptionKey>();
    this.keys.forEach((key, i) => {
      if (byId.has(key.id)) throw new KeyRingError(`The ${ordinal(i + 1)} key in ENCRYPTION_KEY repeats an earlier one (id ${key.id}).`);
      byId.set(key.id, key);
    });
    this.byId = byId;
  }

  /** The key new ciphertexts are made with. */
  get primary(): EncryptionKey {
    return this.keys[0] as EncryptionKey;
  }

  get ids(): string[] {
    return this.keys.map((k) => k.id);
  }

  key(id: string): EncryptionKey | undefined {
    return this.byId.get(id);
  }
}

/**
 * ENCRYPTION_KEY as given: one or more keys separated by commas (spaces
 * around them ignored), each 32 bytes as 64 hex digits or base64/base64url.
 * The first encrypts; all decrypt.
 */
export function parseKeyRing(text: string): KeyRing {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw new KeyRingError('ENCRYPTION_KEY is empty. Make a key with: openssl rand -base64 32');
  const empty = parts.indexOf('');
  if (empty !== -1) throw new KeyRingError(`The ${ordinal(empty + 1)} key in ENCRYPTION_KEY is empty (two commas in a row, or a comma at an end).`);
  return new KeyRing(parts.map((p, i) => decodeKey(p, i + 1)));
}
