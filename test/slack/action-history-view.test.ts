/**
 * The History renderer: what each kind of change says, and its time on the
 * reader's own clock (across a clock change, and in another zone).
 */
import { describe, expect, it } from 'vitest';
import { type HistoryEntry, historyEntries } from '../../src/services/actions/action-history.js';
import { historyLines, historyModal } from '../../src/slack/views/action-history.js';

const SOPHIE = 'U0SOPHIE';
const entry = (at: string, verb: string, by: string | null, details: Record<string, unknown> = {}): HistoryEntry => ({ at: new Date(at), verb, by, details });
const people = { c1: { slackUserId: 'U0PRIYA' }, c2: { name: 'Dana Wells' } };

describe('historyLines', () => {
  it('a snooze that brought the due time forward reads "Due moved earlier", a later one "Snoozed"', () => {
    const lines = historyLines(
      [
        entry('2026-11-24T10:00:00Z', 'action.snooze', SOPHIE, { from: '2026-11-26 08:00:00', to: '2026-11-25 08:00:00' }),
        entry('2026-11-24T10:01:00Z', 'action.snooze', SOPHIE, { from: '2026-11-25 08:00:00', to: '2026-11-27 08:00:00' }),
      ],
      'Europe/London',
    );
    expect(lines).toEqual([
      '*Tuesday 24 November 2026*',
      'Due moved earlier by <@U0SOPHIE> from Thu 26 Nov 08:00 to Wed 25 Nov 08:00 at 10:00',
      'Snoozed by <@U0SOPHIE> from Wed 25 Nov 08:00 to Fri 27 Nov 08:00 at 10:01',
    ]);
  });

  it('times on the reader’s clock across the UK clocks going forward (29 March 2026, 01:00 UTC)', () => {
    const lines = historyLines(
      [entry('2026-03-29T00:30:00Z', 'action.create', SOPHIE, { to: 'c1' }), entry('2026-03-29T01:30:00Z', 'action.complete', SOPHIE)],
      'Europe/London',
      people,
    );
    expect(lines).toEqual(['*Sunday 29 March 2026*', 'Created by <@U0SOPHIE> in Slack, assigned to <@U0PRIYA> at 00:30', 'Completed by <@U0SOPHIE> at 02:30']);
  });

  it('the same changes read in New York: other times, and a new day heading where the local day changes', () => {
    const lines = historyLines(
      [entry('2026-03-10T03:30:00Z', 'care.create', null, { generated: true }), entry('2026-03-10T05:10:00Z', 'seen.complete', null, { generated: true })],
      'America/New_York',
    );
    expect(lines).toEqual(['*Monday 9 March 2026*', 'Created by the care system at 23:30', '*Tuesday 10 March 2026*', 'Completed by the care system at 01:10']);
  });

  it('snoozes say from when to when (in the reader’s zone), takes and reassignments say from whom to whom', () => {
    const lines = historyLines(
      [
        entry('2026-11-03T09:00:00Z', 'action.snooze', SOPHIE, { from: '2026-11-03 10:00:00', to: '2026-11-04 10:00:00' }),
        entry('2026-11-03T09:01:00Z', 'action.snooze', SOPHIE, { from: '2026-11-04 10:00:00', to: '2026-11-03 10:00:00', undo: true }),
        entry('2026-11-03T09:02:00Z', 'action.assign', 'U0PRIYA', { from: 'c2', to: 'c1', via: 'take-it' }),
        entry('2026-11-03T09:03:00Z', 'reassign', 'U0AMELIA', { from: 'c1', to: 'c2' }),
        entry('2026-11-03T09:04:00Z', 'seen.assign', null, { from: 'c2', to: 'c9' }),
        entry('2026-11-03T09:05:00Z', 'seen.urgent', null),
        entry('2026-11-03T09:06:00Z', 'action.update', SOPHIE, { dueFrom: '2026-11-03 10:00:00', dueTo: '2026-11-03 12:00:00', urgent: false }),
      ],
      'Europe/London',
      people,
    );
    expect(lines.slice(1)).toEqual([
      'Snoozed by <@U0SOPHIE> from Tue 3 Nov 10:00 to Wed 4 Nov 10:00 at 09:00',
      'Snooze undone by <@U0SOPHIE>: due Tue 3 Nov 10:00 again at 09:01',
      'Taken by <@U0PRIYA> from Dana Wells at 09:02',
      'Reassigned by <@U0AMELIA> from <@U0PRIYA> to Dana Wells at 09:03',
      'Assigned to a care user in the care system (was Dana Wells) at 09:04',
      'Made urgent in the care system at 09:05',
      'Edited by <@U0SOPHIE>: due moved from Tue 3 Nov 10:00 to Tue 3 Nov 12:00; no longer urgent at 09:06',
    ]);
  });

  it('completions, reopens and undos, in Slack and in the care system', () => {
    const lines = historyLines(
      [
        entry('2026-06-01T08:00:00Z', 'action.complete', SOPHIE),
        entry('2026-06-01T08:01:00Z', 'action.reopen', SOPHIE, { undo: true }),
        entry('2026-06-01T08:02:00Z', 'seen.complete', null),
        entry('2026-06-01T08:03:00Z', 'seen.reopen', null),
        entry('2026-06-01T08:04:00Z', 'action.reopen', 'U0PRIYA'),
      ],
      'Europe/London',
    );
    expect(lines.slice(1)).toEqual([
      'Completed by <@U0SOPHIE> at 09:00',
      'Completion undone by <@U0SOPHIE> at 09:01',
      'Completed in the care system at 09:02',
      'Reopened in the care system at 09:03',
      'Reopened by <@U0PRIYA> at 09:04',
    ]);
  });

  it('escalation steps as recorded today (issue 32): each with whom it reached, or why nobody, from the audit row', () => {
    const rows = [
      {
        id: 1,
        at: Date.parse('2026-06-01T09:15:00Z'),
        teamId: 'T1',
        userId: '-',
        verb: 'escalate',
        actionId: 'a1',
        details: { step: 'thread', episode: 'e', to: ['C0LEADS'] },
      },
      {
        id: 2,
        at: Date.parse('2026-06-01T09:30:00Z'),
        teamId: 'T1',
        userId: '-',
        verb: 'escalate',
        actionId: 'a1',
        details: { step: 'seniors', episode: 'e', to: [], shift: 'Night', skipped: 'no seniors named for the Night shift', reason: 'no-seniors' },
      },
      {
        id: 3,
        at: Date.parse('2026-06-01T09:30:00Z'),
        teamId: 'T1',
        userId: '-',
        verb: 'escalate',
        actionId: 'a1',
        details: { step: 'managers', episode: 'e', to: ['C0GENERAL'] },
      },
    ];
    const lines = historyLines(historyEntries({ created: '2026-06-01 09:00:00', tag: null }, rows), 'Europe/London');
    expect(lines.slice(2)).toEqual([
      'Escalated: reminder in the alert thread in <#C0LEADS> at 10:15',
      'Escalation: nobody DMed, no seniors are named for the Night shift at 10:30',
      'Escalated to <#C0GENERAL> (the managers’ channel) at 10:30',
    ]);
  });

  it('escalations: a DM to a person, a reminder in the alert thread, a channel; unknown verbs are left out', () => {
    const lines = historyLines(
      [
        entry('2026-06-01T09:32:00Z', 'escalate', null, { step: 1, to: 'U0AMELIA' }),
        entry('2026-06-01T09:42:00Z', 'escalate', null, { step: 'thread', to: 'thread' }),
        entry('2026-06-01T09:52:00Z', 'escalate', null, { step: 3, to: 'C0LEADS' }),
        entry('2026-06-01T09:52:30Z', 'escalate', null, { step: 2, to: 'f'.repeat(24) }),
        entry('2026-06-01T09:53:00Z', 'something.new', SOPHIE),
      ],
      'Europe/London',
      { ['f'.repeat(24)]: { name: 'Dana Wells' } },
    );
    expect(lines.slice(1)).toEqual([
      'Escalated to <@U0AMELIA> (DM) at 10:32',
      'Escalated: reminder in the alert thread at 10:42',
      'Escalated to <#C0LEADS> at 10:52',
      'Escalated to Dana Wells (DM) at 10:52',
    ]);
  });
});

describe('historyModal', () => {
  const view = { id: 'a'.repeat(24), actionNo: '42', task: 'Secret task text', due: null, urgent: false, completed: null, assignee: null };
  it('names the action, never its task, and says where the times are from', () => {
    const modal = historyModal(view, { entries: [entry('2026-06-01T08:00:00Z', 'action.complete', SOPHIE)], people: {}, omitted: 3 }, 'Europe/London');
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('History of action #42');
    expect(text).toContain('3 earlier changes not shown');
    expect(text).toContain('Completed by <@U0SOPHIE> at 09:00');
    expect(text).toContain('Times are in Europe/London');
    expect(text).not.toContain('Secret task text');
  });

  it('many entries: split into sections Slack accepts (3,000 characters each)', () => {
    const many = Array.from({ length: 80 }, (_, i) =>
      entry(new Date(Date.UTC(2026, 5, 1, 8, i)).toISOString(), 'reassign', 'U0AMELIA', { from: 'c1', to: 'c2' }),
    );
    const modal = historyModal(view, { entries: many, people, omitted: 0 }, 'Europe/London');
    const sections = modal.blocks.filter((b) => b.type === 'section') as { text: { text: string } }[];
    expect(sections.length).toBeGreaterThan(2);
    for (const s of sections) expect(s.text.text.length).toBeLessThanOrEqual(3000);
    expect(
      sections
        .map((s) => s.text.text)
        .join('\n')
        .match(/Reassigned/g),
    ).toHaveLength(80);
  });
});
