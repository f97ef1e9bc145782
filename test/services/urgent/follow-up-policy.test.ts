import { describe, expect, it } from 'vitest';
import {
  followUpDmState,
  followUpDue,
  followUpOccurrence,
  parseFollowUpOccurrence,
  resumeAt,
  resumedDueStep,
  resumeSteps,
  stateFor,
} from '../../../src/services/urgent/follow-up-policy.js';
import type { AuditEntry } from '../../../src/store/index.js';

const T = Date.parse('2027-06-15T09:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const EPISODE = '2027-06-15 08:58:00';

describe('follow-up of taken work: when the DM and the resume are due', () => {
  const held = stateFor(null, EPISODE, { since: T, via: 'taken' });

  it('the DM N minutes after it was taken; the resume N minutes after the DM', () => {
    expect(followUpDue(30, held, T + 29 * MIN)).toBeNull();
    expect(followUpDue(30, held, T + 30 * MIN)).toEqual({ kind: 'dm', dueAt: T + 30 * MIN });
    const dmed = { ...held, dmAt: iso(T + 31 * MIN) };
    expect(followUpDue(30, dmed, T + 60 * MIN)).toBeNull();
    expect(followUpDue(30, dmed, T + 61 * MIN)).toEqual({ kind: 'resume', dueAt: T + 61 * MIN });
  });

  it('Still on it restarts the clock from the press; nothing after a resume, a hand-back, an end, or with the follow-up off', () => {
    const still = { ...held, dmAt: iso(T + 30 * MIN), stillOnItAt: iso(T + 50 * MIN) };
    expect(followUpDue(30, still, T + 79 * MIN)).toBeNull();
    expect(followUpDue(30, still, T + 80 * MIN)?.kind).toBe('resume');
    for (const over of [{ resumedAt: iso(T) }, { handedBackAt: iso(T) }, { ended: 'completed' as const }])
      expect(followUpDue(30, { ...still, ...over }, T + 500 * MIN)).toBeNull();
    expect(followUpDue(null, held, T + 500 * MIN)).toBeNull();
  });

  it('a newer hold after the DM is followed afresh; the same hold keeps its state', () => {
    const dmed = { ...held, dmAt: iso(T + 30 * MIN) };
    expect(stateFor(dmed, EPISODE, { since: T, via: 'taken' })).toBe(dmed);
    expect(stateFor(dmed, EPISODE, { since: T + 40 * MIN, via: 'taken' })).toEqual({ occurrence: EPISODE, heldSince: iso(T + 40 * MIN), via: 'taken' });
    expect(stateFor(dmed, '2027-06-15 12:00:00', { since: T, via: 'taken' }).dmAt).toBeUndefined();
  });
});

describe('the ladder resumed', () => {
  const settings = { afterMinutes: 15, steps: ['thread', 'seniors', 'managers'] as ('thread' | 'seniors' | 'managers')[] };

  it('from the seniors’ step (without one: all but the thread reminder)', () => {
    expect(resumeSteps(['thread', 'seniors', 'managers'])).toEqual(['seniors', 'managers']);
    expect(resumeSteps(['managers', 'thread'])).toEqual(['managers']);
    expect(resumeSteps(['thread'])).toEqual([]);
  });

  it('after a follow-up at once, after a hand-back one step later; then one step apart', () => {
    const followup = resumeAt(settings, T, 'followup');
    expect(resumedDueStep(settings, followup, [], T)).toEqual({ step: 'seniors', index: 1, dueAt: T });
    expect(resumedDueStep(settings, followup, ['seniors'], T + 14 * MIN)).toBeNull();
    expect(resumedDueStep(settings, followup, ['seniors'], T + 15 * MIN)?.step).toBe('managers');
    const handBack = resumeAt(settings, T, 'hand-back');
    expect(resumedDueStep(settings, handBack, [], T + 14 * MIN)).toBeNull();
    expect(resumedDueStep(settings, handBack, [], T + 15 * MIN)?.step).toBe('seniors');
  });
});

describe('the follow-up DM as it stands', () => {
  const ref = followUpOccurrence({ occurrence: EPISODE, heldSince: iso(T), via: 'taken' });
  const mine = { completed: null, urgent: true, assignee: { careUserId: 'c', name: 'Sophie', slackUserId: 'U0SOPHIE' } } as never;
  const audit = (verb: string, details: Record<string, unknown>, at = T): AuditEntry =>
    ({ id: 1, teamId: 'T', userId: 'U0SOPHIE', verb, actionId: 'a', details, at }) as AuditEntry;

  it('reads its own ref back', () => {
    expect(parseFollowUpOccurrence(ref)).toEqual({ episode: EPISODE, heldSince: iso(T), via: 'taken' });
    expect(parseFollowUpOccurrence(`${ref}@ack`)?.via).toBe('acknowledged');
  });

  it('open, still on it, handed back; ended when completed, not urgent or with someone else', () => {
    expect(followUpDmState(mine, 'U0SOPHIE', ref, [])).toEqual({ kind: 'open' });
    expect(followUpDmState(mine, 'U0SOPHIE', ref, [audit('followup.still-on-it', { ref, until: T + 30 * MIN })])).toEqual({
      kind: 'still-on-it',
      at: new Date(T),
      until: new Date(T + 30 * MIN),
    });
    expect(followUpDmState(mine, 'U0SOPHIE', ref, [audit('followup.still-on-it', { ref: 'another' })])).toEqual({ kind: 'open' });
    expect(followUpDmState(mine, 'U0SOPHIE', ref, [audit('followup.hand-back', { ref })]).kind).toBe('handed-back');
    expect(followUpDmState({ ...(mine as object), completed: new Date(T) } as never, 'U0SOPHIE', ref, []).kind).toBe('completed');
    expect(followUpDmState({ ...(mine as object), urgent: false } as never, 'U0SOPHIE', ref, []).kind).toBe('not-urgent');
    expect(followUpDmState(mine, 'U0PRIYA', ref, []).kind).toBe('moved');
    // Acknowledged (someone on it, the assignee kept): another assignee is no reason to end it.
    expect(followUpDmState(mine, 'U0PRIYA', `${ref}@ack`, []).kind).toBe('open');
  });
});
