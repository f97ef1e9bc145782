import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { escalatedAlert, escalationLineText, escalationMessage, historyStepText } from '../../src/slack/views/escalation.js';
import { escalationGapMessage } from '../../src/slack/views/escalation-setting.js';
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
    // Then the answers' buttons (issue 33): I'm on it, I can't.
    expect(ids(m.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`, `answer_buttons_${ID}`]);
    const line = JSON.stringify(m.blocks[2]);
    expect(line).toContain('Reminder sent in thread at <!date^');
    expect(line).toContain('Escalated to <@U0PRIYA>, <@U0OLIVER> at');
    expect(line).toContain('Escalated to <#C0MGRS> at');
    expect(m.text).toBe('Urgent action #42');
  });

  it('on the post as Slack holds it: only the line changes, a row saying who snoozed it stays', () => {
    const posted = [...urgentAlert(view, ctx).blocks, byRow];
    const first = escalatedAlert(view, ctx, [{ step: 'thread', to: ['C0LEADS'], at }], posted);
    expect(ids(first.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`, `answer_buttons_${ID}`, `by_${ID}`]);
    const second = escalatedAlert(
      view,
      ctx,
      [
        { step: 'thread', to: ['C0LEADS'], at },
        { step: 'managers', to: ['C0MGRS'], at },
      ],
      first.blocks,
    );
    expect(ids(second.blocks)).toEqual([`alert_${ID}`, `card_${ID}`, `escalated_${ID}`, `answer_buttons_${ID}`, `by_${ID}`]);
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

describe('escalation says only what happened (issue 32)', () => {
  const tz = 'Europe/London';
  const thread = { step: 'thread' as const, to: ['C0LEADS'], at };
  const noSeniors = { step: 'seniors' as const, to: [], at, shift: 'Night', skipped: { reason: 'no-seniors' as const, shift: 'Night' } };
  const seniors = { step: 'seniors' as const, to: ['U0PRIYA', 'U0OLIVER'], at, shift: 'Day' };
  const noChannel = { step: 'managers' as const, to: [], at, skipped: { reason: 'no-managers-channel' as const } };
  const managers = (before: Parameters<typeof escalationMessage>[2]['before']) =>
    JSON.stringify(escalationMessage(view, { ...ctx, showTask: false }, { step: 'managers', unansweredMinutes: 45, location: null, before }).blocks);

  it('the alert line names a skipped step and why, never as if it reached someone', () => {
    expect(escalationLineText(noSeniors, tz)).toMatch(/^Nobody DMed at <!date\^\d+\^\{time\}\|[^>]+>: no seniors are named for the Night shift$/);
    expect(escalationLineText(noChannel, tz)).toMatch(/^Managers not told at .*: no managers’ channel is set$/);
    expect(escalationLineText({ ...seniors, to: ['U0PRIYA'], unreached: ['U0OLIVER'] }, tz)).toMatch(
      /^Escalated to <@U0PRIYA> at .* \(could not reach <@U0OLIVER>\)$/,
    );
    const m = escalatedAlert(view, ctx, [thread, noSeniors, noChannel]);
    expect(JSON.stringify(m.blocks[2])).toContain('Nobody DMed at');
  });

  it('the managers’ post says what the steps before it did: no seniors named, the seniors it DMed, or nothing of seniors when the ladder has none', () => {
    const skipped = managers([thread, noSeniors]);
    expect(skipped).not.toContain('asked first');
    expect(skipped).toContain('no seniors are named for the Night shift, so nobody was DMed');
    expect(skipped).toContain('a reminder went to the alert’s thread in <#C0LEADS>');
    expect(managers([thread, seniors])).toContain('the seniors of the Day shift (<@U0PRIYA>, <@U0OLIVER>) were DMed at');
    const noSeniorsStep = managers([thread]);
    expect(noSeniorsStep).not.toMatch(/senior/i);
    expect(managers(undefined)).toContain('The managers’ channel is told: nobody has taken it."');
  });

  it('a senior’s DM names their shift', () => {
    const dm = escalationMessage(view, { ...ctx, shared: false }, { step: 'seniors', unansweredMinutes: 30, location: null, shift: 'Night', before: [thread] });
    expect(JSON.stringify(dm.blocks)).toContain(
      'You are told as a senior on the Night shift: nobody has taken it yet. Before this: a reminder went to the alert’s thread',
    );
  });

  it('History says each step with whom it reached, or why nobody', () => {
    expect(historyStepText(thread)).toBe('Escalated: reminder in the alert thread in <#C0LEADS>');
    expect(historyStepText(seniors)).toBe('Escalated to <@U0PRIYA>, <@U0OLIVER> (DM, the seniors of the Day shift)');
    expect(historyStepText(noSeniors)).toBe('Escalation: nobody DMed, no seniors are named for the Night shift');
    expect(historyStepText(noChannel)).toBe('Escalation: managers not told, no managers’ channel is set');
    expect(historyStepText({ step: 'managers', to: ['C0GENERAL'], at })).toBe('Escalated to <#C0GENERAL> (the managers’ channel)');
  });

  it('the admins’ notice: what is missing, what the ladder did instead, the command that fixes it; the text names no resident', () => {
    const seniorsGap = escalationGapMessage(
      { missing: 'seniors', shift: 'Night', next: 'managers', managersChannel: 'C0GENERAL', actionNo: '42', actionId: ID, at },
      { timezone: tz },
    );
    expect(seniorsGap.text).toBe(
      'No seniors are named for the Night shift, so urgent work nobody takes on that shift is DMed to nobody and goes straight to the managers in <#C0GENERAL>.',
    );
    expect(JSON.stringify(seniorsGap.blocks)).toContain('/care escalation seniors Night @person…');
    const channelGap = escalationGapMessage({ missing: 'managers-channel', next: null, actionNo: '42', actionId: ID, at }, { timezone: tz });
    expect(channelGap.text).toContain('No managers’ channel is set');
    expect(JSON.stringify(channelGap.blocks)).toContain('/care escalation managers #channel');
    expect(JSON.stringify([seniorsGap, channelGap])).not.toMatch(/Patel|insulin/);
  });
});
