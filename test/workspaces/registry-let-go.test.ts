/**
 * Issue 36, a minute with room: an instance lets go of the workspaces it has not used for a while, a few at each
 * listing (the longest idle first), so hundreds idle at once (every workspace the other instance runs) are closed
 * over the next ticks rather than in one burst. Ticks of several kinds at one moment share one listing. A real
 * SQLite store; the registry's clock is stepped by hand.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore } from '../../src/store/index.js';
import type { Workspace } from '../../src/workspaces/compose-workspace.js';
import { idleToLetGo } from '../../src/workspaces/idle-let-go.js';
import { multiWorkspaceRegistry } from '../../src/workspaces/registry.js';

const MIN = 60_000;
const N = 100;
const teams = Array.from({ length: N }, (_, i) => `T${String(i).padStart(3, '0')}`);

describe('which idle workspaces are let go now', () => {
  it('those idle for idleMs, the longest idle first, at most so many, none being composed', () => {
    const at = 100 * MIN;
    const entries = [
      { id: 'T1', usedAt: at - 11 * MIN },
      { id: 'T2', usedAt: at - 30 * MIN },
      { id: 'T3', usedAt: at - 9 * MIN },
      { id: 'T4', usedAt: at - 10 * MIN },
      { id: 'T5', usedAt: at - 40 * MIN },
    ];
    expect(idleToLetGo(entries, at, 10 * MIN, 10)).toEqual(['T5', 'T2', 'T1', 'T4']);
    expect(idleToLetGo(entries, at, 10 * MIN, 2)).toEqual(['T5', 'T2']);
    expect(idleToLetGo(entries, at, 10 * MIN, 2, (id) => id === 'T5')).toEqual(['T2', 'T1']);
    expect(idleToLetGo(entries, at, 10 * MIN, 0)).toEqual([]);
  });
});

describe('a registry of many workspaces letting go of the idle ones', () => {
  let dir: string;
  let store: OpenedStore;
  let now: number;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'registry-let-go-test-'));
    now = Date.UTC(2027, 5, 15, 5, 0, 0);
    store = await openStore({ dataDir: dir, clock: () => now, keyRing: new KeyRing([randomBytes(32)]) });
    for (const teamId of teams) {
      await store.saveInstallation({
        isEnterpriseInstall: false,
        teamId,
        teamName: `Home ${teamId}`,
        appId: 'A1',
        bot: { token: `xoxb-${teamId}`, scopes: ['chat:write'], id: 'B1', userId: 'UBOT' },
        user: { id: 'U1' },
      });
      await store.setCareConnection({ workspaceId: teamId, baseUrl: 'https://care.example', accountId: 'acc', apiKey: 'k', apiSecret: 's', connectedBy: 'U1' });
    }
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`${N} workspaces idle at once are let go 20 at each listing, closed a while after each was let go; ticks at one moment share a listing`, async () => {
    const closed: string[] = [];
    let listings = 0;
    const counted = new Proxy(store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'listWorkspaces' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          listings++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const registry = multiWorkspaceRegistry({
      store: counted,
      compose: (workspaceId) => ({ close: async () => void closed.push(workspaceId) }) as unknown as Workspace,
      defaults: { timezone: 'Europe/London' },
      logger: silentLogger,
      now: () => now,
      closeAfterMs: 5,
    });
    for (const t of teams) expect((await registry.get(t)).state).toBe('ready');
    // Three kinds tick at one moment: one listing between them.
    const lists = await Promise.all([registry.connected(), registry.connected(), registry.connected()]);
    expect(listings).toBe(1);
    expect(lists.every((l) => l.length === N)).toBe(true);

    // Ten minutes on, a tenth of them still used here: the others are let go, 20 at each listing.
    now += 11 * MIN;
    for (const t of teams.slice(0, 10)) await registry.get(t);
    const held: number[] = [];
    for (let i = 0; i < 6; i++) {
      await registry.connected();
      held.push(registry.composed().size);
    }
    expect(held).toEqual([80, 60, 40, 20, 10, 10]);
    await registry.close();
    expect(closed.sort()).toEqual([...teams].sort());
  });
});
