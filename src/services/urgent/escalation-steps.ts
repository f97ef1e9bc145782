/**
 * The record of an episode's escalation steps, as evidence: each step as it
 * happened (when, whom it reached, whom it could not, or why it had nobody to
 * reach), kept in the store's cursor `escalation:<action Id>` and in the
 * audit (verb `escalate`). A step's record is written once, when the step is
 * done, and never rewritten: what the alert, a later step's post and History
 * say of it is read from here, never from today's settings. Pure.
 */
import type { EscalationStep } from './escalation-ladder.js';
import type { Resumed, ResumeWhy } from './follow-up-policy.js';
import type { EscalationLine, EscalationSkip } from '../renderers.js';

/** Why a step had nobody to reach, as stored (`reason`; `skipped` keeps the words of records older than reasons). */
export type SkipReason = 'no-seniors' | 'no-managers-channel';

/** One step as done: when (the app's clock), whom it reached, whom it could not, or why it was skipped. */
export interface StepDone {
  step: EscalationStep;
  at: string;
  /** Whom it reached (Slack user ids for the seniors, channel ids otherwise). */
  to: string[];
  /** The seniors step: the shift on when it ran. */
  shift?: string;
  /** Words: why it reached nobody (set on every skipped step; the step after it comes at once). */
  skipped?: string;
  reason?: SkipReason;
  /** Meant for, but Slack refused for good (a DM to someone deactivated, a channel archived). */
  unreached?: string[];
  /** A step of the ladder resumed (follow-up.ts): still open after its follow-up, or handed back. */
  again?: ResumeWhy;
  /** A repeat of the last step: which (1, 2, …), of how many the ladder allowed when it ran. Absent: the step's first run. */
  repeat?: number;
  of?: number;
  /** Run before its time: everyone the step before reached said "I can't" (answer-policy.ts). */
  early?: boolean;
}

/** What the app remembers of an action's escalation in one episode. */
export interface EscalationProgress {
  occurrence: string;
  done: StepDone[];
  /** Why it stopped: 'taken', 'completed', 'not-urgent', 'gone'. */
  stopped?: string;
  /** The ladder resumed after it was taken (follow-up.ts): its steps since are `again`. */
  resumed?: Resumed;
}

export const progressCursor = (actionId: string) => `escalation:${actionId}`;

export function parseProgress(value: string | null): EscalationProgress | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value) as EscalationProgress;
    return typeof v.occurrence === 'string' && Array.isArray(v.done) ? v : null;
  } catch {
    return null;
  }
}

/** A skipped step of the seniors: no one named for `shift`. */
export const noSeniors = (shift: string): Pick<StepDone, 'skipped' | 'reason' | 'shift'> => ({
  skipped: `no seniors named for the ${shift} shift`,
  reason: 'no-seniors',
  shift,
});

/** A skipped step of the managers: no channel set. */
export const noManagersChannel = (): Pick<StepDone, 'skipped' | 'reason'> => ({ skipped: 'no managers’ channel set', reason: 'no-managers-channel' });

const OLD_NO_SENIORS = /^no seniors named for the (.+) shift$/;

/** Why a recorded step reached nobody (from its reason, or the words of an older record); undefined: it was not skipped. */
export function skipOf(d: { skipped?: unknown; reason?: unknown; shift?: unknown }): EscalationSkip | undefined {
  const shift = typeof d.shift === 'string' ? d.shift : undefined;
  if (d.reason === 'no-seniors' && shift) return { reason: 'no-seniors', shift };
  if (d.reason === 'no-managers-channel') return { reason: 'no-managers-channel' };
  if (typeof d.skipped !== 'string' || !d.skipped) return undefined;
  const old = OLD_NO_SENIORS.exec(d.skipped);
  if (old) return { reason: 'no-seniors', shift: old[1]! };
  if (/managers/.test(d.skipped) && /channel/.test(d.skipped)) return { reason: 'no-managers-channel' };
  return { reason: 'other', words: d.skipped };
}

/** A recorded step as the views show it. */
export function lineOf(d: StepDone): EscalationLine {
  const skipped = skipOf(d);
  return {
    step: d.step,
    to: d.to,
    at: new Date(d.at),
    ...(d.shift ? { shift: d.shift } : {}),
    ...(skipped ? { skipped } : {}),
    ...(d.unreached?.length ? { unreached: d.unreached } : {}),
    ...(d.again ? { again: d.again } : {}),
    ...(d.repeat ? { repeat: { n: d.repeat, of: d.of ?? d.repeat } } : {}),
  };
}

/** The steps recorded before `step` in an episode, as a later post tells them (EscalationInfo.before): for drawing a step's post again. */
export function stepsBefore(progress: Pick<EscalationProgress, 'done'>, step: EscalationStep, repeat?: number): EscalationLine[] {
  const at = progress.done.findIndex((d) => d.step === step && (d.repeat ?? 0) === (repeat ?? 0));
  return (at < 0 ? progress.done : progress.done.slice(0, at)).map(lineOf);
}
