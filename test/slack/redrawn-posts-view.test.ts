/** Issue 32: what an urgent alert and an escalation post say when drawn again as their action is now (pure views). */
import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { escalationFollowing } from '../../src/slack/views/escalation-follow.js';
import { urgentAlert } from '../../src/slack/views/notices.js';

const ID = 'b'.repeat(24);
const open: ActionView = {
  id: ID,
  actionNo: '42',
  task: 'Mrs Patel needs her insulin',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: null,
};
const ctx = { now: new Date('2027-06-15T10:00:00Z'), timezone: 'Europe/London', showTask: true, shared: true };
const buttons = (m: { blocks: unknown[] }) => JSON.stringify(m.blocks).match(/"text":"(Take it|Complete|Reopen)"/g) ?? [];
const completedBy = { ...open, completed: new Date('2027-06-15T10:30:00Z'), completedBy: { slackUserId: 'U0PRIYA' } };

describe('an urgent alert drawn as its action is now', () => {
  it('open and urgent: as posted, with Take it', () => {
    const m = urgentAlert(open, ctx);
    expect(m.text).toBe('Urgent action #42');
    expect(buttons(m)).toContain('"text":"Take it"');
  });

  it('completed through Slack: by whom and when, no Take it, Reopen instead of Complete', () => {
    const m = urgentAlert(completedBy, ctx);
    expect(m.text).toBe('Urgent action #42 was completed by <@U0PRIYA>');
    expect(JSON.stringify(m.blocks)).toContain('<!date^');
    expect(buttons(m)).toContain('"text":"Reopen"');
    expect(buttons(m)).not.toContain('"text":"Take it"');
  });

  it('completed in the care system: says so', () => {
    expect(urgentAlert({ ...open, completed: new Date('2027-06-15T10:30:00Z') }, ctx).text).toBe('Urgent action #42 was completed in the care system');
  });

  it('no longer urgent: says so, no Take it', () => {
    const m = urgentAlert({ ...open, urgent: false }, ctx);
    expect(m.text).toBe('Action #42 is no longer urgent');
    expect(buttons(m)).toContain('"text":"Complete"');
    expect(buttons(m)).not.toContain('"text":"Take it"');
  });
});

describe('an escalation post follows its alert', () => {
  const info = { step: 'managers' as const, unansweredMinutes: 45, location: null };

  it('while nobody answered: the escalation as posted', () => {
    expect(escalationFollowing(open, ctx, info, 'open').text).toBe('Escalated: urgent action #42, unanswered for 45 minutes');
  });

  it('completed, no longer urgent or taken: says so, with no Take it', () => {
    const done = escalationFollowing(completedBy, ctx, info, 'completed');
    expect(done.text).toBe('Urgent action #42 was completed by <@U0PRIYA>');
    expect(buttons(done)).not.toContain('"text":"Take it"');
    expect(escalationFollowing({ ...open, urgent: false }, ctx, info, 'not-urgent').text).toBe('Action #42 is no longer urgent');
    const taken = escalationFollowing({ ...open, assignee: { slackUserId: 'U0SOPHIE' } }, ctx, info, 'taken');
    expect(taken.text).toBe('Urgent action #42 was taken: it is with <@U0SOPHIE>');
    expect(buttons(taken)).not.toContain('"text":"Take it"');
  });

  it('the thread reminder: one line', () => {
    const m = escalationFollowing(completedBy, ctx, { ...info, step: 'thread' }, 'completed');
    expect(m.blocks).toHaveLength(1);
    expect(JSON.stringify(m.blocks)).toContain('was completed by <@U0PRIYA>');
  });
});
