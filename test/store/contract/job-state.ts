/**
 * Contract: each workspace's job state (`job_state`, store/job-state.ts). Its trouble episode is told once and
 * its end once, by the one caller the database picks, however many instances fail or recover at once; each
 * kind is backed off on its own; a slot is claimed once; one workspace's rows are never read or changed for
 * another (T1 and T12); the trouble records kept in cursors before migration 015 become rows.
 */
import { describe, expect, it } from 'vitest';
import type { JobFailure, OpenedStore } from '../../../src/store/index.js';
import { MIGRATIONS } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const WAITS = [60_000, 120_000, 240_000];
let tellers = 0;
const failure = (kind: string, at: number, over: Partial<JobFailure> = {}): JobFailure => ({
  kind,
  at,
  reason: `${kind} failed`,
  backoff: WAITS,
  teller: `teller-${++tellers}`,
  tellForMs: 30_000,
  ...over,
});

export function jobStateContract(h: Harness): void {
  describe('job state', () => {
    it('concurrent failures from two instances begin one episode, told by exactly one caller', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const teams = ['T1', 'T2', 'T3', 'T4'];
      const at = clock();
      const calls = teams.flatMap((team) =>
        ['changes-poll', 'digests', 'summaries'].flatMap((kind) =>
          [store, other].map((s) => {
            const f = failure(kind, at);
            return async () => ({ team, f, o: await s.recordJobFailure(team, f) });
          }),
        ),
      );
      const outcomes = await Promise.all(calls.map((call) => call()));
      for (const team of teams) {
        const mine = outcomes.filter((r) => r.team === team);
        expect(
          mine.filter((r) => r.o.tell),
          team,
        ).toHaveLength(1);
        const { episode, kinds } = await store.readJobState(team);
        expect(episode).toMatchObject({ since: at, failures: 6, toldAt: null });
        expect(kinds.map((k) => [k.kind, k.failures])).toEqual([
          ['changes-poll', 2],
          ['digests', 2],
          ['summaries', 2],
        ]);
      }
      // While the teller tells (its claim held), later failures do not tell again; once told, none does.
      const teller = outcomes.find((r) => r.team === 'T1' && r.o.tell)!.f.teller;
      const again = await Promise.all([store, other].map((s) => s.recordJobFailure('T1', failure('digests', at))));
      expect(again.map((o) => o.tell)).toEqual([false, false]);
      expect(await other.markJobTroubleTold('T1', 'someone-else', at)).toBe(false);
      expect(await other.markJobTroubleTold('T1', teller, at)).toBe(true);
      expect(await store.markJobTroubleTold('T1', teller, at)).toBe(false);
      clock.advance(3_600_000);
      const later = await Promise.all([store, other].map((s) => s.recordJobFailure('T1', failure('digests', clock()))));
      expect(later.map((o) => o.tell)).toEqual([false, false]);
      expect((await store.readJobState('T1')).episode).toMatchObject({ failures: 10, toldAt: at });
    });

    it('a claim given back, or run out, lets the next failure tell; a told episode is told no more', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const first = failure('changes-poll', clock());
      expect((await store.recordJobFailure('T1', first)).tell).toBe(true);
      // Telling failed: given back, so the next failure (another instance's) tells.
      expect(await store.releaseJobTroubleTell('T1', first.teller)).toBe(true);
      const second = failure('changes-poll', clock());
      expect((await other.recordJobFailure('T1', second)).tell).toBe(true);
      // Its teller died: the claim runs out after tellForMs (the shared clock), then another failure tells.
      clock.advance(29_999);
      expect((await store.recordJobFailure('T1', failure('digests', clock()))).tell).toBe(false);
      clock.advance(1);
      const third = failure('digests', clock());
      expect((await store.recordJobFailure('T1', third)).tell).toBe(true);
      expect(await other.markJobTroubleTold('T1', second.teller, clock())).toBe(false); // no longer its claim
      expect(await store.markJobTroubleTold('T1', third.teller, clock())).toBe(true);
      expect((await store.readJobState('T1')).episode).toMatchObject({ failures: 4, toldAt: clock() });
      clock.advance(60_000);
      const later = await Promise.all([store, other].map((s) => s.recordJobFailure('T1', failure('digests', clock()))));
      expect(later.map((o) => o.tell)).toEqual([false, false]);
    });

    it('successes from two instances end a told episode once, when its last failing kind runs well', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const t0 = clock();
      for (const team of ['T1', 'T2', 'T3']) {
        const f = failure('changes-poll', t0);
        expect((await store.recordJobFailure(team, f)).tell).toBe(true);
        expect(await store.markJobTroubleTold(team, f.teller, t0)).toBe(true);
        await other.recordJobFailure(team, failure('digests', t0 + 1));
      }
      clock.advance(60_000);
      // Both kinds run well at once, on two instances: exactly one success ends each episode.
      const ends = await Promise.all(
        ['T1', 'T2', 'T3'].flatMap((team) =>
          [
            [store, 'changes-poll'],
            [other, 'digests'],
            [other, 'changes-poll'],
            [store, 'digests'],
          ].map(async ([s, kind]) => ({ team, o: await (s as OpenedStore).recordJobSuccess(team, kind as string, clock()) })),
        ),
      );
      for (const team of ['T1', 'T2', 'T3']) {
        const mine = ends.filter((r) => r.team === team);
        expect(
          mine.filter((r) => r.o.changed),
          team,
        ).toHaveLength(2);
        expect(mine.filter((r) => r.o.ended).map((r) => r.o.ended)).toEqual([
          { since: t0, failures: 2, lastKind: 'digests', lastError: 'digests failed', toldAt: t0 },
        ]);
        expect((await store.readJobState(team)).episode).toBeNull();
      }
      // A success of a kind not failing changes nothing.
      expect(await store.recordJobSuccess('T1', 'digests', clock())).toMatchObject({ changed: false, ended: null });
      // An episode never told ends all the same (its end is for nobody to tell).
      await store.recordJobFailure('T9', failure('digests', clock()));
      expect((await other.recordJobSuccess('T9', 'digests', clock())).ended).toMatchObject({ toldAt: null, failures: 1 });
    });

    it('backs a kind off by the waits after its failures in a row, the last wait for any more; a success starts it over', async () => {
      const { store, clock } = await h.fresh();
      const t0 = clock();
      const waits: (number | null)[] = [];
      for (let i = 0; i < 5; i++) {
        const at = t0 + i * 1_000_000;
        const { state } = await store.recordJobFailure('T1', failure('changes-poll', at, { reason: `down ${i}` }));
        const kind = state.kinds.find((k) => k.kind === 'changes-poll')!;
        expect(kind).toMatchObject({ failures: i + 1, firstFailedAt: t0, lastFailedAt: at, lastError: `down ${i}` });
        waits.push(kind.backedOffUntil === null ? null : kind.backedOffUntil - at);
      }
      expect(waits).toEqual([60_000, 120_000, 240_000, 240_000, 240_000]);
      expect((await store.readJobState('T1')).episode).toMatchObject({ since: t0, failures: 5, lastKind: 'changes-poll', lastError: 'down 4' });

      await store.recordJobSuccess('T1', 'changes-poll', t0 + 9_000_000);
      expect((await store.readJobState('T1')).kinds).toEqual([
        { kind: 'changes-poll', failures: 0, firstFailedAt: null, lastFailedAt: t0 + 4_000_000, backedOffUntil: null, lastError: null, slot: null },
      ]);
      const { state, tell } = await store.recordJobFailure('T1', failure('changes-poll', t0 + 10_000_000));
      expect(tell).toBe(true); // a new episode
      expect(state.kinds[0]).toMatchObject({ failures: 1, firstFailedAt: t0 + 10_000_000, backedOffUntil: t0 + 10_000_000 + 60_000 });
      expect(state.episode).toMatchObject({ since: t0 + 10_000_000, failures: 1 });
      // One wait only: every failure waits it.
      const one = await store.recordJobFailure('T2', failure('digests', t0, { backoff: [5_000] }));
      const two = await store.recordJobFailure('T2', failure('digests', t0 + 1, { backoff: [5_000] }));
      expect([one.state.kinds[0]!.backedOffUntil, two.state.kinds[0]!.backedOffUntil]).toEqual([t0 + 5_000, t0 + 5_001]);
    });

    it('keeps each kind apart: one kind’s failures and success leave another’s backoff as it was', async () => {
      const { store, clock } = await h.fresh();
      const t0 = clock();
      await store.recordJobFailure('T1', failure('changes-poll', t0));
      await store.recordJobFailure('T1', failure('changes-poll', t0 + 100_000));
      await store.recordJobFailure('T1', failure('digests', t0 + 200_000));
      const before = (await store.readJobState('T1')).kinds;
      expect(before.map((k) => [k.kind, k.failures, k.backedOffUntil])).toEqual([
        ['changes-poll', 2, t0 + 100_000 + 120_000],
        ['digests', 1, t0 + 200_000 + 60_000],
      ]);
      expect((await store.recordJobSuccess('T1', 'changes-poll', t0 + 300_000)).ended).toBeNull(); // digests still fail
      const after = await store.readJobState('T1');
      expect(after.kinds.find((k) => k.kind === 'digests')).toEqual(before.find((k) => k.kind === 'digests'));
      expect(after.episode).toMatchObject({ since: t0, failures: 3 });
      await expect(store.recordJobFailure('T1', failure('', t0))).rejects.toThrow();
    });

    it('claims a slot of a kind once across instances; a later slot again, an earlier never', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const slot = clock();
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : store).claimJobSlot('T1', 'digests', slot, clock())));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimJobSlot('T1', 'changes-poll', slot, clock())).toBe(true); // another kind: its own slot
      expect(await other.claimJobSlot('T1', 'digests', slot - 60_000, clock())).toBe(false);
      expect(await other.claimJobSlot('T1', 'digests', slot + 60_000, clock())).toBe(true);
      // A slot row keeps its slot through failures and successes.
      await store.recordJobFailure('T1', failure('digests', clock()));
      await store.recordJobSuccess('T1', 'digests', clock());
      expect((await store.readJobState('T1')).kinds.find((k) => k.kind === 'digests')).toMatchObject({ failures: 0, slot: slot + 60_000 });
      expect(await store.claimJobSlot('T1', 'digests', slot + 60_000, clock())).toBe(false);
    });

    it('never reads or changes one workspace’s rows for another (T1 and T12), and an uninstall deletes only its own', async () => {
      const { store, clock } = await h.fresh();
      const t0 = clock();
      for (const team of ['T1', 'T12']) {
        const f = failure('changes-poll', t0);
        await store.recordJobFailure(team, f);
        await store.markJobTroubleTold(team, f.teller, t0);
        await store.claimJobSlot(team, 'digests', t0, t0);
      }
      const t12 = await store.readJobState('T12');
      expect((await store.readJobState('T1')).workspaceId).toBe('T1');
      const many = await store.readJobStates(['T1', 'T1', 'T9']);
      expect([...many.keys()]).toEqual(['T1', 'T9']);
      expect(many.get('T9')).toEqual({ workspaceId: 'T9', episode: null, kinds: [] });
      expect(many.get('T1')!.kinds.map((k) => k.kind)).toEqual(['changes-poll', 'digests']);

      // Every change of T1 leaves T12 as it was.
      const f = failure('digests', t0 + 1);
      await store.recordJobFailure('T1', f);
      expect(await store.releaseJobTroubleTell('T12', f.teller)).toBe(false);
      expect(await store.markJobTroubleTold('T12', f.teller, t0)).toBe(false);
      await store.recordJobSuccess('T1', 'changes-poll', t0 + 2);
      await store.recordJobSuccess('T1', 'digests', t0 + 3);
      await store.claimJobSlot('T1', 'digests', t0 + 60_000, t0);
      expect((await store.readJobState('T1')).episode).toBeNull();
      expect(await store.readJobState('T12')).toEqual(t12);

      await store.forgetWorkspace('T1');
      expect(await store.readJobState('T1')).toEqual({ workspaceId: 'T1', episode: null, kinds: [] });
      expect(await store.readJobState('T12')).toEqual(t12);
      await store.forgetWorkspace();
      expect(await store.readJobStates(['T12'])).toEqual(new Map([['T12', { workspaceId: 'T12', episode: null, kinds: [] }]]));
    });

    it('turns the trouble records kept in cursors before migration 015 into rows, and deletes the cursors', async () => {
      const before = await h.fresh({ migrations: MIGRATIONS.slice(0, 14) });
      const record = {
        since: 1_000,
        failures: 3,
        kind: 'changes-poll',
        error: 'Error [code=ECONNREFUSED]',
        nextAttemptAt: 181_000,
        told: true,
        kinds: { 'changes-poll': { failures: 2, nextAttemptAt: 181_000 }, digests: { failures: 1, nextAttemptAt: 62_000 } },
      };
      await before.store.setCursor('job-trouble:T1', JSON.stringify(record));
      // A record written without per-kind detail backs off the kind it names (as the app read it).
      await before.store.setCursor('job-trouble:T2', JSON.stringify({ since: 1, failures: 2, nextAttemptAt: 500, kind: 'poll', error: 'x' }));
      // Cleared or unreadable records are none.
      const none = ['', 'not json', '{"failures":0,"since":1}', '[]', '{"since":"1","failures":1}'];
      for (const [i, raw] of none.entries()) await before.store.setCursor(`job-trouble:N${i}`, raw);
      await before.store.setCursor('job-trouble-other', 'kept');
      // The last slot each kind ran for a workspace comes along (its cursor stays, for the scheduler).
      await before.store.setCursor('job-slot:digests:T1', '1736150400000');
      await before.store.setCursor('job-slot:changes-poll:T3', '1736150400000');
      for (const bad of ['job-slot:summaries:T1', 'job-slot::T1', 'job-slot:nokind'])
        await before.store.setCursor(bad, bad === 'job-slot:summaries:T1' ? 'x' : '1');
      await before.store.setCursor('poll@T1', 'kept');
      expect(await before.store.acquireLease('job-trouble:T1', 'old-instance', 60_000)).toBe(true);
      await before.store.close();

      const store = await before.open({ migrations: MIGRATIONS });
      expect(await store.readJobState('T1')).toEqual({
        workspaceId: 'T1',
        episode: { since: 1_000, failures: 3, lastKind: 'changes-poll', lastError: 'Error [code=ECONNREFUSED]', toldAt: 1_000 },
        kinds: [
          { kind: 'changes-poll', failures: 2, firstFailedAt: 1_000, lastFailedAt: null, backedOffUntil: 181_000, lastError: null, slot: null },
          { kind: 'digests', failures: 1, firstFailedAt: 1_000, lastFailedAt: null, backedOffUntil: 62_000, lastError: null, slot: 1736150400000 },
        ],
      });
      expect((await store.readJobState('T3')).kinds).toEqual([
        { kind: 'changes-poll', failures: 0, firstFailedAt: null, lastFailedAt: null, backedOffUntil: null, lastError: null, slot: 1736150400000 },
      ]);
      expect(await store.claimJobSlot('T3', 'changes-poll', 1736150400000, 0)).toBe(false);
      expect(await store.getCursor('job-slot:digests@T1')).toBe('1736150400000'); // renamed by migration 016 (one naming rule)
      expect(await store.readJobState('T2')).toMatchObject({
        episode: { since: 1, failures: 2, lastKind: 'poll', lastError: 'x', toldAt: null },
        kinds: [{ kind: 'poll', failures: 2, backedOffUntil: 500 }],
      });
      const noneState = await store.readJobStates([...none.map((_, i) => `N${i}`), '', ':T1', 'nokind']);
      for (const state of noneState.values()) expect(state, state.workspaceId).toMatchObject({ episode: null, kinds: [] });
      expect((await store.listCursors('job-trouble')).map((c) => c.name)).toEqual(['job-trouble-other']);
      expect(await store.getCursor('poll@T1')).toBe('kept');
      expect(await store.getLease('job-trouble:T1')).toBeNull();

      // The episode goes on: told already, so the next failure does not tell; its end is told once.
      expect((await store.recordJobFailure('T1', failure('digests', 70_000))).tell).toBe(false);
      await store.recordJobSuccess('T1', 'changes-poll', 200_000);
      expect((await store.recordJobSuccess('T1', 'digests', 200_000)).ended).toEqual({
        since: 1_000,
        failures: 4,
        lastKind: 'digests',
        lastError: 'digests failed',
        toldAt: 1_000,
      });
    });
  });
}
