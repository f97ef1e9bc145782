import { describe, expect, it } from 'vitest';
import { evidenceRange } from '../../../src/services/evidence/evidence-range.js';

const now = new Date('2026-11-06T10:00:00Z');
const tz = 'Europe/London';

describe('the range of an evidence export', () => {
  it('is the last 30 days, today included, by default: local midnights in the zone', () => {
    const r = evidenceRange({}, now, tz);
    expect(r).toMatchObject({ ok: true, range: { from: '2026-10-08', to: '2026-11-06' } });
    if (!r.ok) return;
    expect(r.range.start.toISOString()).toBe('2026-10-07T23:00:00.000Z'); // 00:00 BST
    expect(r.range.end.toISOString()).toBe('2026-11-07T00:00:00.000Z'); // 00:00 GMT
  });

  it('takes from and to, either alone', () => {
    expect(evidenceRange({ from: '2026-10-01', to: '2026-10-31' }, now, tz)).toMatchObject({ range: { from: '2026-10-01', to: '2026-10-31' } });
    expect(evidenceRange({ from: '2026-10-01' }, now, tz)).toMatchObject({ range: { from: '2026-10-01', to: '2026-11-06' } });
    expect(evidenceRange({ to: '2026-10-31' }, now, tz)).toMatchObject({ range: { from: '2026-10-02', to: '2026-10-31' } });
  });

  it('says what is wrong with a bad date, a range the wrong way round, or one too long', () => {
    const bad = evidenceRange({ from: '2026-02-30' }, now, tz);
    expect(bad).toMatchObject({ ok: false });
    if (!bad.ok) expect(bad.message).toMatch(/^`2026-02-30` after `from` is not a date: give it as YYYY-MM-DD/);
    const reversed = evidenceRange({ from: '2026-10-31', to: '2026-10-01' }, now, tz);
    if (!reversed.ok) expect(reversed.message).toMatch(/^The range ends \(2026-10-01\) before it starts \(2026-10-31\)/);
    else expect.fail('a reversed range was taken');
    const long = evidenceRange({ from: '2024-01-01', to: '2026-01-01' }, now, tz);
    if (!long.ok) expect(long.message).toMatch(/export at most a year at a time/);
    else expect.fail('two years were taken');
  });
});
