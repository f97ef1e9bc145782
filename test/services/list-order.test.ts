import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/care/index.js';
import type { ListQuery } from '../../src/services/read-cache/action-filters.js';
import { placeHash, placingFields } from '../../src/services/read-cache/list-order.js';

/** Which changes can move an action in a list: only those to what the list filters or sorts on. */
const q = (filters: ListQuery['filters'], sort_by?: ListQuery['sort_by']): ListQuery => ({
  filters,
  ...(sort_by ? { sort_by } : {}),
  per_page: 100,
  limit: 100,
});
const action = (over: Partial<Action> = {}): Action =>
  ({ _id: 'a1', action_no: '12', task: 'Ring the GP', due: '2026-03-11 09:00:00', urgent: false, completed: null, assigned_to: 'u1', ...over }) as Action;

describe('what places an action in a list', () => {
  it("everyone's open list (completed, due; sorted by due): a new assignee, urgency or task does not move it; a new due or a completion does", () => {
    const fields = placingFields(q({ completed: 'no', end_date: '2026-03-19' }, ['due']))!;
    expect(fields).toEqual(['completed', 'due']);
    const before = placeHash(fields, action());
    expect(placeHash(fields, action({ assigned_to: 'u2', urgent: true, task: 'Ring the GP again' }))).toBe(before);
    expect(placeHash(fields, action({ due: '2026-03-12 09:00:00' }))).not.toBe(before);
    expect(placeHash(fields, action({ completed: '2026-03-10 10:00:00' }))).not.toBe(before);
  });

  it("a person's list moves with its assignee; a keyword search with its task and number", () => {
    expect(placingFields(q({ assigned_to: 'u1', completed: 'no' }, ['due']))).toEqual(['assigned_to', 'completed', 'due']);
    expect(placingFields(q({ q: 'GP', completed: 'unset' }))).toEqual(['action_no', 'completed', 'task']);
  });

  it('what the app cannot see or every change moves: any change counts', () => {
    expect(placingFields(q({ completed: 'no' }, ['-modified']))).toBeNull();
    expect(placingFields(q({ modified_after: '2026-03-10 00:00:00' }))).toBeNull();
    expect(placingFields(q({ parent_subject: 'su1' }))).toBeNull();
  });
});
