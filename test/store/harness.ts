/**
 * How the contract suite gets a fresh store of each kind: SQLite in a temp
 * dir, PostgreSQL in a random schema; both with a clock the test moves (as the
 * app's clock and as the shared clock of claims and leases), and cleaned up
 * when the test finishes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { OpenedStore, StoreConfig } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { createTestSchema } from '../helpers/pg.js';

export interface TestClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.UTC(2025, 0, 6, 9, 0, 0)): TestClock {
  let now = start;
  return Object.assign(() => now, {
    set: (ms: number) => void (now = ms),
    advance: (ms: number) => void (now += ms),
  });
}

export interface Fresh {
  store: OpenedStore;
  clock: TestClock;
  /** Another store on the same database (same clock), e.g. a second instance or after close(). */
  open(extra?: Partial<StoreConfig>): Promise<OpenedStore>;
  /** Where it lives: the dataDir or the schema config. */
  config: StoreConfig;
}

export interface Harness {
  readonly kind: 'sqlite' | 'postgres';
  fresh(extra?: Partial<StoreConfig>): Promise<Fresh>;
}

async function track(config: StoreConfig, clock: TestClock, extra: Partial<StoreConfig>): Promise<Fresh> {
  const opened: OpenedStore[] = [];
  const open = async (more: Partial<StoreConfig> = {}) => {
    const store = await openStore({ ...config, clock, sharedClock: clock, ...extra, ...more });
    opened.push(store);
    return store;
  };
  onTestFinished(async () => {
    for (const s of opened) await s.close();
  });
  const store = await open();
  return { store, clock, open, config };
}

export function sqliteHarness(): Harness {
  return {
    kind: 'sqlite',
    async fresh(extra = {}) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
      return track({ dataDir: path.join(dir, 'data') }, testClock(), extra);
    },
  };
}

export function postgresHarness(url: string): Harness {
  return {
    kind: 'postgres',
    async fresh(extra = {}) {
      const schema = await createTestSchema(url);
      onTestFinished(() => schema.drop());
      return track({ databaseUrl: url, schema: schema.name, poolSize: 4 }, testClock(), extra);
    },
  };
}
