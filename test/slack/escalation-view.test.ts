import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { escalatedAlert, escalationMessage } from '../../src/slack/views/escalation.js';
import { urgentAlert } from '../../src/slack/views/notices.js';

const ID = 'a'.repeat(24);
const view: ActionView = {
  id: ID,
  actionNo: '42',
  task: 'Mrs Patel needs her insulin',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: null,
};
const ctx = { now: new Date('2027-06-15T10:00:00Z'), timezone: 'Europe/London', showTask: true, shared: true };
const at = new Date('2027-06-15T09:17:00Z');
const ids = (blocks: unknown[]) => blocks.map((b) => (b as { block_id?: string }).block_id ?? (b as { type: string }).type);
const byRow = { type: 'section', block_id: `by_${ID}`, text: { type: 'mrkdwn', text: 'Snoozed by <@U0PRIYA>' } };

describe('the escalation line on an urgent alert', () => {
  it('drawn afresh: the alert, then one line of the steps so far', () => {
    const m = escalatedAlert(view, ctx, [
      { step: 'thread', to: ['C0LEADS'], at },
      { step: 'seniors', to: ['U0PRIYA', 'U0OLIVER'], at },
      { step: 'managers', to: ['C0MGRS'], at },
    ]);
    expect(ids(m.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`]);
    const line = JSON.stringify(m.blocks[2]);
    expect(line).toContain('Reminder sent in thread at <!date^');
    expect(line).toContain('Escalated to <@U0PRIYA>, <@U0OLIVER> at');
    expect(line).toContain('Escalated to <#C0MGRS> at');
    expect(m.text).toBe('Urgent action #42');
  });

  it('on the post as Slack holds it: only the line changes, a row saying who snoozed it stays', () => {
    const posted = [...urgentAlert(view, ctx).blocks, byRow];
    const first = escalatedAlert(view, ctx, [{ step: 'thread', to: ['C0LEADS'], at }], posted);
    expect(ids(first.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`, `by_${ID}`]);
    const second = escalatedAlert(
      view,
      ctx,
      [
        { step: 'thread', to: ['C0LEADS'], at },
        { step: 'managers', to: ['C0MGRS'], at },
      ],
      first.blocks,
    );
    expect(ids(second.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`, `by_${ID}`]);
    expect(JSON.stringify(second.blocks[2])).toContain('Escalated to <#C0MGRS>');
  });
});

describe('what an escalation step posts', () => {
  it('the fallback text names no resident and carries no task text; the task only where allowed', () => {
    for (const step of ['thread', 'seniors', 'managers'] as const) {
      const hidden = escalationMessage(view, { ...ctx, showTask: false }, { step, unansweredMinutes: 30, location: 'Willow Bank' });
      expect(hidden.text).not.toContain('Patel');
      expect(JSON.stringify(hidden)).not.toContain('insulin');
    }
    const dm = escalationMessage(view, { ...ctx, shared: false }, { step: 'seniors', unansweredMinutes: 30, location: 'Willow Bank' });
    expect(dm.text).toBe('Escalated: urgent action #42, unanswered for 30 minutes');
    const shown = JSON.stringify(dm.blocks);
    expect(shown).toContain('insulin');
    expect(shown).toContain('Willow Bank');
    expect(shown).toContain('"Take it"');
  });
});
