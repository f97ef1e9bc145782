import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ESCALATION,
  dueStep,
  isTaken,
  ladderEndsAt,
  nextReachableStep,
  readEscalation,
  stepDueAt,
} from '../../../src/services/urgent/escalation-ladder.js';

const BEGAN = Date.parse('2027-06-15T09:00:00Z');
const at = (minutes: number) => BEGAN + minutes * 60_000;
const ladder = { afterMinutes: 15, steps: ['thread', 'seniors', 'managers'] as const };
const settings = { afterMinutes: ladder.afterMinutes, steps: [...ladder.steps] };

describe('the escalation ladder: which step is due when', () => {
  it('step k is due N·k minutes after the episode began', () => {
    expect([0, 1, 2].map((i) => (stepDueAt(settings, BEGAN, i) - BEGAN) / 60_000)).toEqual([15, 30, 45]);
    expect(ladderEndsAt(settings, BEGAN)).toBe(at(45));
    expect(ladderEndsAt({ afterMinutes: 15, steps: [] }, BEGAN)).toBeNull();
  });

  it('nothing before the first step’s time; then each step in order, only once its time has come', () => {
    expect(dueStep(settings, BEGAN, [], at(14.99))).toBeNull();
    expect(dueStep(settings, BEGAN, [], at(15))).toMatchObject({ step: 'thread', index: 0, dueAt: at(15) });
    expect(dueStep(settings, BEGAN, ['thread'], at(29))).toBeNull();
    expect(dueStep(settings, BEGAN, ['thread'], at(30))).toMatchObject({ step: 'seniors', dueAt: at(30) });
    expect(dueStep(settings, BEGAN, ['thread', 'seniors'], at(45))).toMatchObject({ step: 'managers' });
    expect(dueStep(settings, BEGAN, ['thread', 'seniors', 'managers'], at(500))).toBeNull();
  });

  it('an app that was away catches up one step at a time, never skipping one', () => {
    expect(dueStep(settings, BEGAN, [], at(120))).toMatchObject({ step: 'thread' });
    expect(dueStep(settings, BEGAN, ['thread'], at(120))).toMatchObject({ step: 'seniors' });
  });

  it('a skipped step (nobody to tell) hands its time on to the next', () => {
    expect(dueStep(settings, BEGAN, ['thread', 'seniors'], at(30), ['seniors'])).toMatchObject({ step: 'managers', dueAt: at(30) });
    expect(dueStep(settings, BEGAN, ['thread', 'seniors'], at(29), ['seniors'])).toBeNull();
    expect(dueStep(settings, BEGAN, ['thread', 'seniors'], at(30), [])).toBeNull();
  });

  it('follows the order and subset admins set, and nothing when off', () => {
    const two = { afterMinutes: 10, steps: ['managers' as const, 'thread' as const] };
    expect(dueStep(two, BEGAN, [], at(10))).toMatchObject({ step: 'managers' });
    expect(dueStep(two, BEGAN, ['managers'], at(19))).toBeNull();
    expect(dueStep(two, BEGAN, ['managers'], at(20))).toMatchObject({ step: 'thread' });
    expect(dueStep({ afterMinutes: 10, steps: [] }, BEGAN, [], at(1000))).toBeNull();
  });
});

describe('what counts as taken', () => {
  it('an assignee set after the episode began (Take it, or assigned anywhere) is taken', () => {
    expect(isTaken('u1', { to: 'u1', since: at(5) }, BEGAN)).toBe(true);
  });
  it('an assignee the app has not remembered yet (assigned since its last sight) is taken', () => {
    expect(isTaken('u2', { to: 'u1', since: at(-60) }, BEGAN)).toBe(true);
  });
  it('the assignee it had when it became urgent (or made with it) has not answered: not taken', () => {
    expect(isTaken('u1', { to: 'u1', since: at(-60) }, BEGAN)).toBe(false);
    expect(isTaken('u1', { to: 'u1', since: BEGAN }, BEGAN)).toBe(false);
  });
  it('nobody assigned is not taken', () => {
    expect(isTaken(null, { to: 'u1', since: at(5) }, BEGAN)).toBe(false);
    expect(isTaken(null, null, BEGAN)).toBe(false);
  });
});

describe('the stored setting', () => {
  it('reads as the default until set, and field by field when part of it is unreadable', () => {
    expect(readEscalation(null)).toEqual({ afterMinutes: 15, steps: ['thread', 'seniors', 'managers'], seniors: {}, followupMinutes: 30 });
    expect(readEscalation('not json')).toEqual(readEscalation(null));
    expect(
      readEscalation(JSON.stringify({ afterMinutes: 3, steps: ['managers', 'boss', 'managers'], managersChannel: 'nope', seniors: { Day: ['U0PRIYA', 'x'] } })),
    ).toEqual({
      afterMinutes: 15,
      steps: ['managers'],
      seniors: { Day: ['U0PRIYA'] },
      followupMinutes: 30,
    });
    expect(readEscalation(JSON.stringify({ afterMinutes: 20, steps: [], managersChannel: 'C0MGRS', seniors: {} }))).toEqual({
      afterMinutes: 20,
      steps: [],
      managersChannel: 'C0MGRS',
      seniors: {},
      followupMinutes: 30,
    });
    // The follow-up: off (null), whole minutes within the ladder's bounds, the default otherwise.
    expect(readEscalation(JSON.stringify({ followupMinutes: null })).followupMinutes).toBeNull();
    expect(readEscalation(JSON.stringify({ followupMinutes: 45 })).followupMinutes).toBe(45);
    expect(readEscalation(JSON.stringify({ followupMinutes: 2 })).followupMinutes).toBe(30);
    expect(readEscalation('7')).toEqual(readEscalation(null));
    expect(DEFAULT_ESCALATION.steps).toEqual(['thread', 'seniors', 'managers']);
  });
});

describe('what the ladder goes on to after a skipped step', () => {
  it('the first later step with someone to reach now', () => {
    const ladder = { steps: ['thread', 'seniors', 'managers'] as ('thread' | 'seniors' | 'managers')[], seniors: { Day: ['U0PRIYA'] } };
    expect(nextReachableStep({ ...ladder, managersChannel: 'C0GENERAL' }, 1, 'Night')).toBe('managers');
    expect(nextReachableStep(ladder, 1, 'Night')).toBeNull();
    expect(nextReachableStep({ ...ladder, steps: ['managers', 'seniors', 'thread'] }, 0, 'Night')).toBe('thread');
    expect(nextReachableStep({ ...ladder, steps: ['managers', 'seniors'] }, 0, 'Day')).toBe('seniors');
  });
});
