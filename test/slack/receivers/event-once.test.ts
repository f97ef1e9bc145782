import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_ABANDONED_AFTER_MS } from '../../../src/slack/receivers/event-once.js';
import { createReplayGuard, type ReplayVerdict } from '../../../src/slack/receivers/replay-guard.js';
import { type OpenedStore, openStore } from '../../../src/store/index.js';

/**
 * The receiver's rule for Slack's retries of an event, on a real SQLite store
 * with the guard's clock in the test's hands: an event runs once, and a retry
 * of one that did not get to the app still runs.
 */
const START = Date.UTC(2026, 2, 10, 9, 0, 0);
let store: OpenedStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

async function guardAt() {
  dir = await mkdtemp(join(tmpdir(), 'event-once-'));
  store = await openStore({ dataDir: dir });
  let now = START;
  const guard = createReplayGuard({ store, now: () => now });
  /** One copy of event Ev1 as Slack signs it now (each retry has its own signature and timestamp). */
  let copies = 0;
  const copy = () => guard.admit({ signature: `v0=copy-${++copies}`, timestampSec: Math.floor(now / 1000), eventId: 'Ev1' });
  return { copy, advance: (ms: number) => void (now += ms) };
}

const ran = (v: ReplayVerdict): v is Extract<ReplayVerdict, { settle: unknown }> => v.ok && 'settle' in v;

describe("Slack's retries of an event", () => {
  it('the copy that ran keeps every later copy out, as already done', async () => {
    const { copy, advance } = await guardAt();
    const first = await copy();
    expect(ran(first)).toBe(true);
    if (ran(first)) await first.settle(true);
    for (const wait of [3_000, 60_000, 5 * 60_000]) {
      advance(wait);
      expect(await copy()).toEqual({ ok: false, reason: 'duplicate-event' });
    }
  });

  it('a retry of an event whose first copy was answered with an error runs, once', async () => {
    const { copy, advance } = await guardAt();
    const first = await copy();
    if (ran(first)) await first.settle(false);
    advance(3_000);
    const retry = await copy();
    expect(ran(retry)).toBe(true);
    if (ran(retry)) await retry.settle(true);
    advance(60_000);
    expect(await copy()).toEqual({ ok: false, reason: 'duplicate-event' });
  });

  it('a retry while the first copy is still unanswered is told to try later; once that copy is abandoned, a retry runs', async () => {
    const { copy, advance } = await guardAt();
    expect(ran(await copy())).toBe(true); // never answered: the instance died
    advance(3_000);
    expect(await copy()).toEqual({ ok: false, reason: 'event-in-flight' });
    advance(EVENT_ABANDONED_AFTER_MS);
    const later = await copy();
    expect(ran(later)).toBe(true);
  });
});
