/**
 * The escalation ladder of an urgent action nobody answers, as pure policy:
 * what a care home set (`/care escalation`), how a stored value reads, and
 * which step is due at an instant.
 *
 * Timing: the steps run in the order the admins set, step k (counting from 1)
 * at `afterMinutes · k` after the urgent episode began (the care system's time
 * of the change that made the action urgent, which is also the urgent alert's
 * ledger occurrence). With the default (15 minutes; thread, seniors,
 * managers): a reminder in the alert's thread at 15, the seniors on shift at
 * 30, the managers' channel at 45. A step is never run before the one ahead
 * of it, so an app that was away catches up in order. A step with nobody to
 * tell is skipped and the next one runs at once, in its place.
 */

export const ESCALATION_STEPS = ['thread', 'seniors', 'managers'] as const;
export type EscalationStep = (typeof ESCALATION_STEPS)[number];

export interface EscalationSettings {
  /** Minutes between steps (the first: after this long without an answer). */
  afterMinutes: number;
  /** The ladder, in order; empty: escalation is off. */
  steps: EscalationStep[];
  /** The managers' channel (the last step's). */
  managersChannel?: string;
  /** Slack user ids named as seniors, per shift name (services/shift-settings.ts). */
  seniors: Record<string, string[]>;
}

export const MIN_AFTER_MINUTES = 5;
export const MAX_AFTER_MINUTES = 240;

export const DEFAULT_ESCALATION: Readonly<EscalationSettings> = Object.freeze({
  afterMinutes: 15,
  steps: [...ESCALATION_STEPS],
  seniors: {},
});

const isStep = (s: unknown): s is EscalationStep => typeof s === 'string' && (ESCALATION_STEPS as readonly string[]).includes(s);
const SLACK_USER = /^[UW][A-Z0-9]+$/;
const SLACK_CHANNEL = /^[CG][A-Z0-9]+$/;

/** A stored value as settings; anything it cannot read falls back to the default, field by field. */
export function readEscalation(value: string | null | undefined): EscalationSettings {
  if (!value) return { ...DEFAULT_ESCALATION, steps: [...DEFAULT_ESCALATION.steps], seniors: {} };
  let v: Partial<EscalationSettings>;
  try {
    v = JSON.parse(value) as Partial<EscalationSettings>;
  } catch {
    return readEscalation(null);
  }
  const after = Number(v.afterMinutes);
  const afterMinutes = Number.isInteger(after) && after >= MIN_AFTER_MINUTES && after <= MAX_AFTER_MINUTES ? after : DEFAULT_ESCALATION.afterMinutes;
  const steps = Array.isArray(v.steps) ? [...new Set(v.steps.filter(isStep))] : [...DEFAULT_ESCALATION.steps];
  const seniors: Record<string, string[]> = {};
  if (v.seniors && typeof v.seniors === 'object')
    for (const [shift, ids] of Object.entries(v.seniors)) {
      const people = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && SLACK_USER.test(id)) : [];
      if (people.length) seniors[shift] = [...new Set(people)];
    }
  const managersChannel = typeof v.managersChannel === 'string' && SLACK_CHANNEL.test(v.managersChannel) ? v.managersChannel : undefined;
  return { afterMinutes, steps, ...(managersChannel ? { managersChannel } : {}), seniors };
}

/** When step `index` (0-based, in the ladder's order) is due, for an episode that began at `beganAt` (ms). */
export function stepDueAt(settings: Pick<EscalationSettings, 'afterMinutes'>, beganAt: number, index: number): number {
  return beganAt + settings.afterMinutes * 60_000 * (index + 1);
}

/**
 * The step due at `now` for an episode that began at `beganAt`, given the steps
 * already done: the first step not done, if its time has come; null otherwise
 * (nothing left, or not yet). A step that was `skipped` (nobody to tell: no
 * seniors named for the shift on, no managers' channel) hands its time on: the
 * next step is due when the skipped one was, so nobody waits on no one.
 */
export function dueStep(
  settings: Pick<EscalationSettings, 'afterMinutes' | 'steps'>,
  beganAt: number,
  done: readonly EscalationStep[],
  now: number,
  skipped: readonly EscalationStep[] = [],
): { step: EscalationStep; index: number; dueAt: number } | null {
  const index = settings.steps.findIndex((s) => !done.includes(s));
  if (index < 0) return null;
  const handedOn = settings.steps.slice(0, index).filter((s) => skipped.includes(s)).length;
  const dueAt = stepDueAt(settings, beganAt, index - handedOn);
  return now >= dueAt ? { step: settings.steps[index]!, index, dueAt } : null;
}

/** When the whole ladder has had its time (the last step's due time), or null when it is off. */
export function ladderEndsAt(settings: Pick<EscalationSettings, 'afterMinutes' | 'steps'>, beganAt: number): number | null {
  return settings.steps.length ? stepDueAt(settings, beganAt, settings.steps.length - 1) : null;
}

/**
 * Whether an action counts as taken during an episode (and its escalation stops): it has an assignee now, and
 * that assignment was made after the episode began (Take it, or anyone assigning it in Slack or the care
 * system), or is one the app has not yet remembered (so made after its last sight). An action that was
 * already assigned when it became urgent, and still is, is not taken: its assignee has not answered.
 * `remembered`: the app's memory of its assignment (assignment-notices.ts): who, and since when (ms).
 */
export function isTaken(assignee: string | null, remembered: { to: string | null; since: number } | null, episodeBegan: number): boolean {
  if (!assignee) return false;
  if (!remembered) return false;
  if (remembered.to !== assignee) return true;
  return remembered.since > episodeBegan;
}
