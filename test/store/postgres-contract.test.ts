import { describe, it } from 'vitest';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { storeContractWithoutIsolation } from './contract/index.js';
import { postgresHarness } from './harness.js';

// The walk of a workspace's store method by method is postgres-isolation-contract.test.ts (a file of its own, run alongside).
if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL store', () => {
  storeContractWithoutIsolation(postgresHarness(TEST_DATABASE_URL ?? ''));
});
