import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/care/index.js';
import { recipientInTeam } from '../../../src/store/index.js';
import { takeKey } from '../../../src/services/actions/take-claim.js';
import { lostTakeNote } from '../../../src/slack/listeners/actions/take-it.js';

const action = (over: Partial<Action> = {}) =>
  ({ _id: 'a'.repeat(24), modified: '2027-06-15T09:00:05Z', assigned_to: null, due: '2027-06-15T12:00:00Z', ...over }) as Action;

describe('Take it claimed once (issue 36)', () => {
  it('presses on one version of an action share one claim; a later version is a new one', () => {
    expect(takeKey('T1', action())).toEqual(takeKey('T1', action()));
    expect(takeKey('T1', action({ modified: '2027-06-15T09:00:06Z' })).occurrence).not.toBe(takeKey('T1', action()).occurrence);
    expect(takeKey('T1', action({ assigned_to: 'b'.repeat(24) })).occurrence).not.toBe(takeKey('T1', action()).occurrence);
  });

  it("the claim is the workspace's (erased with it)", () => {
    expect(recipientInTeam(takeKey('T1', action()).recipient, 'T1')).toBe(true);
    expect(recipientInTeam(takeKey('T1', action()).recipient, 'T12')).toBe(false);
  });

  it('a losing press is told who won', () => {
    expect(lostTakeNote('U0WIN', 'U0ME')).toBe('<@U0WIN> took it first, so it was left with them.');
    expect(lostTakeNote(null, 'U0ME')).toBe('Someone else took it first, so it was left with them.');
    expect(lostTakeNote('U0ME', 'U0ME')).toBe('You already took it.');
  });
});
