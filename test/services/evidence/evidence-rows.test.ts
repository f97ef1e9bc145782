import { describe, expect, it } from 'vitest';
import { completionOf, evidenceRows, timelinessOf } from '../../../src/services/evidence/evidence-rows.js';

const due = Date.UTC(2026, 9, 25, 0, 30); // 01:30 BST
describe('lateness from instants', () => {
  it('is an hour late across the autumn clock change even though both wall clocks read 01:30', () => {
    expect(timelinessOf(due, Date.UTC(2026, 9, 25, 1, 30), 0)).toEqual({ kind: 'late', minutesLate: 60 });
  });
  it('is on time at or before the due instant, and a part-minute late is a minute', () => {
    expect(timelinessOf(due, due, 0)).toEqual({ kind: 'on-time' });
    expect(timelinessOf(due, due - 1, 0)).toEqual({ kind: 'on-time' });
    expect(timelinessOf(due, due + 30_000, 0)).toEqual({ kind: 'late', minutesLate: 1 });
  });
  it('counts an open action overdue from the due instant to now, and not before', () => {
    expect(timelinessOf(due, null, due + 90 * 60_000)).toEqual({ kind: 'open-overdue', minutesOverdue: 90 });
    expect(timelinessOf(due, null, due)).toEqual({ kind: 'open' });
    expect(timelinessOf(null, null, due)).toEqual({ kind: 'no-due' });
  });
});

describe('who completed it', () => {
  const nameOf = (id: string) => (id === 'U0SOPHIE' ? 'Sophie Turner' : id);
  it('names the Slack person the audit matched', () => {
    expect(completionOf({ completed: 1, tag: null }, { through: 'slack', slackUserId: 'U0SOPHIE' }, nameOf)).toEqual({
      completedBy: 'Sophie Turner',
      through: 'slack',
    });
    // A tagged action completed through Slack is still the person's.
    expect(completionOf({ completed: 1, tag: 'care_plan_review' }, { through: 'slack', slackUserId: 'U0SOPHIE' }, nameOf).through).toBe('slack');
  });
  it('says the care system for a tagged action with no Slack row, and unknown / web app otherwise', () => {
    expect(completionOf({ completed: 1, tag: 'care_plan_review' }, undefined, nameOf)).toEqual({ completedBy: 'the care system', through: 'care-system' });
    expect(completionOf({ completed: 1, tag: null }, undefined, nameOf)).toEqual({ completedBy: 'unknown', through: 'web-app' });
    expect(completionOf({ completed: null, tag: 'x' }, undefined, nameOf)).toEqual({ completedBy: '', through: null });
  });
  it('builds one row per action with its location name', () => {
    const rows = evidenceRows(
      [
        {
          id: 'a',
          number: '5',
          locationId: 'L1',
          created: 0,
          firstDue: due,
          due: due + 3_600_000,
          reschedules: 1,
          assignedTo: 'care-ben',
          urgent: true,
          completed: null,
          tag: null,
          task: 't',
        },
      ],
      {
        now: due + 60_000,
        locationName: (id) => (id === 'L1' ? 'Willow House' : '?'),
        sourceOf: () => undefined,
        nameOf,
        careNameOf: (id) => (id === 'care-ben' ? 'Ben Whitaker' : 'unknown'),
      },
    );
    expect(rows).toEqual([
      {
        number: '5',
        safeguarding: false,
        location: 'Willow House',
        created: 0,
        firstDue: due,
        due: due + 3_600_000,
        completed: null,
        reschedules: 1,
        assignedTo: 'Ben Whitaker',
        urgent: true,
        completedBy: '',
        through: null,
        timeliness: { kind: 'open-overdue', minutesOverdue: 1 },
        task: 't',
      },
    ]);
  });
});
