/**
 * `npm run reencrypt`: after putting a new key first in ENCRYPTION_KEY (and
 * keeping the old ones after it), rewrite every stored Slack token and care
 * secret under the new key; then the old keys can be removed. Reads
 * DATABASE_URL / DATA_DIR (as the app does) and ENCRYPTION_KEY; migrates the
 * database like a start-up would. Reports, as JSON log lines, counts on
 * stdout and the rows it could not read (table and workspace, never a value)
 * on stderr. Safe to run while the app runs, and again: rows already under the
 * first key are left as they are.
 *
 * Exit: 0 done; 1 some rows could not be read (their key is not in
 * ENCRYPTION_KEY); 2 ENCRYPTION_KEY or DATABASE_URL unusable; 3 the database
 * cannot be reached or migrated.
 */
import { KeyRingError, parseKeyRing } from '../crypto/key-ring.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { isStoreError, openStore, type ReencryptCounts } from '../store/index.js';

const line = (table: string, c: ReencryptCounts) =>
  `${table}: ${c.rows} rows, ${c.rewritten} rewritten, ${c.current} already current, ${c.changedMeanwhile} changed meanwhile, ${c.failed} unreadable`;

/** `report`: what was done (stdout); `problems`: what was not (stderr). */
async function main(env: NodeJS.ProcessEnv, report: Logger, problems: Logger): Promise<number> {
  const text = env.ENCRYPTION_KEY ?? '';
  let ring: ReturnType<typeof parseKeyRing>;
  try {
    ring = parseKeyRing(text);
  } catch (error) {
    if (!(error instanceof KeyRingError)) throw error;
    problems.error(`ENCRYPTION_KEY: ${error.message}`);
    return 2;
  }
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR || './data', keyRing: ring });
  } catch (error) {
    if (!isStoreError(error)) throw error;
    problems.error(`Cannot open the store: ${error.message}`);
    return error.code === 'bad-config' ? 2 : 3;
  }
  try {
    const result = await store.reencryptAll();
    report.info(`Stored secrets are now under key ${result.primaryKeyId} (the first of ${ring.keys.length} in ENCRYPTION_KEY).`);
    for (const [table, counts] of Object.entries(result.tables)) report.info(line(table, counts));
    for (const f of result.failures) problems.error(`unreadable: ${f.table} ${f.row}: ${f.reason}`);
    const meanwhile = Object.values(result.tables).reduce((n, c) => n + c.changedMeanwhile, 0);
    if (meanwhile > 0) report.info('Rows changed while this ran were left as they are; run it again to check them.');
    if (result.failures.length > 0) {
      problems.error('Some rows could not be read: put their key back in ENCRYPTION_KEY (after the first) and run again.');
      return 1;
    }
    return 0;
  } finally {
    await store.close();
  }
}

const report = createLogger({ base: { tool: 'reencrypt' }, write: (line) => process.stdout.write(`${line}\n`) });
const problems = createLogger({ base: { tool: 'reencrypt' } });
main(process.env, report, problems).then(
  (code) => process.exit(code),
  (error: unknown) => {
    problems.error('re-encryption failed', { error });
    process.exit(1);
  },
);
