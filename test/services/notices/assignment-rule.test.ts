/**
 * What counts as a new assignment (the pure rule behind assignment DMs):
 * each version of an action the app reads, from the poll or from Slack, either
 * starts an assignment (a DM to tell) or says nothing new.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/care/index.js';
import { nextAssignment } from '../../../src/services/notices/assignment-notices.js';

const NOW = '2026-03-10 09:30:00';
const version = (assigned_to: string | null, modified: string, extra: Partial<Action> = {}): Action => ({ _id: 'a1', assigned_to, modified, ...extra });
const amelia = { teamId: 'T1', userId: 'U0AMELIA' };

describe('a new assignment', () => {
  it('an action made after the app first looked, first seen by the poll, is told "in the care system"; unless already complete', () => {
    expect(nextAssignment(null, version('priya', '2026-03-10 09:00:00'), undefined, NOW, true)).toEqual({
      to: 'priya',
      since: '2026-03-10 09:00:00',
      seen: '2026-03-10 09:00:00',
      by: null,
      quiet: false,
    });
    expect(nextAssignment(null, version('priya', '2026-03-10 09:00:00', { completed: '2026-03-10 09:00:00' }), undefined, NOW, true)?.quiet).toBe(true);
  });

  it('an assignee the action already had when the app first saw it is remembered, not told; someone new after that is told', () => {
    const known = nextAssignment(null, version('priya', '2026-03-10 09:00:00'), undefined, NOW, false)!;
    expect(known).toMatchObject({ to: 'priya', quiet: true });
    expect(nextAssignment(known, version('priya', '2026-03-10 09:20:00'), undefined, NOW)).toMatchObject({ to: 'priya', quiet: true });
    expect(nextAssignment(known, version('oliver', '2026-03-10 09:20:00'), undefined, NOW)).toMatchObject({ to: 'oliver', quiet: false, by: null });
  });

  it('reading the same assignment again (overlap, another instance, a later edit) starts nothing new', () => {
    const current = nextAssignment(null, version('priya', '2026-03-10 09:00:00'), undefined, NOW, true)!;
    expect(nextAssignment(current, version('priya', '2026-03-10 09:00:00'), undefined, NOW)).toBeNull();
    expect(nextAssignment(current, version('priya', '2026-03-10 09:10:00'), undefined, NOW)).toMatchObject({ since: '2026-03-10 09:00:00' });
  });

  it('a reassignment starts a new one; a late read of the version before it does not bring the old assignee back', () => {
    const first = nextAssignment(null, version('priya', '2026-03-10 09:00:00'), undefined, NOW, true)!;
    const second = nextAssignment(first, version('oliver', '2026-03-10 09:05:00'), undefined, NOW)!;
    expect(second).toMatchObject({ to: 'oliver', since: '2026-03-10 09:05:00' });
    expect(nextAssignment(second, version('priya', '2026-03-10 09:00:00'), undefined, NOW)).toBeNull();
  });

  it('unassigned, then assigned to the same person again, is a new assignment', () => {
    const first = nextAssignment(null, version('priya', '2026-03-10 09:00:00'), undefined, NOW, true)!;
    const none = nextAssignment(first, version(null, '2026-03-10 09:05:00'), undefined, NOW)!;
    expect(nextAssignment(none, version('priya', '2026-03-10 09:06:00'), undefined, NOW)).toMatchObject({ to: 'priya', since: '2026-03-10 09:06:00' });
  });

  it('through Slack it knows who; an edit through Slack that kept the assignee of an action never seen tells nobody', () => {
    expect(nextAssignment(null, version('priya', '2026-03-10 09:00:00'), { by: amelia, previousAssignee: null }, NOW)).toMatchObject({
      by: 'U0AMELIA',
      quiet: false,
    });
    expect(nextAssignment(null, version('priya', '2026-03-10 09:00:00'), { by: amelia, previousAssignee: 'priya' }, NOW)?.quiet).toBe(true);
  });

  it('an action seen unassigned is remembered so; assigning it later is news', () => {
    const none = nextAssignment(null, version(null, '2026-03-10 09:00:00'), undefined, NOW)!;
    expect(none).toMatchObject({ to: null, quiet: true });
    expect(nextAssignment(none, version('priya', '2026-03-10 09:05:00'), undefined, NOW)).toMatchObject({ to: 'priya', quiet: false });
  });
});
