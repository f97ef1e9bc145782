import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../../src/services/action-model.js';
import { showTasksNow, type HandoverChannel } from '../../../src/services/shift-work/handover-channels.js';
import { HANDOVER_TOP, handoverContent, openReason, type HandoverShifts } from '../../../src/services/shift-work/handover-content.js';
import { renderHandover } from '../../../src/slack/views/handover.js';

/** Night 2027-10-30 19:00 BST (18:00Z) to 07:00 GMT (07:00Z): 13 hours, the clocks go back inside it. */
const shifts: HandoverShifts = {
  outgoing: { name: 'Day', startsAt: new Date('2027-10-30T06:00:00Z') },
  incoming: { name: 'Night', startsAt: new Date('2027-10-30T18:00:00Z'), endsAt: new Date('2027-10-31T07:00:00Z'), id: '2027-10-30/Night' },
};

let n = 0;
function view(over: Partial<ActionView> = {}): ActionView {
  n++;
  return {
    id: `a${n}`.padEnd(24, '0'),
    actionNo: String(1000 + n),
    task: `Task ${n}`,
    due: null,
    urgent: false,
    completed: null,
    assignee: { slackUserId: 'U1' },
    ...over,
  };
}

describe('what a handover says', () => {
  it('puts each open action under the first reason it is the incoming shift’s concern', () => {
    expect(openReason(view({ due: new Date('2027-10-30T17:00:00Z') }), shifts)).toBe('overdue');
    expect(openReason(view({ due: new Date('2027-11-03T10:00:00Z'), urgent: true }), shifts)).toBe('urgent');
    expect(openReason(view({ due: new Date('2027-10-31T06:59:00Z') }), shifts)).toBe('next-shift');
    expect(openReason(view({ due: new Date('2027-10-31T01:30:00Z'), assignee: null }), shifts)).toBe('unassigned');
    expect(openReason(view({ due: new Date('2027-10-31T07:00:00Z') }), shifts)).toBeNull(); // the next Day's
    expect(openReason(view({ due: new Date('2027-10-30T17:00:00Z'), completed: new Date('2027-10-30T17:30:00Z') }), shifts)).toBeNull();
  });

  it('counts completed (with who), open and new within the outgoing shift, and lists only the top few', () => {
    const done = Array.from({ length: 8 }, (_, i) =>
      view({ completed: new Date(Date.parse('2027-10-30T07:00:00Z') + i * 60_000), ...(i === 0 ? { completedBy: { slackUserId: 'U0SOPHIE' } } : {}) }),
    );
    const doneBefore = view({ completed: new Date('2027-10-30T05:59:00Z') });
    const created = view({ due: new Date('2027-10-30T20:00:00Z') });
    const c = handoverContent(
      shifts,
      [created],
      [...done, doneBefore]
        .map((v) => ({ view: v, created: new Date('2027-10-29T10:00:00Z') }))
        .concat([{ view: created, created: new Date('2027-10-30T12:00:00Z') }]),
    );
    expect(c.completed.total).toBe(8);
    expect(c.completed.top).toHaveLength(HANDOVER_TOP);
    expect(c.completed.top[0]).toEqual({ action: done[0], by: 'U0SOPHIE' });
    expect(c.completed.top[1]!.by).toBeNull();
    expect(c.open).toMatchObject({ total: 1, nextShift: 1, overdue: 0 });
    expect(c.created.top).toEqual([created]);
    const post = renderHandover(
      c,
      { now: new Date('2027-10-30T18:00:00Z'), timezone: 'Europe/London', showTask: false, shared: true },
      { channelId: 'C1', occurrence: shifts.incoming.id },
    );
    const json = JSON.stringify(post);
    expect(json).not.toContain('Task ');
    expect(json).toContain('…and 3 more completed');
    expect(post.text).toBe('Handover to the Night shift: 8 completed, 1 still open, 1 new');
    expect(post.blocks!.length).toBeLessThanOrEqual(50);
  });

  it('shows task text only where opted in; a public channel needs the second step, and a private opt-in does not carry over', () => {
    const ch = (o: Partial<HandoverChannel>): HandoverChannel => ({
      channelId: 'C1',
      showTasks: false,
      channelPrivate: false,
      publicConfirmed: false,
      setUpBy: 'U1',
      at: 0,
      ...o,
    });
    expect(showTasksNow(ch({ channelPrivate: true }), true)).toBe(false);
    expect(showTasksNow(ch({ showTasks: true, channelPrivate: true }), true)).toBe(true);
    expect(showTasksNow(ch({ showTasks: true, channelPrivate: true }), false)).toBe(false);
    expect(showTasksNow(ch({ showTasks: true }), false)).toBe(false);
    expect(showTasksNow(ch({ showTasks: true, publicConfirmed: true }), false)).toBe(true);
    expect(showTasksNow(ch({ showTasks: true, publicConfirmed: true }), null)).toBe(false);
  });
});
