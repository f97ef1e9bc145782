import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * A modal's `private_metadata`, sealed so the app only acts on what it issued.
 *
 * Slack hands `private_metadata` back unchanged, but a view_submission is just a
 * signed request whose body the sender wrote: without a seal, anyone able to
 * submit a form could name any channel, thread, action or link request. The
 * seal is an HMAC-SHA256 over the metadata, the form it belongs to (its
 * callback_id), the Slack team and user it was issued to, and an expiry.
 *
 * Format: `v1.<base64url(JSON {m: meta, e: expiry in Unix seconds})>.<base64url(mac)>`;
 * the team, user and form are in the MAC only (the submission carries them).
 */

/** Whom a form was issued to, and which form it is. */
export interface Audience {
  teamId: string;
  userId: string;
  /** The view's callback_id: metadata of one form is not accepted by another. */
  form: string;
}

export interface SignedMetadata {
  /** Seal `meta` for this person and form. Throws if the result would exceed Slack's 3,000 characters. */
  encode(meta: unknown, to: Audience): string;
  /** The metadata, or null when it was not issued by us to this person for this form, or has expired. */
  decode(raw: string | undefined, to: Audience): unknown;
}

/** Slack's limit on `private_metadata`. */
export const PRIVATE_METADATA_MAX = 3000;
/** How long an opened form may wait before it is submitted. */
export const DEFAULT_TTL_MS = 24 * 3_600_000;

const VERSION = 'v1';
const KEY_LABEL = 'care-slack private_metadata v1';

/**
 * The sealing key, derived from the Slack signing secret (HKDF-SHA256 with a
 * fixed label), so every instance of the app has it with no new setting, and
 * it is never the signing secret itself.
 */
export function metadataKey(signingSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', signingSecret, '', KEY_LABEL, 32));
}

export function createSignedMetadata(deps: { key: Buffer; now: () => Date; ttlMs?: number }): SignedMetadata {
  const ttlMs = deps.ttlMs ?? DEFAULT_TTL_MS;
  const mac = (body: string, to: Audience) => createHmac('sha256', deps.key).update([VERSION, to.teamId, to.userId, to.form, body].join('\n')).digest();

  return {
    encode(meta, to) {
      const expires = Math.floor((deps.now().getTime() + ttlMs) / 1000);
      const body = Buffer.from(JSON.stringify({ m: meta, e: expires })).toString('base64url');
      const sealed = `${VERSION}.${body}.${mac(body, to).toString('base64url')}`;
      if (sealed.length > PRIVATE_METADATA_MAX) throw new Error(`private_metadata would be ${sealed.length} characters (Slack allows ${PRIVATE_METADATA_MAX})`);
      return sealed;
    },

    decode(raw, to) {
      if (!raw || raw.length > PRIVATE_METADATA_MAX || !to.teamId || !to.userId) return null;
      const parts = raw.split('.');
      if (parts.length !== 3 || parts[0] !== VERSION) return null;
      const [, body, tag] = parts as [string, string, string];
      const given = Buffer.from(tag, 'base64url');
      const expected = mac(body, to);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { m?: unknown; e?: unknown };
        if (typeof payload.e !== 'number' || payload.e * 1000 <= deps.now().getTime()) return null;
        return payload.m ?? null;
      } catch {
        return null;
      }
    },
  };
}
