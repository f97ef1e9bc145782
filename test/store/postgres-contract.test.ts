import { describe, it } from 'vitest';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { storeContract } from './contract/index.js';
import { postgresHarness } from './harness.js';

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL store', () => {
  storeContract(postgresHarness(TEST_DATABASE_URL ?? ''));
});
