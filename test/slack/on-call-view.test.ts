import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import type { OnCallNow } from '../../src/services/urgent/on-call.js';
import { parseCommand } from '../../src/slack/commands/parse.js';
import { onCallHomeBlocks, onCallMessage, onItText } from '../../src/slack/views/on-call.js';

const now = new Date('2027-06-15T09:40:00Z');
const ctx = { now, timezone: 'Europe/London', showTask: true };
const view = (no: string, task: string): ActionView => ({
  id: no.padStart(24, '0'),
  actionNo: no,
  task,
  due: new Date('2027-06-15T12:00:00Z'),
  urgent: true,
  completed: null,
  assignee: null,
});
const day = { name: 'Day', start: '07:00', end: '19:00' };
const occurrence = {
  shift: day,
  date: '2027-06-15',
  startsAt: new Date('2027-06-15T06:00:00Z'),
  endsAt: new Date('2027-06-15T18:00:00Z'),
  id: '2027-06-15/Day',
};
const onCall = (actions: OnCallNow['actions'], extra: Partial<OnCallNow> = {}): OnCallNow => ({
  shifts: { shifts: [day], isDefault: false, timezone: 'Europe/London', current: occurrence, next: occurrence },
  seniors: ['U0PRIYA'],
  actions,
  more: 0,
  ...extra,
});
const text = (blocks: unknown[]) => JSON.stringify(blocks);

describe('who’s on now, as the views say it', () => {
  it('nobody yet, and how long unanswered; or each person on it (the list the merger feeds), since when', () => {
    const began = new Date('2027-06-15T09:15:00Z');
    expect(onItText({ began, onIt: [] }, ctx)).toBe(':hourglass_flowing_sand: *nobody yet*, unanswered for 25 minutes');
    const two = onItText(
      {
        began,
        onIt: [
          { name: 'Priya Shah', slackUserId: 'U0PRIYA', since: new Date('2027-06-15T09:20:00Z') },
          { name: 'Agency <nurse> & co', since: new Date('2027-06-15T09:25:00Z') },
        ],
      },
      ctx,
    );
    expect(two).toMatch(/^:raising_hand: <@U0PRIYA> on it since <!date\^\d+\^\{time\}\|[^>]+>, Agency &lt;nurse&gt; &amp; co on it since /);
  });

  it('the command’s answer: the shift, seniors, the managers’ channel unset with how to set it, and the task text', () => {
    const m = onCallMessage(onCall([{ view: view('301', 'Mrs Patel needs insulin'), began: new Date('2027-06-15T09:00:00Z'), onIt: [] }]), ctx);
    expect(m.text).toBe('On now: the Day shift · 1 open urgent action, 1 with nobody on it yet');
    expect(m.text).not.toContain('Patel');
    const all = text(m.blocks);
    expect(all).toContain('*Seniors on the Day shift:* <@U0PRIYA>');
    expect(all).toContain('/care escalation managers #channel');
    expect(all).toContain('Mrs Patel needs insulin');
    expect(text(onCallMessage(onCall([]), ctx).blocks)).toContain('No open urgent action is waiting');
  });

  it('the Home tab: nobody-yet first, no task text, at most five and a pointer to the rest', () => {
    const actions = Array.from({ length: 7 }, (_, i) => ({
      view: view(String(300 + i), 'Mrs Patel needs insulin'),
      began: new Date('2027-06-15T09:00:00Z'),
      onIt: i === 0 ? [{ name: 'Priya', slackUserId: 'U0PRIYA', since: now }] : [],
    }));
    const home = text(onCallHomeBlocks(onCall(actions, { more: 3 }), ctx));
    expect(home).not.toContain('Patel');
    expect(home).not.toContain('#300*');
    expect(home).toContain('…and 5 more: `/care oncall`');
  });

  it('/care oncall parses alone (and as on-call); words after it get one sentence', () => {
    expect(parseCommand('oncall')).toEqual({ kind: 'oncall' });
    expect(parseCommand('on-call')).toEqual({ kind: 'oncall' });
    expect(parseCommand('oncall please')).toMatchObject({ kind: 'error' });
    expect(parseCommand('escalation repeat 15 3')).toEqual({
      kind: 'escalation',
      command: { kind: 'change', change: { kind: 'repeat', repeat: { everyMinutes: 15, times: 3 } } },
    });
    expect(parseCommand('escalation repeat 15min 3x')).toMatchObject({ command: { change: { repeat: { everyMinutes: 15, times: 3 } } } });
    expect(parseCommand('escalation repeat off')).toMatchObject({ command: { change: { kind: 'repeat', repeat: null } } });
    for (const wrong of ['escalation repeat 4 3', 'escalation repeat 15 0', 'escalation repeat 15', 'escalation repeat 15 3 4'])
      expect(parseCommand(wrong)).toMatchObject({ kind: 'error' });
  });
});
