import { describe, expect, it } from 'vitest';
import { lineOf, noManagersChannel, noSeniors, skipOf, stepsBefore } from '../../../src/services/urgent/escalation-steps.js';

const at = '2027-06-15T20:00:00.000Z';

describe('the record of escalation steps', () => {
  it('reads why a step reached nobody from its reason, or from the words of a record older than reasons', () => {
    expect(skipOf(noSeniors('Night'))).toEqual({ reason: 'no-seniors', shift: 'Night' });
    expect(skipOf(noManagersChannel())).toEqual({ reason: 'no-managers-channel' });
    expect(skipOf({ skipped: 'no seniors named for the Late shift' })).toEqual({ reason: 'no-seniors', shift: 'Late' });
    expect(skipOf({ skipped: 'no managers’ channel set' })).toEqual({ reason: 'no-managers-channel' });
    expect(skipOf({ skipped: 'something else' })).toEqual({ reason: 'other', words: 'something else' });
    expect(skipOf({})).toBeUndefined();
  });

  it('a step as the views show it, and the steps before one (for drawing its post again)', () => {
    const done = [
      { step: 'thread' as const, at, to: ['C0LEADS'] },
      { step: 'seniors' as const, at, to: [], ...noSeniors('Night') },
      { step: 'managers' as const, at, to: ['C0GENERAL'] },
    ];
    expect(lineOf(done[1]!)).toEqual({ step: 'seniors', to: [], at: new Date(at), shift: 'Night', skipped: { reason: 'no-seniors', shift: 'Night' } });
    expect(stepsBefore({ done }, 'managers').map((l) => l.step)).toEqual(['thread', 'seniors']);
    expect(stepsBefore({ done }, 'thread')).toEqual([]);
  });
});
