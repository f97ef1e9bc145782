/**
 * What a carer reads on an urgent alert's answers and their forms (issue 33), found by driving the playground
 * (test/demo/shot-answers.ts): a two-person action says so before anyone answers, and the forms' note is
 * labelled once (Slack itself adds "(optional)").
 */
import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { answerConfirmation } from '../../src/slack/views/answer-confirmation.js';
import { cantModal, onItModal } from '../../src/slack/views/answer-modals.js';
import { urgentAlert } from '../../src/slack/views/notices.js';

const view: ActionView = {
  id: 'b'.repeat(24),
  actionNo: '301',
  task: 'Hoist Mr Grant back to bed',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: null,
};
const ctx = { now: new Date('2027-06-15T10:00:00Z'), timezone: 'Europe/London', showTask: true, shared: true };
const words = (m: { blocks: unknown[] }) => JSON.stringify(m.blocks);
const labels = (v: { blocks: unknown[] }) =>
  (v.blocks as { type: string; label?: { text: string } }[]).filter((b) => b.type === 'input').map((b) => b.label!.text);

describe('a two-person alert', () => {
  it('says it needs two staff before anyone answers, then 1 of 2, and neither once two are on it', () => {
    expect(words(urgentAlert(view, { ...ctx, answers: { lines: [], staff: [], needed: 2 } }))).toContain('Needs two staff — nobody on it yet');
    const one = words(urgentAlert(view, { ...ctx, answers: { lines: [], staff: ['U0PRIYA'], needed: 2 } }));
    expect(one).toContain('1 of 2: <@U0PRIYA> — need one more');
    expect(one).not.toContain('Needs two staff');
    const two = words(urgentAlert(view, { ...ctx, answers: { lines: [], staff: ['U0PRIYA', 'U0AMELIA'], needed: 2 } }));
    expect(two).not.toMatch(/Needs two staff|need one more/);
  });

  it('tells who is on it from who can’t at a glance (a different sign before each)', () => {
    const lines = [
      { answer: 'cant' as const, by: 'U0AMELIA', at: new Date('2027-06-15T09:01:00Z'), reason: 'with-resident' },
      { answer: 'on-it' as const, by: 'U0PRIYA', at: new Date('2027-06-15T09:02:00Z') },
    ];
    const shown = words(urgentAlert(view, { ...ctx, answers: { lines, staff: ['U0PRIYA'], needed: 2 } }));
    expect(shown).toContain(":no_entry_sign: <@U0AMELIA> can't: with another resident");
    expect(shown).toContain(':raising_hand: <@U0PRIYA> is on it since');
    expect(shown).toContain(':busts_in_silhouette: 1 of 2: <@U0PRIYA>');
    const told = (answer: 'cant' | 'on-it') => JSON.stringify(answerConfirmation(view, answer, 'recorded', { note: null, undo: null }).blocks);
    expect(told('cant')).toContain(':no_entry_sign: Noted that you can’t');
    expect(told('on-it')).toContain(':raising_hand: You’re on it');
  });

  it('an action needing one person says nothing of staff before anyone answers', () => {
    expect(words(urgentAlert(view, { ...ctx, answers: { lines: [], staff: [], needed: 1 } }))).not.toMatch(/staff|of 1/);
  });
});

describe("the I'm on it and I can't forms", () => {
  it('label the optional note "Note" once (Slack adds "(optional)" itself), and say what I can’t does next in plain words', () => {
    const onIt = onItModal('sealed', { label: '#301', assignee: null });
    const cant = cantModal('sealed', { label: '#301' });
    expect(labels(onIt)).toContain('Note');
    expect(labels(cant)).toEqual(['Why?', 'Note']);
    expect(JSON.stringify(cant.blocks)).toContain('Its escalation moves on to the next step straight away');
  });
});
