/**
 * Follow-up of taken work, as pure policy (follow-up.ts runs it): an urgent action taken (or acknowledged) but
 * still open `minutes` after it was taken gets one DM to whoever holds it; still open `minutes` after that DM
 * (or after "Still on it", which restarts that clock once), the ladder resumes from the seniors' step.
 *
 * What the app remembers of it (per action, in the store's cursor `followup:<action Id>`): the episode, the
 * hold it follows (since when, whom it DMed), and what happened (DM, Still on it, resumed, handed back, ended).
 * A newer hold (someone else took it after the DM) is followed afresh: one DM per hold.
 */
import type { AuditEntry } from '../../store/index.js';
import type { ActionView } from '../action-model.js';
import { dueStep, type EscalationSettings, type EscalationStep, stepDueAt } from './escalation-ladder.js';
import type { FollowUpDmState } from '../renderers.js';

/** The audit verbs of the follow-up (details: {episode, ref, …}; never task text). */
export const FOLLOWUP_VERBS = { dm: 'followup.dm', stillOnIt: 'followup.still-on-it', handBack: 'followup.hand-back', resume: 'followup.resume' } as const;

export const followUpCursor = (actionId: string) => `followup:${actionId}`;

/** The ledger kind of the follow-up DM (occurrence: followUpOccurrence; recipient `user:<team>/<user>`). */
export const FOLLOWUP_KIND = 'followup';
/** The ledger kind of the urgent alert posted again after a hand-back (occurrence `<episode>@<held since>@<who>`; recipient a channel). */
export const HANDBACK_KIND = 'handback';

export interface FollowUpState {
  /** The urgent episode (its alert's ledger occurrence). */
  occurrence: string;
  /** When the hold followed began (ISO): the assignment's time, or the acknowledgement's. */
  heldSince: string;
  /** Taken (the assignee holds it) or acknowledged (someone is on it, the assignee kept). */
  via: 'taken' | 'acknowledged';
  /** The Slack user DMed (null: the holder is not linked to Slack, so nobody could be). */
  holder?: string | null;
  /** When the DM went (the app's clock, ISO). */
  dmAt?: string;
  /** When the holder said "Still on it" (once). */
  stillOnItAt?: string;
  /** When the ladder resumed (still open after the follow-up). */
  resumedAt?: string;
  /** When the holder handed it back. */
  handedBackAt?: string;
  /** Ended without a resume: completed, no longer urgent, or gone from the care system. */
  ended?: 'completed' | 'not-urgent' | 'gone';
}

export function parseFollowUp(value: string | null): FollowUpState | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value) as FollowUpState;
    return v && typeof v.occurrence === 'string' && typeof v.heldSince === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** Someone holding an urgent action: since when (ms), and how. */
export interface Hold {
  since: number;
  via: 'taken' | 'acknowledged';
}

/** What is due now for a held action: the DM, the ladder's resume, or nothing. */
export type FollowUpDue = { kind: 'dm'; dueAt: number } | { kind: 'resume'; dueAt: number } | null;

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/**
 * The state to follow for a hold: the remembered one while it is about this hold (or an older hold it already
 * acted on, when no newer hold began after its DM), a fresh one for a newer hold. Pure.
 */
export function stateFor(current: FollowUpState | null, occurrence: string, hold: Hold): FollowUpState {
  const fresh: FollowUpState = { occurrence, heldSince: new Date(hold.since).toISOString(), via: hold.via };
  if (!current || current.occurrence !== occurrence) return fresh;
  if (current.resumedAt || current.handedBackAt || current.ended) return current;
  // Held anew after the DM (by someone else, or taken again): that hold gets its own follow-up.
  if (current.dmAt && hold.since > ms(current.dmAt)) return fresh;
  return current;
}

/** What is due at `now` for `state` (follow-up every `minutes`; null: off). Pure. */
export function followUpDue(minutes: number | null, state: FollowUpState, now: number): FollowUpDue {
  if (minutes === null || state.resumedAt || state.handedBackAt || state.ended) return null;
  const n = minutes * 60_000;
  if (!state.dmAt) {
    const dueAt = ms(state.heldSince) + n;
    return now >= dueAt ? { kind: 'dm', dueAt } : null;
  }
  const dueAt = ms(state.stillOnItAt ?? state.dmAt) + n;
  return now >= dueAt ? { kind: 'resume', dueAt } : null;
}

/** When "Still on it" pressed at `at` has the follow-up look again (ms). */
export const checkAgainAt = (minutes: number, at: number) => at + minutes * 60_000;

/** Why the ladder runs again in an episode: still open after its follow-up, or handed back. */
export type ResumeWhy = 'followup' | 'hand-back';

/** The ladder resumed (kept in the escalation progress, escalation-steps.ts). */
export interface Resumed {
  /** When it resumed (ISO). */
  at: string;
  /** When its first step is due (ISO): at once after a follow-up, one step's time after a hand-back (the channel is alerted again first). */
  firstDueAt: string;
  why: ResumeWhy;
}

/** The steps a resumed ladder runs: from the seniors' step on; without one, every step but the thread reminder. Pure. */
export function resumeSteps(steps: readonly EscalationStep[]): EscalationStep[] {
  const at = steps.indexOf('seniors');
  return at >= 0 ? steps.slice(at) : steps.filter((s) => s !== 'thread');
}

/** A resume beginning at `now` (ms) for this reason, with the ladder's step time. Pure. */
export function resumeAt(settings: Pick<EscalationSettings, 'afterMinutes'>, now: number, why: ResumeWhy): Resumed {
  const first = why === 'followup' ? now : now + settings.afterMinutes * 60_000;
  return { at: new Date(now).toISOString(), firstDueAt: new Date(first).toISOString(), why };
}

/**
 * The step of a resumed ladder due at `now`, given the steps done since it resumed (and those skipped, which hand
 * their time on): the first not done, at `firstDueAt + afterMinutes · j`. `index`: its place in the whole ladder. Pure.
 */
export function resumedDueStep(
  settings: Pick<EscalationSettings, 'afterMinutes' | 'steps'>,
  resumed: Pick<Resumed, 'firstDueAt'>,
  done: readonly EscalationStep[],
  now: number,
  skipped: readonly EscalationStep[] = [],
): { step: EscalationStep; index: number; dueAt: number } | null {
  const steps = resumeSteps(settings.steps);
  const began = ms(resumed.firstDueAt) - stepDueAt(settings, 0, 0);
  const due = dueStep({ afterMinutes: settings.afterMinutes, steps }, began, done, now, skipped);
  return due ? { ...due, index: settings.steps.indexOf(due.step) } : null;
}

/** The ledger occurrence of a resumed step (`<episode>#<step>+again`): never the same row as the step's first time. */
export const resumedOccurrence = (episode: string, step: EscalationStep) => `${episode}#${step}+again`;

/** The follow-up DM's ledger occurrence: one per episode and hold (`<episode>@<held since>`). */
export const followUpOccurrence = (state: Pick<FollowUpState, 'occurrence' | 'heldSince' | 'via'>) =>
  `${state.occurrence}@${state.heldSince}${state.via === 'acknowledged' ? '@ack' : ''}`;

/** `<episode>@<held since>[@ack]` -> its parts. */
export function parseFollowUpOccurrence(occurrence: string): { episode: string; heldSince: string; via: 'taken' | 'acknowledged' } | null {
  const parts = occurrence.split('@');
  if (parts.length < 2 || !parts[0] || !parts[1]) return null;
  return { episode: parts[0], heldSince: parts[1], via: parts[2] === 'ack' ? 'acknowledged' : 'taken' };
}

/**
 * How the follow-up DM `ref` to `holder` stands now, from the action and the audit (its answers): ended (completed,
 * not urgent, someone else has it), handed back, "still on it", or open. Pure.
 */
export function followUpDmState(
  view: Pick<ActionView, 'completed' | 'urgent' | 'assignee'>,
  holder: string,
  ref: string,
  audit: readonly AuditEntry[],
): FollowUpDmState {
  if (view.completed) return { kind: 'completed' };
  if (!view.urgent) return { kind: 'not-urgent' };
  const answer = (verb: string) => audit.find((e) => e.verb === verb && e.details.ref === ref);
  const handed = answer(FOLLOWUP_VERBS.handBack);
  if (handed) return { kind: 'handed-back', at: new Date(handed.at) };
  const via = parseFollowUpOccurrence(ref)?.via ?? 'taken';
  if (via === 'taken' && view.assignee?.slackUserId !== holder) return { kind: 'moved' };
  const still = answer(FOLLOWUP_VERBS.stillOnIt);
  if (still) return { kind: 'still-on-it', at: new Date(still.at), until: new Date(Number(still.details.until) || still.at) };
  return { kind: 'open' };
}
