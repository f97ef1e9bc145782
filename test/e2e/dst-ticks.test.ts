/**
 * The real scheduler across both 2027 UK clock changes in a process whose zone is Europe/London, on SQLite
 * (the scenario: test/e2e/fixtures/dst-night.ts; PostgreSQL: dst-ticks-postgres.test.ts).
 */
import { afterEach, describe, it, vi } from 'vitest';
import { inLondonWhileThisFileRuns, NIGHTS, nightUnderTheScheduler } from './fixtures/dst-night.js';

inLondonWhileThisFileRuns();

describe('the scheduler across the UK clock changes, process zone Europe/London, SQLite', () => {
  afterEach(() => vi.useRealTimers());
  for (const night of NIGHTS) {
    it(`polls every minute and posts each digest once: ${night.name}`, async () => {
      await nightUnderTheScheduler(night, undefined);
    }, 180_000);
  }
});
