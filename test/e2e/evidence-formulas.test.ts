/**
 * Issue 37, item 3: the evidence CSV never hands a spreadsheet a formula. Tasks typed in the care system's
 * web app with a formula hidden behind a space, a tab, an invisible character, a fullwidth sign or a `;`
 * separator reach the admin's file as text (a leading apostrophe), and every field of the file is quoted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/csv.js';
import { command, type Harness, startHarness, webAppAction } from './harness.js';

const START = new Date('2026-10-20T09:00:00Z');
const TASKS = [
  ' =HYPERLINK("http://evil.example","a")',
  '\t=1+1',
  '\u200b=HYPERLINK("http://evil.example","b")',
  '\ufeff@SUM(A1)',
  '\u00a0+1',
  '＝HYPERLINK("http://evil.example","c")',
  '＠SUM(A1)',
  'Check the hoist;=HYPERLINK("http://evil.example","d")',
];

describe('the evidence CSV against formulas', () => {
  let h: Harness;
  const numbers = new Map<string, string>();

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const [i, task] of TASKS.entries()) {
      const a = await webAppAction(h, { task, due: new Date(START.getTime() + (i + 1) * 3600_000) });
      numbers.set(a.action_no, task);
    }
    await h.setTime(new Date('2026-10-21T09:00:00Z'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('turns every task a spreadsheet could evaluate into text, and quotes every field of the file', async () => {
    const reply = await command(h, 'amelia', '/care evidence from 2026-10-20 to 2026-10-20 --with-tasks', { channel: '#care-team' }, 60_000);
    expect(reply.text).toContain('with task text');
    const file = await h.fake.waitFor(() => h.fake.files({ dm: 'amelia' })[0], { timeoutMs: 60_000, message: 'the evidence file' });
    const [header, ...rows] = parseCsv(file.text);
    expect(header!.at(-1)).toBe('Task');
    expect(rows).toHaveLength(TASKS.length);
    for (const row of rows) {
      const task = numbers.get(row[0]!);
      expect(task, `row ${row[0]}`).toBeDefined();
      // What the care system holds, after an apostrophe: a spreadsheet shows it as text.
      expect(row.at(-1)!.startsWith("'"), JSON.stringify(row.at(-1))).toBe(true);
      expect(row.at(-1)!.slice(1).trim()).toBe(task!.trim());
    }
    // Every field quoted: each line is "…","…",… (a quote inside a field is doubled).
    for (const line of file.text.split('\r\n').slice(0, -1)) expect(line, JSON.stringify(line)).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
  }, 60_000);
});
