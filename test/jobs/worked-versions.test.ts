import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/care/index.js';
import { createWorkedVersions } from '../../src/jobs/worked-versions.js';

const action = (over: Partial<Action> = {}): Action =>
  ({
    _id: '65a000000000000000000001',
    action_no: '12',
    task: 'Check the fire doors',
    urgent: false,
    assigned_to: null,
    completed: null,
    due: '2027-06-15 15:00:00',
    modified: '2027-06-15 09:00:05',
    ...over,
  }) as Action;

describe('the versions of actions the changes poll has worked', () => {
  it('knows an exact repeat, and nothing else: another change in the same second is a new version', () => {
    const worked = createWorkedVersions();
    worked.add(action());
    expect(worked.has(action())).toBe(true);
    // `modified` has whole seconds: made urgent within the second the poll read it, it reads the same time.
    expect(worked.has(action({ urgent: true }))).toBe(false);
    expect(worked.has(action({ modified: '2027-06-15 09:00:06' }))).toBe(false);
    expect(worked.has(action({ _id: '65a000000000000000000002' }))).toBe(false);
    // The newer version worked replaces the older one.
    worked.add(action({ urgent: true }));
    expect(worked.has(action({ urgent: true }))).toBe(true);
    expect(worked.has(action())).toBe(false);
    expect(worked.size).toBe(1);
  });

  it('forgets what the feed can no longer return, keeps at most its limit, and never keeps a version without a time', () => {
    const worked = createWorkedVersions(3);
    for (let s = 0; s < 5; s++) worked.add(action({ _id: `65a00000000000000000000${s}`, modified: `2027-06-15 09:00:0${s}` }));
    expect(worked.size).toBe(3); // the oldest two forgotten
    expect(worked.has(action({ _id: '65a000000000000000000000', modified: '2027-06-15 09:00:00' }))).toBe(false);
    expect(worked.has(action({ _id: '65a000000000000000000004', modified: '2027-06-15 09:00:04' }))).toBe(true);
    worked.forgetBefore(Date.parse('2027-06-15T09:00:04Z'));
    expect(worked.size).toBe(1);
    worked.add(action({ modified: null }));
    expect(worked.has(action({ modified: null }))).toBe(false);
  });
});
