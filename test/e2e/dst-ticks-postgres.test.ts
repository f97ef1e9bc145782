/**
 * The real scheduler across both 2027 UK clock changes in a process whose zone is Europe/London, on PostgreSQL
 * (the scenario: test/e2e/fixtures/dst-night.ts; SQLite: dst-ticks.test.ts, a file of its own so the two run side by side).
 */
import { afterEach, describe, it, vi } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { inLondonWhileThisFileRuns, NIGHTS, nightUnderTheScheduler } from './fixtures/dst-night.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';

inLondonWhileThisFileRuns();

describe('the scheduler across the UK clock changes, process zone Europe/London, PostgreSQL', () => {
  afterEach(() => vi.useRealTimers());
  if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
  else
    for (const night of NIGHTS) {
      it(`polls every minute and posts each digest once: ${night.name}`, async () => {
        const schema: TestSchema = await createTestSchema(TEST_DATABASE_URL!, 'dstticks');
        try {
          await nightUnderTheScheduler(night, urlWithSchema(TEST_DATABASE_URL!, schema.name));
        } finally {
          await schema.drop();
        }
      }, 180_000);
    }
});
