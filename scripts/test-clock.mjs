#!/usr/bin/env node
// Runs the test suite with the machine's clock moved (libfaketime), at the times a care
// home's day goes wrong for software: mid-morning on a weekday, ten seconds before midnight
// at a month's end, and the nights the UK clocks go forward and back.
//
//   node scripts/test-clock.mjs            every time, one after another (npm run test:clock)
//   node scripts/test-clock.mjs rotate     one time, chosen by the day of the month (CI)
//   node scripts/test-clock.mjs midnight   one named time (weekday, midnight, spring, autumn)
//   node scripts/test-clock.mjs all -- test/e2e/summaries.test.ts   vitest arguments after --
//
// Every time is computed from today's real date, so the list never falls into the past.
// Each process sees the real clock plus one offset (faketime -f +N), so the test runner, its
// workers and their child processes agree with each other; PostgreSQL keeps the real clock.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TZDate } from '@date-fns/tz';

const LONDON = 'Europe/London';
const DAY = 86_400_000;

/** The last Sunday of a month (0-based) at 00:59 UTC: the minute before the UK clocks change. */
function lastSundayAt0059(year, month) {
  const last = new Date(Date.UTC(year, month + 1, 0, 0, 59, 0));
  return new Date(last.getTime() - last.getUTCDay() * DAY);
}

function nextAfter(realNow, pick) {
  const year = realNow.getUTCFullYear();
  return [year, year + 1].map(pick).find((at) => at.getTime() > realNow.getTime() + DAY);
}

function londonAt(day, hours, minutes, seconds) {
  const d = new TZDate(day.getTime(), LONDON);
  return new Date(new TZDate(d.getFullYear(), d.getMonth(), d.getDate(), hours, minutes, seconds, LONDON).getTime());
}

/** The four times, from the real date. */
export function clockTimes(realNow = new Date()) {
  // The next weekday after tomorrow, 10:30 in London (digests and summaries of the day are past).
  let day = new Date(realNow.getTime() + 2 * DAY);
  while ([0, 6].includes(new TZDate(day.getTime(), LONDON).getDay())) day = new Date(day.getTime() + DAY);
  const weekday = londonAt(day, 10, 30, 0);
  // The last day of this month (or the next, when that is too close), 23:59:10 in London.
  const london = new TZDate(realNow.getTime(), LONDON);
  let monthEnd = londonAt(new Date(Date.UTC(london.getFullYear(), london.getMonth() + 1, 0, 12)), 23, 59, 10);
  if (monthEnd.getTime() < realNow.getTime() + DAY) monthEnd = londonAt(new Date(Date.UTC(london.getFullYear(), london.getMonth() + 2, 0, 12)), 23, 59, 10);
  return [
    { name: 'weekday', label: '10:30 London on a weekday', at: weekday },
    { name: 'midnight', label: "23:59:10 London on a month's last day", at: monthEnd },
    { name: 'spring', label: 'the UK clocks go forward (00:59 UTC)', at: nextAfter(realNow, (y) => lastSundayAt0059(y, 2)) },
    { name: 'autumn', label: 'the UK clocks go back (00:59 UTC)', at: nextAfter(realNow, (y) => lastSundayAt0059(y, 9)) },
  ];
}

function haveFaketime() {
  if (spawnSync('faketime', ['-f', '+0', 'true']).status === 0) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) return false;
  console.log('test:clock: installing faketime (Debian package)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'faketime'], { stdio: 'ignore', env });
  return spawnSync('faketime', ['-f', '+0', 'true']).status === 0;
}

function counts(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const line =
    plain
      .split('\n')
      .filter((l) => /^\s+Tests\s/.test(l))
      .pop() ?? '';
  const n = (word, from = line) => Number(new RegExp(`(\\d+) ${word}`).exec(from)?.[1] ?? 0);
  // A file whose set-up (beforeAll) failed counts its tests as skipped, not failed: its count is on the files line.
  const files =
    plain
      .split('\n')
      .filter((l) => /^\s+Test Files\s/.test(l))
      .pop() ?? '';
  // What failed, printed again with the results, where a truncated log still shows it.
  const lines = plain.split('\n');
  const start = lines.findIndex((l) => /(Failed Tests|Failed Suites) \d+/.test(l));
  const failures = start === -1 ? '' : lines.slice(start, start + 40).join('\n');
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped'), failedFiles: n('failed', files), failures };
}

function main() {
  const args = process.argv.slice(2);
  const dash = args.indexOf('--');
  const which = (dash === -1 ? args : args.slice(0, dash))[0] ?? 'all';
  const vitestArgs = dash === -1 ? [] : args.slice(dash + 1);
  const times = clockTimes();
  const chosen = which === 'all' ? times : which === 'rotate' ? [times[(new Date().getUTCDate() - 1) % times.length]] : times.filter((t) => t.name === which);
  if (chosen.length === 0) {
    console.error(`test:clock: unknown time "${which}" (all, rotate, ${times.map((t) => t.name).join(', ')})`);
    process.exit(2);
  }
  if (!haveFaketime()) {
    console.log('test:clock: faketime is not installed and cannot be installed here (Debian: apt-get install faketime); skipped.');
    process.exit(0);
  }
  const results = [];
  for (const time of chosen) {
    const offsetSeconds = Math.round((time.at.getTime() - Date.now()) / 1000);
    console.log(`\ntest:clock: ${time.label}: the machine's clock moved to ${time.at.toISOString()} (${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds} s)`);
    const run = spawnSync('faketime', ['-f', `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}`, 'npx', 'vitest', 'run', ...vitestArgs], {
      env: { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    process.stdout.write(output);
    results.push({ time, status: run.status, ...counts(output) });
  }
  console.log('\ntest:clock results:');
  for (const r of results) {
    console.log(
      `  ${r.time.name.padEnd(8)} ${r.time.at.toISOString()}  ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.failedFiles ? `, ${r.failedFiles} file(s) failed` : ''}${r.status === 0 ? '' : `  (exit ${r.status})`}`,
    );
    if (r.failures) console.log(r.failures);
  }
  process.exit(results.every((r) => r.status === 0) ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
