/**
 * A change DM's ledger occurrence says what to render again on a retry: the kind, who made it and,
 * for an edit, what it changed (so a retried "@priya edited your action" still says what changed).
 */
import { describe, expect, it } from 'vitest';
import { changeOccurrence, parseChangeOccurrence } from '../../../src/services/notices/change-notices.js';

const action = { _id: 'a'.repeat(24), modified: '2026-11-24 10:00:05', completed: null };
const by = { teamId: 'T0CARE', userId: 'U0PRIYA' };

describe('change DM occurrences', () => {
  it('an edit carries what it changed, and reads back the same', () => {
    const occurrence = changeOccurrence(action, { kind: 'edit', by, fields: ['due', 'urgent'] }, 'now');
    expect(occurrence).toBe('edit+due+urgent|2026-11-24 10:00:05|U0PRIYA');
    expect(parseChangeOccurrence(occurrence)).toEqual({ kind: 'edit', by: 'U0PRIYA', fields: ['due', 'urgent'] });
  });

  it('an action taken away through Edit, and the kinds before it, read back without fields', () => {
    expect(parseChangeOccurrence(changeOccurrence(action, { kind: 'unassign', by }, 'now'))).toEqual({ kind: 'unassign', by: 'U0PRIYA' });
    expect(parseChangeOccurrence('snooze|2026-11-24 10:00:05|U0PRIYA')).toEqual({ kind: 'snooze', by: 'U0PRIYA' });
    expect(parseChangeOccurrence('edit+colour|2026-11-24 10:00:05|U0PRIYA')).toBeNull();
  });
});
