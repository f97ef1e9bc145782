import { describe, expect, it } from 'vitest';
import { dueRung, readEscalation } from '../../../src/services/urgent/escalation-ladder.js';
import { lineOf, parseProgress } from '../../../src/services/urgent/escalation-steps.js';
import { earlierStepText, escalationLineText, historyStepText } from '../../../src/slack/views/escalation.js';

const BEGAN = Date.parse('2027-06-15T09:00:00Z');
const at = (minutes: number) => BEGAN + minutes * 60_000;
const settings = { afterMinutes: 15, steps: ['thread' as const, 'managers' as const], repeat: { everyMinutes: 10, times: 2 } };

describe('repeats of the last step: which is due when', () => {
  it('repeat r is due r·N minutes after the last step’s time, at most K of them', () => {
    const done = [{ step: 'thread' as const }, { step: 'managers' as const }];
    expect(dueRung(settings, BEGAN, done, at(39.99))).toBeNull();
    expect(dueRung(settings, BEGAN, done, at(40))).toEqual({ step: 'managers', index: 1, dueAt: at(40), repeat: 1 });
    expect(dueRung(settings, BEGAN, [...done, { step: 'managers', repeat: 1 }], at(49))).toBeNull();
    expect(dueRung(settings, BEGAN, [...done, { step: 'managers', repeat: 1 }], at(50))).toMatchObject({ repeat: 2, dueAt: at(50) });
    expect(dueRung(settings, BEGAN, [...done, { step: 'managers', repeat: 1 }, { step: 'managers', repeat: 2 }], at(500))).toBeNull();
  });
  it('the steps of the ladder come first, as before; without a repeat the last step runs once', () => {
    expect(dueRung(settings, BEGAN, [], at(15))).toMatchObject({ step: 'thread' });
    expect(dueRung(settings, BEGAN, [{ step: 'thread' }], at(100))).toEqual({ step: 'managers', index: 1, dueAt: at(30) });
    const { repeat: _r, ...once } = settings;
    expect(dueRung(once, BEGAN, [{ step: 'thread' }, { step: 'managers' }], at(500))).toBeNull();
  });
  it('a last step that reached nobody is not repeated; an earlier skip hands its time on to the repeats too', () => {
    expect(dueRung(settings, BEGAN, [{ step: 'thread' }, { step: 'managers', skipped: 'no managers’ channel set' }], at(500))).toBeNull();
    expect(dueRung(settings, BEGAN, [{ step: 'thread', skipped: 'x' }, { step: 'managers' }], at(25))).toMatchObject({ repeat: 1, dueAt: at(25) });
  });
});

describe('the stored setting and progress', () => {
  it('reads a repeat within its bounds, and drops one outside them', () => {
    expect(readEscalation(JSON.stringify({ steps: ['managers'], repeat: { everyMinutes: 10, times: 3 } })).repeat).toEqual({ everyMinutes: 10, times: 3 });
    expect(readEscalation(JSON.stringify({ steps: ['managers'], repeat: { everyMinutes: 4, times: 3 } })).repeat).toBeUndefined();
    expect(readEscalation(JSON.stringify({ steps: ['managers'], repeat: { everyMinutes: 10, times: 11 } })).repeat).toBeUndefined();
  });
  it('progress with repeats still reads as steps (the step name is kept; the repeat is beside it)', () => {
    const p = parseProgress(
      JSON.stringify({
        occurrence: '2027-06-15 09:00:00',
        done: [
          { step: 'managers', at: '2027-06-15T09:15:00Z', to: ['C0GENERAL'] },
          { step: 'managers', at: '2027-06-15T09:25:00Z', to: ['C0GENERAL'], repeat: 1, of: 3 },
        ],
      }),
    );
    expect(p?.done.map((d) => d.step)).toEqual(['managers', 'managers']);
    expect(p?.done.map(lineOf)[1]?.repeat).toEqual({ n: 1, of: 3 });
  });
});

describe('what a repeat says', () => {
  const line = { step: 'managers' as const, to: ['C0GENERAL'], at: new Date('2027-06-15T10:15:00Z'), repeat: { n: 2, of: 3 } };
  it('on the alert, in History and in a later post: "again", and which of how many', () => {
    expect(escalationLineText(line, 'Europe/London')).toMatch(/^Escalated to <#C0GENERAL> again at <!date\^\d+\^\{time\}\|[^>]+> \(2 of 3\)$/);
    expect(historyStepText(line)).toBe('Escalated to <#C0GENERAL> (the managers’ channel), again (2 of 3)');
    expect(earlierStepText(line, 'Europe/London')).toMatch(/^<#C0GENERAL> was told again at .+ \(2 of 3\)$/);
    const { repeat: _r, ...first } = line;
    expect(escalationLineText(first, 'Europe/London')).not.toContain('again');
  });
});
