/**
 * Issue 32: a DM or confirmation card drawn again as its action is now (pure view and the headline rules):
 * the headline keeps the event it told; the card below is the action now.
 */
import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { assignerOf, completerAt, saverOf } from '../../src/services/notices/redraw-kinds.js';
import type { AuditEntry, Delivery } from '../../src/store/index.js';
import { noticeFollowing } from '../../src/slack/views/notice-following.js';

const ID = 'c'.repeat(24);
const done: ActionView = {
  id: ID,
  actionNo: '12',
  task: 'Turn Mrs Khan every two hours',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: false,
  completed: new Date('2027-06-15T11:00:00Z'),
  assignee: { careUserId: 'p', slackUserId: 'U0PRIYA', name: 'Priya' },
} as ActionView;
const dm = { now: new Date('2027-06-15T11:30:00Z'), timezone: 'Europe/London', showTask: true, shared: false };
const buttons = (m: { blocks: unknown[] }) => [...JSON.stringify(m.blocks).matchAll(/"text":"(Complete|Reopen|Take it|View)"/g)].map((x) => x[1]);
const audit = (verb: string, userId: string, at: string, details: Record<string, unknown> = {}): AuditEntry => ({
  id: 1,
  teamId: 'T1',
  userId,
  verb,
  actionId: ID,
  details,
  at: Date.parse(at),
});

describe('a DM drawn again as its action is now', () => {
  it('assignment: "You were assigned action #12 by @amelia", the card completed: Reopen, no Complete', () => {
    const m = noticeFollowing(done, dm, { kind: 'assignment', by: 'U0AMELIA' });
    expect(m.text).toBe('You were assigned action #12 by <@U0AMELIA>');
    expect(JSON.stringify(m.blocks)).toContain('Completed');
    expect(buttons(m)).toEqual(['Reopen']);
  });

  it('change: the headline without what it said of the action then ("It is now due …"); the card says it now', () => {
    const m = noticeFollowing(done, dm, { kind: 'change', change: { kind: 'snooze', by: 'U0SOPHIE' } });
    expect(m.text).toBe('<@U0SOPHIE> snoozed your action #12');
    expect(JSON.stringify(m.blocks)).not.toContain('It is now due');
    const away = noticeFollowing(done, dm, { kind: 'change', change: { kind: 'unassign', by: 'U0SOPHIE' } });
    expect(away.text).toBe('<@U0SOPHIE> took action #12 away from you');
  });

  it('a thread confirmation in a channel without task text: View only, the task hidden', () => {
    const m = noticeFollowing({ ...done, completed: null }, { ...dm, shared: true, showTask: false }, { kind: 'saved', verb: 'Created', by: 'U0PRIYA' });
    expect(m.text).toBe('Created by <@U0PRIYA>: Action #12');
    expect(JSON.stringify(m.blocks)).not.toContain('Mrs Khan');
    expect(buttons(m)).toEqual(['View']);
  });
});

describe('the headline rebuilt from the ledger row and the audit log', () => {
  it('the assigner: the remembered assignment when it is that one, else the audited Slack assignment nearest its time, else the care system', () => {
    const since = '2027-06-15 09:00:05';
    expect(assignerOf(since, { assignment: { to: 'p', since, seen: since, by: 'U0AMELIA', quiet: false }, audit: [] })).toBe('U0AMELIA');
    const later = { to: 'q', since: '2027-06-15 10:00:00', seen: '2027-06-15 10:00:00', by: null, quiet: false };
    const rows = [audit('action.update', 'U0BEN', '2027-06-15T09:00:06Z', { to: 'p' }), audit('action.update', 'U0OLD', '2027-06-15T08:00:00Z', { to: 'x' })];
    expect(assignerOf(since, { assignment: later, audit: rows })).toBe('U0BEN');
    expect(assignerOf(since, { assignment: later, audit: [audit('action.snooze', 'U0BEN', '2027-06-15T09:00:06Z')] })).toBeNull();
  });

  it('the completer: the Slack completion of that time, else nobody', () => {
    const rows = [audit('action.complete', 'U0SOPHIE', '2027-06-15T11:00:01Z', { completed: '2027-06-15 11:00:00' })];
    expect(completerAt('2027-06-15 11:00:00', rows)).toBe('U0SOPHIE');
    expect(completerAt('2027-06-16 08:00:00', rows)).toBeNull();
  });

  it('who saved a thread confirmation: the creator, or the newest edit before the post', () => {
    const row = { kind: 'updated', sentAt: Date.parse('2027-06-15T10:00:00Z'), createdAt: 0 } as Delivery;
    const rows = [
      audit('action.update', 'U0LATE', '2027-06-15T10:05:00Z'),
      audit('action.update', 'U0PRIYA', '2027-06-15T09:59:59Z'),
      audit('action.create', 'U0AMELIA', '2027-06-15T09:00:00Z'),
    ];
    expect(saverOf(row, rows)).toBe('U0PRIYA');
    expect(saverOf({ ...row, kind: 'created' }, rows)).toBe('U0AMELIA');
  });
});
