import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** Per-fake id source: Slack-shaped ids (prefix + upper-case alphanumerics), never shared between fakes. */
export class IdFactory {
  private counter = 0;
  private lastMicros = 0;

  /** e.g. next('V') -> "V0A1B2C3D4"; unique within this factory. */
  next(prefix: string): string {
    this.counter += 1;
    return `${prefix}0${this.counter.toString(36).toUpperCase().padStart(3, '0')}${randomId(5)}`;
  }

  /** A random token-like string (trigger ids, response url ids, hashes). */
  secret(length = 24): string {
    return randomBytes(length).toString('hex').slice(0, length);
  }

  /** A short random id like the ones Slack assigns to blocks and elements without ids. */
  shortId(): string {
    return randomId(5);
  }

  /** Slack message ts ("1700000000.000100"): from the clock, strictly increasing within this fake. */
  ts(nowMs: number): string {
    const micros = Math.max(nowMs * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    const rest = micros % 1_000_000;
    return `${seconds}.${String(rest).padStart(6, '0')}`;
  }

  /** trigger_id in Slack's "digits.digits.hex" shape. */
  triggerId(nowMs: number): string {
    this.counter += 1;
    return `${Math.floor(nowMs / 1000)}${this.counter}.${Math.floor(Math.random() * 1e12)}.${this.secret(32)}`;
  }
}
