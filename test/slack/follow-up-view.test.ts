import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import type { FollowUpDmState } from '../../src/services/renderers.js';
import { parseFollowUpValue } from '../../src/slack/ids.js';
import { escalationLineText, escalationMessage } from '../../src/slack/views/escalation.js';
import { followUpMessage, handBackAlert } from '../../src/slack/views/follow-up.js';

const ID = 'b'.repeat(24);
const view: ActionView = {
  id: ID,
  actionNo: '301',
  task: 'Mrs Patel needs her insulin',
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: { careUserId: 'c'.repeat(24), name: 'Sophie Hale', slackUserId: 'U0SOPHIE' },
};
const dm = { now: new Date('2027-06-15T10:00:00Z'), timezone: 'Europe/London', showTask: true, shared: false };
const heldSince = new Date('2027-06-15T09:02:00Z');
const ref = `2027-06-15 09:00:00@${heldSince.toISOString()}`;
const buttons = (m: { blocks: unknown[] }) =>
  m.blocks.flatMap((b) =>
    ((b as { elements?: { type: string; text?: { text: string } }[] }).elements ?? []).filter((e) => e.type === 'button').map((e) => e.text!.text),
  );
const draw = (state: FollowUpDmState, a: ActionView = view) => followUpMessage(a, dm, { ref, heldSince, via: 'taken', state });

describe('the follow-up DM', () => {
  it('says it is still open, since when it is held, with Done, Still on it and Hand back (asked first); the fallback has no task text', () => {
    const m = draw({ kind: 'open' });
    expect(m.text).toBe('Still open: urgent action #301');
    expect(JSON.stringify(m.blocks)).toContain('Mrs Patel needs her insulin');
    expect(JSON.stringify(m.blocks)).toContain('you took it at <!date^');
    expect(buttons(m)).toEqual(['Done', 'Still on it', 'Hand back']);
    const handBack = (m.blocks as { elements?: { action_id?: string; value?: string; confirm?: { title: { text: string } } }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'care_followup_hand_back')!;
    expect(handBack.confirm?.title.text).toBe('Hand back #301?');
    expect(parseFollowUpValue(handBack.value)).toEqual({ actionId: ID, ref });
  });

  it('after Still on it: that button goes, Done and Hand back stay, and it says until when', () => {
    const m = draw({ kind: 'still-on-it', at: new Date('2027-06-15T09:40:00Z'), until: new Date('2027-06-15T10:10:00Z') });
    expect(buttons(m)).toEqual(['Done', 'Hand back']);
    expect(JSON.stringify(m.blocks)).toContain('You said you are still on it at');
  });

  it('ended (completed, not urgent, with someone else, handed back): says so, with no buttons', () => {
    const done = draw({ kind: 'completed' }, { ...view, completed: new Date('2027-06-15T09:50:00Z') });
    expect(JSON.stringify(done.blocks)).toContain('It was completed in the care system');
    const moved = draw({ kind: 'moved' }, { ...view, assignee: { careUserId: 'd'.repeat(24), name: 'Oliver', slackUserId: 'U0OLIVER' } });
    expect(JSON.stringify(moved.blocks)).toContain('It is with <@U0OLIVER> now');
    expect(JSON.stringify(draw({ kind: 'not-urgent' }).blocks)).toContain('no longer urgent');
    expect(JSON.stringify(draw({ kind: 'handed-back', at: heldSince }).blocks)).toContain('You handed it back at');
    for (const state of [{ kind: 'completed' }, { kind: 'moved' }, { kind: 'not-urgent' }, { kind: 'handed-back', at: heldSince }] as FollowUpDmState[])
      expect(buttons(draw(state))).toEqual([]);
  });
});

describe('the alert posted again after a hand-back, and the resumed steps', () => {
  it('names who handed it back, offers Take it, and shows the task only where the channel allows', () => {
    const shared = { ...dm, shared: true, showTask: false };
    const m = handBackAlert({ ...view, assignee: null }, shared, { by: 'U0SOPHIE', at: heldSince });
    expect(JSON.stringify(m.blocks)).toContain('Handed back by <@U0SOPHIE> at');
    expect(buttons(m)).toContain('Take it');
    expect(JSON.stringify(m)).not.toContain('insulin');
    expect(m.text).toBe('Urgent action #301: handed back');
  });

  it('a resumed step says why it ran, on the alert and in its post', () => {
    const at = new Date('2027-06-15T10:02:00Z');
    expect(escalationLineText({ step: 'seniors', to: ['U0PRIYA'], at, again: 'followup' }, 'Europe/London')).toMatch(
      /^Still open after the follow-up: Escalated to <@U0PRIYA> at/,
    );
    expect(escalationLineText({ step: 'managers', to: ['C0MGRS'], at, again: 'hand-back' }, 'Europe/London')).toMatch(/^Handed back: Escalated to <#C0MGRS>/);
    const post = escalationMessage(view, dm, { step: 'seniors', unansweredMinutes: 62, location: null, again: 'followup' });
    expect(JSON.stringify(post.blocks)).toContain('it was taken but is still open, and its follow-up had no answer');
    expect(JSON.stringify(post.blocks)).not.toContain('nobody has taken it');
  });
});
