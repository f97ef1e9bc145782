/**
 * The answers to an urgent episode as pure policy (issue 33): who is on it, when the ladder stops, when
 * "I can't" brings the next step early, and which actions need two staff.
 */
import { describe, expect, it } from 'vitest';
import {
  answeredEnough,
  cantMovesOn,
  dueStepWithAnswers,
  liveAnswers,
  needsTwoStaff,
  readTwoStaffTags,
  staffOn,
} from '../../../src/services/urgent/answer-policy.js';
import { answersDigest } from '../../../src/services/urgent/episode-answers.js';
import type { StepDone } from '../../../src/services/urgent/escalation-steps.js';
import type { EpisodeAnswer } from '../../../src/store/index.js';

const EPISODE = '2027-06-15T09:00:00Z';
const BEGAN = Date.parse(EPISODE);
const MIN = 60_000;
const LADDER = { afterMinutes: 15, steps: ['thread', 'seniors', 'managers'] as ('thread' | 'seniors' | 'managers')[] };
let next = 1;

function answer(slackUserId: string, kind: EpisodeAnswer['answer'], minutes: number, extra: Partial<EpisodeAnswer> = {}): EpisodeAnswer {
  return {
    id: next++,
    actionId: 'a',
    episode: EPISODE,
    slackUserId,
    careUserId: null,
    answer: kind,
    reason: kind === 'cant' ? 'on-break' : null,
    note: null,
    doerSlackUserId: null,
    at: BEGAN + minutes * MIN,
    undoneAt: null,
    ...extra,
  };
}
const step = (s: StepDone['step'], minutes: number, to: string[]): StepDone => ({ step: s, at: new Date(BEGAN + minutes * MIN).toISOString(), to });

describe('who is on it', () => {
  it('counts distinct people: the taker first, then each on-it or join (the doer named, when one is), never a can’t', () => {
    const live = [answer('U0A', 'cant', 1), answer('U0B', 'on-it', 2), answer('U0B', 'join', 3), answer('U0C', 'on-it', 4, { doerSlackUserId: 'U0D' })];
    expect(staffOn(live, 'U0T')).toEqual(['U0T', 'U0B', 'U0D']);
    expect(staffOn(live, 'U0B')).toEqual(['U0B', 'U0D']);
  });

  it('an undone answer, or one of another episode, does not count', () => {
    const all = [answer('U0A', 'on-it', 1, { undoneAt: BEGAN + 2 * MIN }), answer('U0B', 'on-it', 1, { episode: '2027-06-14T09:00:00Z' })];
    expect(liveAnswers(all, EPISODE)).toEqual([]);
  });

  it('one person is enough for an action needing one; two distinct people for two staff', () => {
    expect(answeredEnough([answer('U0A', 'on-it', 1)], null, false)).toBe(true);
    expect(answeredEnough([], 'U0T', false)).toBe(true);
    expect(answeredEnough([answer('U0A', 'cant', 1)], null, false)).toBe(false);
    expect(answeredEnough([], 'U0T', true)).toBe(false);
    expect(answeredEnough([answer('U0T', 'join', 1)], 'U0T', true)).toBe(false);
    expect(answeredEnough([answer('U0B', 'join', 1)], 'U0T', true)).toBe(true);
  });
});

describe('"I can\'t" moves the ladder on', () => {
  it('at the alert (a channel): one can’t brings the first step at once; an answer before the stage began does not count', () => {
    expect(cantMovesOn([], [answer('U0A', 'cant', 3)], BEGAN)).toBe(true);
    expect(cantMovesOn([step('thread', 15, ['C0LEADS'])], [answer('U0A', 'cant', 3)], BEGAN)).toBe(false);
    expect(cantMovesOn([step('thread', 15, ['C0LEADS'])], [answer('U0A', 'cant', 16)], BEGAN)).toBe(true);
  });

  it('at the seniors’ DMs: only when every senior reached said can’t since', () => {
    const done = [step('thread', 15, ['C0LEADS']), step('seniors', 30, ['U0PRIYA', 'U0OLIVER'])];
    expect(cantMovesOn(done, [answer('U0PRIYA', 'cant', 31)], BEGAN)).toBe(false);
    expect(cantMovesOn(done, [answer('U0PRIYA', 'cant', 31), answer('U0SAM', 'cant', 31)], BEGAN)).toBe(false);
    expect(cantMovesOn(done, [answer('U0PRIYA', 'cant', 31), answer('U0OLIVER', 'cant', 32)], BEGAN)).toBe(true);
    expect(cantMovesOn(done, [answer('U0PRIYA', 'cant', 31), answer('U0OLIVER', 'cant', 29)], BEGAN)).toBe(false);
  });

  it('a safeguarding alert went by DM to named officers: all of them must say can’t', () => {
    const options = { safeguarding: true, alerted: ['U0OFF1', 'U0OFF2'] };
    expect(cantMovesOn([], [answer('U0OFF1', 'cant', 2)], BEGAN, options)).toBe(false);
    expect(cantMovesOn([], [answer('U0OFF1', 'cant', 2), answer('U0OFF2', 'cant', 3)], BEGAN, options)).toBe(true);
  });

  it('the step due: by the timetable, or the next one at once (early) when can’t moves it on; the later steps keep their times', () => {
    const done = [step('thread', 15, ['C0LEADS']), step('seniors', 30, ['U0PRIYA'])];
    const now = BEGAN + 31 * MIN;
    expect(dueStepWithAnswers(LADDER, BEGAN, done, now, [])).toBeNull();
    expect(dueStepWithAnswers(LADDER, BEGAN, done, now, [answer('U0PRIYA', 'cant', 31)])).toEqual({ step: 'managers', index: 2, dueAt: now, early: true });
    expect(dueStepWithAnswers(LADDER, BEGAN, [], BEGAN + 4 * MIN, [answer('U0A', 'cant', 3)])).toMatchObject({ step: 'thread', early: true });
    expect(dueStepWithAnswers(LADDER, BEGAN, [step('thread', 4, ['C0LEADS'])], BEGAN + 20 * MIN, [answer('U0A', 'cant', 3)])).toBeNull();
    expect(dueStepWithAnswers(LADDER, BEGAN, [step('thread', 4, ['C0LEADS'])], BEGAN + 30 * MIN, [])).toMatchObject({
      step: 'seniors',
      dueAt: BEGAN + 30 * MIN,
    });
    expect(dueStepWithAnswers(LADDER, BEGAN, [...done, step('managers', 31, ['C0MGRS'])], now + MIN, [answer('U0B', 'cant', 32)])).toBeNull();
  });
});

describe('two staff', () => {
  it('marked in the app, or tagged with one of the home’s tags', () => {
    expect(needsTwoStaff(true, [], [])).toBe(true);
    expect(needsTwoStaff(null, ['t1'], ['t1', 't2'])).toBe(true);
    expect(needsTwoStaff(false, ['t3'], ['t1'])).toBe(false);
    expect(readTwoStaffTags('["t1","t1",3,""]')).toEqual(['t1']);
    expect(readTwoStaffTags('nonsense')).toEqual([]);
  });
});

describe('the answers are part of a post’s version', () => {
  it('an answer and its Undo each make a new digest', () => {
    const a = answer('U0A', 'on-it', 1);
    expect(answersDigest([])).toBe('');
    expect(answersDigest([a])).not.toBe(answersDigest([{ ...a, undoneAt: 1 }]));
  });
});
