import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../dev/sandbox/index.js';
import { type Action, type CareClient, createCareClient } from '../../src/care/index.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { ACTION_ATTRIBUTES } from '../../src/services/action-model.js';
import { createActionCache } from '../../src/services/read-cache/action-cache.js';
import type { ListQuery } from '../../src/services/read-cache/action-filters.js';
import { createChangeSync } from '../../src/services/read-cache/change-sync.js';
import { observeWrites } from '../../src/services/read-cache/observe-writes.js';
import type { RefreshTimers } from '../../src/services/read-cache/refresh-queue.js';
import { parseApiDateTime } from '../../src/time/slack-date.js';

/**
 * Bursts of changes made through the app, against the care sandbox over HTTP
 * (its request counts are the care requests the app made): a list a change
 * cannot move is kept, lists a burst drops are read again once, after the
 * burst, and only a person's read keeps a list "hot" (read again after a change).
 * The cache's clock is the test's (it starts at a fixed instant and moves a
 * millisecond a look, and as the test moves it); the wait after a burst runs on
 * timers the test fires.
 */
const attrs = [...ACTION_ATTRIBUTES];
const MIN = 60_000;
const DAY = 86_400_000;

/** Timers the test fires itself: `pending()` waits, `fire()` passes the quiet time. */
function manualTimers() {
  const due = new Map<number, () => void>();
  let ids = 0;
  const timers: RefreshTimers = {
    set: (run) => {
      due.set(++ids, run);
      return ids;
    },
    clear: (handle) => void due.delete(handle as number),
  };
  return {
    timers,
    pending: () => due.size,
    fire() {
      for (const [id, run] of [...due]) {
        if (!due.delete(id)) continue; // cleared by one fired before it
        run();
      }
    },
  };
}

describe('bursts of changes and the lists people read', () => {
  let sandbox: RunningSandbox;
  let care: CareClient;
  let ann: string;
  let ben: string;
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as any;
  };
  /** Care list reads (`GET /v1/actions`) since the last reset. */
  const listReads = async () => {
    const stats = await control('stats');
    return Object.values((stats.byRoute['GET /v1/actions'] ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
  };
  const openOf = (who: string): ListQuery => ({
    filters: { assigned_to: who, completed: 'no' },
    attributes: attrs,
    sort_by: ['due'],
    per_page: 100,
    limit: 500,
  });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'empty', controls: true, rateLimit: 0 });
    care = createCareClient({ baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 100 });
    [ann, ben] = (await care.users.collect({ attributes: ['_id'], per_page: 100, limit: 2 })).map((u) => u._id) as [string, string];
  });
  afterAll(async () => {
    await care?.close();
    await sandbox?.stop();
  });

  /** A cache following the feed on the test's clock, the client the app writes through, and n open actions of Ann's due in the next days. */
  async function setUp(n: number, taskWord: string) {
    const made: Action[] = [];
    const soon = Date.now(); // the care system's own clock: due dates a few days after its "now"
    for (let i = 0; i < n; i++) {
      const a = await care.actions.create({ task: `${taskWord} ${i + 1}`, due: new Date(soon + (1 + (i % 5)) * DAY), assigned_to: ann });
      made.push(a!);
    }
    const clock = { now: Date.parse('2026-03-10T10:00:00Z') };
    const manual = manualTimers();
    const logger = memoryLogger();
    // Each look at the clock moves it on a millisecond, so a read and a change made after it never share an instant.
    const cache = createActionCache({ care, now: () => ++clock.now, logger, maxLagMs: 60 * MIN, timers: manual.timers });
    const sync = createChangeSync({ care, cache, overlapMs: 5 * MIN, intervalMs: 60_000, logger });
    await sync.syncIfDue(); // answers may come from memory from now on
    const writer = observeWrites(care, cache);
    const move = (a: Action, to: string, due: Date | string = a.due!) => writer.actions.update(a._id, { task: a.task!, due, assigned_to: to });
    return { made, clock, manual, cache, move };
  }

  it('25 reassignments in a burst: the shared open list is kept, and the list they left is read again once, after the burst', async () => {
    const { made, manual, cache, move } = await setUp(25, 'Rota check');
    const end = new Date(Date.now() + 9 * DAY).toISOString().slice(0, 10);
    const everyone: ListQuery = { filters: { completed: 'no', end_date: end }, attributes: attrs, sort_by: ['due'], per_page: 100, limit: 1_000 };
    // People read both lists (Home tabs, /care mine): both are hot.
    expect(await cache.list(everyone, { background: true })).toHaveLength(25);
    expect(await cache.list(openOf(ann), { background: true })).toHaveLength(25);
    await control('stats/reset', {});

    for (const a of made) await move(a, ben); // /care reassign @ann to @ben
    expect(await listReads()).toBe(0); // nothing read again during the burst
    expect(manual.pending()).toBeGreaterThan(0);
    manual.fire(); // a second after the last move
    await cache.idle();
    expect(await listReads()).toBe(1); // Ann's list, once: not 25

    // What people see next comes from memory, and is what the care system holds now.
    const after = await cache.list(everyone, { background: true });
    expect(after.map((a) => a.assigned_to)).toEqual(Array(25).fill(ben));
    expect(await cache.list(openOf(ann), { background: true })).toEqual([]);
    expect(await listReads()).toBe(1);

    // A change that can move an action in the shared list (its due: the list is sorted by it) drops it: read again once.
    const first = after[0]!;
    await cache.list(everyone, { background: true });
    await control('stats/reset', {});
    await cache.list(openOf(ben), { background: true }); // Ben reads his own list (25 now)
    await control('stats/reset', {});
    await move(first, ben, new Date(parseApiDateTime(after[24]!.due)!.getTime() + DAY));
    manual.fire();
    await cache.idle();
    expect(await listReads()).toBe(2); // the shared list and Ben's, both sorted by due
    expect((await cache.list(everyone, { background: true })).at(-1)!._id).toBe(first._id);
    expect(await listReads()).toBe(2);
    for (const a of made) await care.actions.complete(a._id); // out of the next test's way
  });

  it('a list only refreshed, never read by a person, goes cold: a change after ten minutes without a reader reads nothing', async () => {
    const { made, clock, manual, cache, move } = await setUp(12, 'Window check');
    const mine = openOf(ann);
    expect(await cache.list(mine, { background: true })).toHaveLength(12); // Ann opens her Home tab at 10:00
    const readsAt: number[] = [];
    // Nobody reads it again; every 3 minutes one of her actions goes to Ben.
    for (let i = 0; i < 5; i++) {
      clock.now += 3 * MIN;
      await control('stats/reset', {});
      await move(made[i]!, ben);
      manual.fire();
      await cache.idle();
      readsAt.push(await listReads());
    }
    // Read again after the changes at 10:03, 10:06 and 10:09 (Ann read it within ten minutes); not at 10:12 or 10:15.
    expect(readsAt).toEqual([1, 1, 1, 0, 0]);

    // Ann reads it at 10:16: from the care system (it was dropped), right, and hot again.
    clock.now += MIN;
    await control('stats/reset', {});
    expect((await cache.list(mine, { background: true })).map((a) => a._id).sort()).toEqual(
      made
        .slice(5)
        .map((a) => a._id)
        .sort(),
    );
    expect(await listReads()).toBe(1);
    clock.now += 2 * MIN;
    await move(made[5]!, ben);
    manual.fire();
    await cache.idle();
    expect(await listReads()).toBe(2);
    for (const a of made) await care.actions.complete(a._id);
  });
});
