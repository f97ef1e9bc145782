import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { boxKeyId, isCurrent, open, reseal, SecretBoxError, seal } from '../../src/crypto/secret-box.js';

const key = () => randomBytes(32);
const SECRET = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx';

function failure(fn: () => unknown): SecretBoxError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SecretBoxError);
    return e as SecretBoxError;
  }
  throw new Error('expected a SecretBoxError');
}

/** Change one base64url character of segment `index` of a box. */
function flip(box: string, index: number): string {
  const parts = box.split('.');
  const s = parts[index]!;
  const c = s[0] === 'A' ? 'B' : 'A';
  parts[index] = c + s.slice(1);
  return parts.join('.');
}

describe('secret box (AES-256-GCM)', () => {
  it('round-trips text, including empty and non-ASCII, and never shows it in the box', () => {
    const ring = new KeyRing([key()]);
    for (const text of [SECRET, '', 'Grüße, 世界 ✓', 'x'.repeat(5000)]) {
      const box = seal(ring, text, 'ctx');
      expect(open(ring, box, 'ctx')).toBe(text);
      if (text.length > 0) expect(box).not.toContain(text.slice(0, 8));
    }
    expect(seal(ring, SECRET)).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it('never gives the same box twice for the same secret (random IV)', () => {
    const ring = new KeyRing([key()]);
    const boxes = new Set(Array.from({ length: 50 }, () => seal(ring, SECRET)));
    expect(boxes.size).toBe(50);
    const ivs = new Set([...boxes].map((b) => b.split('.')[2]));
    expect(ivs.size).toBe(50);
  });

  it('opens a box made with an older key once a new key is put first, and seals new ones with the new key', () => {
    const [oldKey, newKey] = [key(), key()];
    const before = new KeyRing([oldKey]);
    const box = seal(before, SECRET, 'row-1');
    const after = new KeyRing([newKey, oldKey]);
    expect(open(after, box, 'row-1')).toBe(SECRET);
    expect(isCurrent(after, box)).toBe(false);
    const rotated = reseal(after, box, 'row-1');
    expect(boxKeyId(rotated)).toBe(after.primary.id);
    expect(isCurrent(after, rotated)).toBe(true);
    expect(reseal(after, rotated, 'row-1')).toBe(rotated);
    // Once rotated, the old key can go.
    expect(open(new KeyRing([newKey]), rotated, 'row-1')).toBe(SECRET);
  });

  it('says clearly when the key a box names is not in the ring, without the secret or a key', () => {
    const [a, b] = [key(), key()];
    const box = seal(new KeyRing([a]), SECRET);
    const error = failure(() => open(new KeyRing([b]), box));
    expect(error.code).toBe('unknown-key');
    expect(error.message).toContain(boxKeyId(box));
    expect(error.message).toContain('not in ENCRYPTION_KEY');
    for (const secret of [SECRET, a.toString('base64'), a.toString('hex'), b.toString('base64'), b.toString('hex')])
      expect(error.message).not.toContain(secret);
  });

  it('detects a changed iv, ciphertext, tag or key id, and a box moved to another context', () => {
    const ring = new KeyRing([key(), key()]);
    const box = seal(ring, SECRET, 'slack_installations.bot_token:T1');
    for (const index of [2, 3, 4]) {
      const error = failure(() => open(ring, flip(box, index), 'slack_installations.bot_token:T1'));
      expect(error.code).toBe('tampered');
      expect(error.message).not.toContain(SECRET);
    }
    expect(failure(() => open(ring, box, 'slack_installations.bot_token:T2')).code).toBe('tampered');
    // The same bytes relabelled with the other key's id: authenticated, so refused.
    const relabelled = box.replace(`.${ring.keys[0]!.id}.`, `.${ring.keys[1]!.id}.`);
    expect(failure(() => open(ring, relabelled, 'slack_installations.bot_token:T1')).code).toBe('tampered');
  });

  it('refuses text that is not a box', () => {
    const ring = new KeyRing([key()]);
    const box = seal(ring, SECRET);
    for (const bad of [SECRET, '', 'v2.a.b.c.d', box.split('.').slice(0, 4).join('.'), `${box}.x`, box.replace(/\.[^.]+$/, '.AAAA'), box.replace('.', '.+')]) {
      expect(failure(() => open(ring, bad)).code).toBe('malformed');
    }
  });
});
