/**
 * The history's entries from the audit (pure): what the poll saw in the care
 * system, and a poll's sight of a change made through Slack left out (the Slack
 * row says who); and what the poll writes as observations.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/care/index.js';
import { historyEntries } from '../../../src/services/actions/action-history.js';
import { observationsOf } from '../../../src/services/actions/care-observations.js';
import type { AuditEntry } from '../../../src/store/index.js';

let nextId = 1;
const row = (verb: string, userId: string, at: string, details: Record<string, unknown> = {}): AuditEntry => ({
  id: nextId++,
  teamId: 'T1',
  userId,
  verb,
  actionId: 'a1',
  details,
  at: Date.parse(at),
});

describe('historyEntries', () => {
  it('an action made in the care system starts with its creation there (by the care system when it generated it)', () => {
    const made = historyEntries({ created: '2026-03-10 08:00:00', tag: null }, []);
    expect(made).toEqual([{ at: new Date('2026-03-10T08:00:00Z'), verb: 'care.create', by: null, details: {} }]);
    expect(historyEntries({ created: '2026-03-10 08:00:00', tag: 'care_plan_review' }, [])[0]!.details).toEqual({ generated: true });
  });

  it('one made through Slack starts with the Slack row; observations take the care system’s time of the change', () => {
    const entries = historyEntries({ created: '2026-03-10 08:00:00', tag: null }, [
      row('action.create', 'U0AMELIA', '2026-03-10T08:00:01Z', { to: 'c1' }),
      row('seen.complete', '', '2026-03-10T09:01:00Z', { completed: '2026-03-10 09:00:30', at: '2026-03-10 09:00:30' }),
    ]);
    expect(entries.map((e) => [e.verb, e.by, e.at.toISOString()])).toEqual([
      ['action.create', 'U0AMELIA', '2026-03-10T08:00:01.000Z'],
      ['seen.complete', null, '2026-03-10T09:00:30.000Z'],
    ]);
  });

  it('a poll that saw a Slack change before its row was written shows it once, as the Slack change', () => {
    const entries = historyEntries({ created: '2026-03-10 08:00:00', tag: null }, [
      row('action.create', 'U0AMELIA', '2026-03-10T08:00:01Z', {}),
      row('seen.assign', '', '2026-03-10T08:30:00Z', { from: null, to: 'c2', at: '2026-03-10 08:29:59' }),
      row('action.assign', 'U0PRIYA', '2026-03-10T08:30:01Z', { from: null, to: 'c2', via: 'take-it' }),
      row('seen.complete', '', '2026-03-10T09:00:00Z', { completed: '2026-03-10 09:00:00', at: '2026-03-10 09:00:00' }),
      row('action.complete', 'U0PRIYA', '2026-03-10T09:00:01Z', { completed: '2026-03-10 09:00:00' }),
    ]);
    expect(entries.map((e) => e.verb)).toEqual(['action.create', 'action.assign', 'action.complete']);
  });
});

describe('observationsOf', () => {
  const action = (over: Partial<Action>): Action =>
    ({ _id: 'a1', modified: '2026-03-10 10:00:00', completed: null, assigned_to: null, urgent: false, ...over }) as Action;

  it('a completion not known from Slack; none when the Slack row has it', () => {
    const done = action({ completed: '2026-03-10 10:00:00', tag: 'care_plan_review' });
    expect(observationsOf(done, [], { assignee: null, urgent: null })).toEqual([
      { verb: 'seen.complete', details: { completed: '2026-03-10 10:00:00', at: '2026-03-10 10:00:00', generated: true } },
    ]);
    const slack = [row('action.complete', 'U0SOPHIE', '2026-03-10T10:00:01Z', { completed: '2026-03-10 10:00:00' })];
    expect(observationsOf(done, slack, { assignee: null, urgent: null })).toEqual([]);
  });

  it('a reopen after a known completion; a new assignee and urgency against what the app remembered (only newer versions)', () => {
    const known = [row('seen.complete', '', '2026-03-10T09:00:00Z', { completed: '2026-03-10 09:00:00' })];
    const remembered = { assignee: { to: 'c1', seen: '2026-03-10 09:00:00' }, urgent: { urgent: false, seen: '2026-03-10 09:00:00' } };
    expect(observationsOf(action({ assigned_to: 'c2', urgent: true }), known, remembered).map((o) => o.verb)).toEqual([
      'seen.reopen',
      'seen.assign',
      'seen.urgent',
    ]);
    const stale = { assignee: { to: 'c1', seen: '2026-03-10 10:00:00' }, urgent: { urgent: false, seen: '2026-03-10 10:00:00' } };
    expect(observationsOf(action({ assigned_to: 'c2', urgent: true }), [], stale)).toEqual([]);
    expect(observationsOf(action({ assigned_to: 'c2' }), [], { assignee: null, urgent: null })).toEqual([]); // nothing known before: no news
  });
});
