import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing } from './key-ring.js';

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV per value and a
 * 128-bit tag, written as text so any column holds it:
 *
 *   v1.<key id>.<iv>.<ciphertext>.<tag>      (base64url, no padding)
 *
 * The version and key id are authenticated along with an optional context
 * (e.g. `slack_installations.bot_token:T123`), so a value copied into another
 * row or column, or given another key id, fails to open.
 */
export const BOX_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEGMENT = /^[A-Za-z0-9_-]*$/;

export type SecretBoxErrorCode =
  /** Not a value this module wrote (or cut short). */
  | 'malformed'
  /** Written with a key that is not in the ring. */
  | 'unknown-key'
  /** The authentication tag does not match: changed, moved to another context, or another key under the same id. */
  | 'tampered';

/** Never carries the plaintext or a key: only the key ids involved. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';

  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface Parts {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function aad(keyId: string, context: string): Buffer {
  return Buffer.from(`${BOX_VERSION}.${keyId}.${context}`, 'utf8');
}

function parse(box: string): Parts {
  const parts = box.split('.');
  if (parts.length !== 5 || parts[0] !== BOX_VERSION || !parts.slice(1).every((p) => SEGMENT.test(p))) {
    throw new SecretBoxError('malformed', `Not an encrypted value of format ${BOX_VERSION} (v1.<key id>.<iv>.<ciphertext>.<tag>).`);
  }
  const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const out = { keyId, iv: Buffer.from(iv, 'base64url'), ciphertext: Buffer.from(ciphertext, 'base64url'), tag: Buffer.from(tag, 'base64url') };
  if (keyId === '' || out.iv.length !== IV_BYTES || out.tag.length !== TAG_BYTES) {
    throw new SecretBoxError('malformed', `Encrypted value is cut short or padded (format ${BOX_VERSION}).`);
  }
  return out;
}

/** Encrypt with the ring's primary key; a fresh random IV every time, so the same secret never gives the same text twice. */
export function seal(ring: KeyRing, plaintext: string, context = ''): string {
  const key = ring.primary;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(key.id, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [BOX_VERSION, key.id, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
}

/** Decrypt with whichever key of the ring the value names; the same context as when sealed. */
export function open(ring: KeyRing, box: string, context = ''): string {
  const { keyId, iv, ciphertext, tag } = parse(box);
  const key = ring.key(keyId);
  if (!key) {
    throw new SecretBoxError(
      'unknown-key',
      `Encrypted with key ${keyId}, which is not in ENCRYPTION_KEY (it holds ${ring.ids.join(', ')}). Add that key back after the first one.`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad(keyId, context));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('tampered', `Encrypted value (key ${keyId}) failed its integrity check: it was changed, or belongs to another record.`);
  }
}

/** The id of the key a value was sealed with (no decryption). */
export function boxKeyId(box: string): string {
  return parse(box).keyId;
}

/** True when the value is sealed with the ring's primary key (nothing to rotate). */
export function isCurrent(ring: KeyRing, box: string): boolean {
  return boxKeyId(box) === ring.primary.id;
}

/** Open and seal again under the primary key; the same text when it already is. */
export function reseal(ring: KeyRing, box: string, context = ''): string {
  return isCurrent(ring, box) ? box : seal(ring, open(ring, box, context), context);
}
