/**
 * What counts as becoming urgent (the pure rule behind urgent alerts): each
 * version of an action the app reads, from the poll or from Slack, either starts
 * an urgent episode (an alert to post) or says nothing new.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/care/index.js';
import { nextUrgency, parseUrgency } from '../../../src/services/urgent/urgent-alerts.js';

const NOW = '2026-03-10 09:30:00';
const version = (urgent: boolean, modified: string, extra: Partial<Action> = {}): Action => ({ _id: 'a1', urgent, modified, ...extra });

describe('becoming urgent', () => {
  it('urgent when the app first saw it is remembered, not alerted; a new urgent action is alerted', () => {
    expect(nextUrgency(null, version(true, '2026-03-10 09:00:00'), undefined, NOW, false)).toEqual({
      since: '2026-03-10 09:00:00',
      quiet: true,
      seen: '2026-03-10 09:00:00',
    });
    expect(nextUrgency(null, version(true, '2026-03-10 09:00:00'), undefined, NOW, true)).toMatchObject({ quiet: false });
  });

  it('staying urgent (a snooze, Take it, an edit) starts nothing; not urgent -> urgent starts an episode', () => {
    const known = nextUrgency(null, version(true, '2026-03-10 09:00:00'), undefined, NOW, false)!;
    expect(nextUrgency(known, version(true, '2026-03-10 09:10:00', { assigned_to: 'priya' }), undefined, NOW)).toBeNull();
    const calm = nextUrgency(known, version(false, '2026-03-10 09:20:00'), undefined, NOW)!;
    expect(calm).toMatchObject({ since: null });
    expect(nextUrgency(calm, version(true, '2026-03-10 09:25:00'), undefined, NOW)).toEqual({
      since: '2026-03-10 09:25:00',
      quiet: false,
      seen: '2026-03-10 09:25:00',
    });
  });

  it('a change through Slack knows what was before: made urgent is news, kept urgent is not', () => {
    expect(nextUrgency(null, version(true, '2026-03-10 09:00:00'), { before: null }, NOW)).toMatchObject({ quiet: false });
    expect(nextUrgency(null, version(true, '2026-03-10 09:00:00'), { before: { urgent: false } }, NOW)).toMatchObject({ quiet: false });
    expect(nextUrgency(null, version(true, '2026-03-10 09:00:00'), { before: { urgent: true } }, NOW)).toMatchObject({ quiet: true });
  });

  it('completing and reopening an urgent action keeps its episode; a late read of an older version changes nothing', () => {
    const urgent = nextUrgency(null, version(true, '2026-03-10 09:00:00'), undefined, NOW, true)!;
    expect(nextUrgency(urgent, version(true, '2026-03-10 09:05:00', { completed: '2026-03-10 09:05:00' }), undefined, NOW)).toBeNull();
    const calm = nextUrgency(urgent, version(false, '2026-03-10 09:10:00'), undefined, NOW)!;
    expect(nextUrgency(calm, version(true, '2026-03-10 09:00:00'), undefined, NOW)).toBeNull();
  });

  it('reads what older versions of the app stored: the occurrence alone, or "" when not urgent', () => {
    expect(parseUrgency('2026-03-10 09:00:00')).toEqual({ since: '2026-03-10 09:00:00', quiet: false, seen: '2026-03-10 09:00:00' });
    expect(parseUrgency('')).toMatchObject({ since: null });
    expect(parseUrgency(null)).toBeNull();
  });
});
