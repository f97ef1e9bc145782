/**
 * Sandbox data for the shift-change scenario of bench/ack-latency.ts: the demo
 * provider plus one more care user for each demo person (a second shift), each
 * taking every other action of their partner, so 40 people have their own lists.
 * Written as a sandbox data file (the sandbox's `dataFile` option).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED_VALUE, DEMO_EMAIL_DOMAIN } from '../dev/sandbox/index.js';
import { DATA_FORMAT } from '../dev/sandbox/persistence.js';
import { buildSeed } from '../dev/sandbox/seed.js';
import { wholeSeconds } from '../dev/sandbox/wire-time.js';

const SECOND_SHIFT_SURNAMES = ['Ashworth', 'Barlow', 'Carver', 'Dalton', 'Ellis', 'Foster', 'Gordon', 'Hayes', 'Irving', 'Jarvis'];

export interface ShiftPerson {
  first_name: string;
  last_name: string;
  email: string;
}

/** A data file with 2 × the demo staff; returns its path and the added people. */
export async function writeShiftData(): Promise<{ file: string; added: ShiftPerson[] }> {
  const data = buildSeed('demo', DEFAULT_SEED_VALUE, wholeSeconds(Date.now()));
  const originals = [...data.users];
  const added: ShiftPerson[] = [];
  originals.forEach((u, i) => {
    const last_name = SECOND_SHIFT_SURNAMES[i % SECOND_SHIFT_SURNAMES.length]!;
    const email = `${`${u.first_name}.${last_name}.${i}`.toLowerCase().replace(/[^a-z0-9.]/g, '')}@${DEMO_EMAIL_DOMAIN}`;
    const twin = { ...u, _id: `${u._id.slice(0, 16)}ffff${String(i).padStart(4, '0')}`, last_name, email };
    data.users.push(twin);
    added.push({ first_name: u.first_name, last_name, email });
    let n = 0;
    for (const a of data.actions) if (a.assigned_to === u._id && n++ % 2 === 1) a.assigned_to = twin._id;
  });
  const dir = await mkdtemp(join(tmpdir(), 'care-bench-shift-'));
  const file = join(dir, 'sandbox.json');
  await writeFile(file, JSON.stringify({ format: DATA_FORMAT, savedAt: new Date().toISOString(), clockOffsetMs: 0, data }));
  return { file, added };
}
