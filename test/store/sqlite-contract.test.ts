import { describe } from 'vitest';
import { storeContract } from './contract/index.js';
import { sqliteHarness } from './harness.js';

describe('SQLite store', () => {
  storeContract(sqliteHarness());
});
