import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import type { Store, StoreData } from './store.js';

export const DATA_FORMAT = 'care-sandbox/1';

const record = z.looseObject({ _id: z.string() });
const fileSchema = z.object({
  format: z.literal(DATA_FORMAT),
  savedAt: z.string(),
  clockOffsetMs: z.number(),
  data: z.object({
    users: z.array(record),
    notificationGroups: z.array(record),
    locations: z.array(record),
    literatureItems: z.array(record),
    actions: z.array(record),
    subjects: z.array(record),
    nextActionNo: z.number().int().min(1),
  }),
});

export interface DataFile {
  clockOffsetMs: number;
  data: StoreData;
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
  return { clockOffsetMs: parsed.data.clockOffsetMs, data: parsed.data.data as unknown as StoreData };
}

/** Write atomically: a temporary file in the same directory, then rename over the target. */
export async function saveDataFile(file: string, store: Store): Promise<void> {
  const body = JSON.stringify({ format: DATA_FORMAT, savedAt: new Date().toISOString(), clockOffsetMs: store.clock.offset, data: store.snapshot() });
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
 * Saves the store after changes, debounced, one write at a time; `close()`
 * stops listening and writes the final state.
 */
export class DataFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly file: string,
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly debounceMs = 250,
  ) {
    this.unsubscribe = store.subscribe(() => this.schedule());
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
        await saveDataFile(this.file, this.store);
      } catch (err) {
        this.dirty = true;
        this.logger.error('sandbox data file not saved', { err });
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.dirty = true;
    await this.flush();
  }
}
