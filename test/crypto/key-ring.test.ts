import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing, KeyRingError, keyIdOf, parseKeyRing } from '../../src/crypto/key-ring.js';

const key = () => randomBytes(32);

describe('ENCRYPTION_KEY (parseKeyRing)', () => {
  it('reads 64 hex digits, base64 with or without padding, and base64url as the same 32 bytes', () => {
    const bytes = key();
    const forms = [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      bytes.toString('base64'),
      bytes.toString('base64').replace(/=$/, ''),
      bytes.toString('base64url'),
    ];
    for (const form of forms) {
      const ring = parseKeyRing(form);
      expect(ring.keys).toHaveLength(1);
      expect(ring.primary.bytes.equals(bytes)).toBe(true);
      expect(ring.primary.id).toBe(keyIdOf(bytes));
    }
  });

  it('reads several keys separated by commas (spaces ignored); the first is the primary', () => {
    const [a, b, c] = [key(), key(), key()];
    const ring = parseKeyRing(` ${a.toString('base64')} ,${b.toString('hex')},  ${c.toString('base64url')} `);
    expect(ring.keys.map((k) => k.id)).toEqual([keyIdOf(a), keyIdOf(b), keyIdOf(c)]);
    expect(ring.primary.id).toBe(keyIdOf(a));
    expect(ring.key(keyIdOf(c))?.bytes.equals(c)).toBe(true);
    expect(ring.key('nope0000')).toBeUndefined();
  });

  it('names each key by a short fingerprint that is stable and differs between keys', () => {
    const a = key();
    expect(keyIdOf(a)).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(keyIdOf(Buffer.from(a))).toBe(keyIdOf(a));
    expect(keyIdOf(key())).not.toBe(keyIdOf(a));
    expect(a.toString('base64url')).not.toContain(keyIdOf(a));
  });

  it('refuses a key of the wrong length or alphabet, naming its position but never echoing it', () => {
    const good = key().toString('base64');
    const short = randomBytes(16).toString('hex');
    const cases = ['', ' , ', short, `${good},${short}`, `${good},,${good}`, 'x'.repeat(44), `${good.slice(0, 43)}!`];
    for (const text of cases) {
      let error: unknown;
      try {
        parseKeyRing(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(KeyRingError);
      const message = (error as Error).message;
      if (text.length > 3) for (const part of text.split(',')) if (part.length > 8) expect(message).not.toContain(part.trim().slice(0, 12));
    }
    expect(() => parseKeyRing(`${good},${short}`)).toThrow(/2nd key .* 32 bytes/);
  });

  it('refuses the same key twice', () => {
    const a = key();
    expect(() => parseKeyRing(`${a.toString('base64')},${a.toString('hex')}`)).toThrow(/2nd key in ENCRYPTION_KEY repeats an earlier one/);
  });

  it('refuses an empty ring or a key of the wrong size given as bytes', () => {
    expect(() => new KeyRing([])).toThrow(KeyRingError);
    expect(() => new KeyRing([randomBytes(31)])).toThrow(/31 bytes/);
  });
});
