import { describe, it } from 'vitest';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { workspaceIsolationContract } from './contract/index.js';
import { postgresHarness } from './harness.js';

// The rest of the store contract on PostgreSQL is postgres-contract.test.ts.
if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL store', () => {
  workspaceIsolationContract(postgresHarness(TEST_DATABASE_URL ?? ''));
});
