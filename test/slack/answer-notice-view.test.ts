/**
 * The assignee's DM about an answer, drawn again (issue 33): as sent while the action is open and theirs; once
 * it is completed, not urgent or no longer theirs it says so and has no buttons; an undone answer is said so.
 */
import { describe, expect, it } from 'vitest';
import type { ActionView, AnswerLine } from '../../src/services/action-model.js';
import { answerNoticeState, parseAnswerOccurrence } from '../../src/services/urgent/answer-notice-state.js';
import { answerNotice } from '../../src/slack/views/episode-answers.js';

const view: ActionView = {
  id: 'b'.repeat(24),
  actionNo: '301',
  task: 'Mrs Patel needs her insulin',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: { careUserId: 'c'.repeat(24), name: 'Sophie Hale', slackUserId: 'U0SOPHIE' },
};
const dm = { now: new Date('2027-06-15T10:00:00Z'), timezone: 'Europe/London', showTask: true, shared: false };
const onIt: AnswerLine = { answer: 'on-it', by: 'U0PRIYA', at: new Date('2027-06-15T09:04:00Z') };
const json = (m: { blocks: unknown[] }) => JSON.stringify(m.blocks);
const hasButtons = (m: { blocks: unknown[] }) => m.blocks.some((b) => (b as { type: string }).type === 'actions');
const draw = (a: ActionView, undoneAt: number | null = null) => answerNotice(a, dm, onIt, answerNoticeState(a, 'U0SOPHIE', undoneAt));

describe('the answer DM drawn again', () => {
  it('open and still theirs: as sent, with the card’s buttons', () => {
    const m = draw(view);
    expect(m).toEqual(answerNotice(view, dm, onIt));
    expect(json(m)).toContain('(it stays assigned to you)');
    expect(hasButtons(m)).toBe(true);
  });

  it('completed, not urgent, reassigned or unassigned: says so, drops “it stays assigned to you” and every button', () => {
    const cases: [ActionView, string][] = [
      [{ ...view, completed: new Date('2027-06-15T09:30:00Z') }, 'It was completed in the care system'],
      [{ ...view, urgent: false }, 'It is no longer urgent'],
      [{ ...view, assignee: { careUserId: 'd'.repeat(24), name: 'Oliver Reed', slackUserId: 'U0OLIVER' } }, 'It is with <@U0OLIVER> now, no longer to you'],
      [{ ...view, assignee: null }, 'It is assigned to nobody now, no longer to you'],
    ];
    for (const [a, words] of cases) {
      const m = draw(a);
      expect(json(m)).toContain(words);
      expect(json(m)).not.toContain('(it stays assigned to you)');
      expect(hasButtons(m)).toBe(false);
      // What it told stays: Priya was on it. The notification text never carries the task.
      expect(json(m)).toContain('<@U0PRIYA> is on it since');
      expect(m.text).not.toContain('insulin');
    }
  });

  it('an undone answer is said so; the action is still theirs, so its buttons stay', () => {
    const m = draw(view, Date.parse('2027-06-15T09:06:00Z'));
    expect(json(m)).toContain('That answer was undone at');
    expect(hasButtons(m)).toBe(true);
  });

  it('reads the DM’s occurrence, `<episode>#<answer id>`', () => {
    expect(parseAnswerOccurrence('2027-06-15 09:00:00#12')).toEqual({ episode: '2027-06-15 09:00:00', answerId: 12 });
    expect(parseAnswerOccurrence('2027-06-15 09:00:00')).toBeNull();
    expect(parseAnswerOccurrence('#3')).toBeNull();
  });
});
