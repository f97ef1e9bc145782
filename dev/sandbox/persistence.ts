import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../src/logging/logger.js';
import type { Store, StoreData } from './store.js';

export const DATA_FORMAT = 'care-sandbox/1';

const record = z.looseObject({ _id: z.string() });
const dataSchema = z.object({
  users: z.array(record),
  notificationGroups: z.array(record),
  locations: z.array(record),
  literatureItems: z.array(record),
  actions: z.array(record),
  subjects: z.array(record),
  nextActionNo: z.number().int().min(1),
});
const fileSchema = z.object({
  format: z.literal(DATA_FORMAT),
  savedAt: z.string(),
  clockOffsetMs: z.number(),
  /** The first account's data (the only one of a single-account sandbox). */
  data: dataSchema,
  /** The other accounts' data, by account Id (absent for a single account). */
  moreAccounts: z.array(z.object({ accountId: z.string(), data: dataSchema })).optional(),
});

export interface DataFile {
  clockOffsetMs: number;
  data: StoreData;
  /** Data of accounts after the first, by account Id. */
  moreAccounts: Map<string, StoreData>;
}

/** An account's data as the file keeps it. */
export interface SavedAccount {
  accountId: string;
  store: Store;
}

/** Read a data file; undefined when it does not exist. A malformed file is an error (never silently replaced). */
export async function loadDataFile(file: string): Promise<DataFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`Sandbox data file ${file} is not in the ${DATA_FORMAT} format: ${parsed.error.message}`);
  const moreAccounts = new Map((parsed.data.moreAccounts ?? []).map((a) => [a.accountId, a.data as unknown as StoreData]));
  return { clockOffsetMs: parsed.data.clockOffsetMs, data: parsed.data.data as unknown as StoreData, moreAccounts };
}

/**
 * Write atomically: a temporary file in the same directory, then rename over
 * the target. The first account's data is `data`; others go in `moreAccounts`
 * (left out when there is only one account, so the file is as before).
 */
export async function saveDataFile(file: string, accounts: readonly SavedAccount[]): Promise<void> {
  const [first, ...rest] = accounts;
  if (!first) throw new Error('No sandbox account to save.');
  const body = JSON.stringify({
    format: DATA_FORMAT,
    savedAt: new Date().toISOString(),
    clockOffsetMs: first.store.clock.offset,
    data: first.store.snapshot(),
    ...(rest.length > 0 ? { moreAccounts: rest.map((a) => ({ accountId: a.accountId, data: a.store.snapshot() })) } : {}),
  });
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, body, 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Saves every account's store after changes, debounced, one write at a time;
 * `close()` stops listening and writes the final state.
 */
export class DataFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private readonly unsubscribes: (() => void)[];

  constructor(
    private readonly file: string,
    private readonly accounts: readonly SavedAccount[],
    private readonly logger: Logger,
    private readonly debounceMs = 250,
  ) {
    this.unsubscribes = accounts.map((a) => a.store.subscribe(() => this.schedule()));
  }

  private schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.debounceMs);
  }

  /** Write now if anything changed since the last write. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await saveDataFile(this.file, this.accounts);
      } catch (err) {
        this.dirty = true;
        this.logger.error('sandbox data file not saved', { err });
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.dirty = true;
    await this.flush();
  }
}
