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
  /** Slack user ids named as seniors, per shift name (services/shift-work/shift-settings.ts). */
  seniors: Record<string, string[]>;
  /**
   * Follow-up of taken work (follow-up.ts): minutes after an urgent action was taken (or acknowledged) before
   * whoever holds it is DMed, and again before the ladder resumes; null: off. Absent in a stored value: the default.
   */
  followupMinutes: number | null;
  /** The last step again every `everyMinutes`, at most `times` times, until someone answers (absent: once). */
  repeat?: LadderRepeat;
}

/** The last step of the ladder repeated: every `everyMinutes` after it, at most `times` more times. */
export interface LadderRepeat {
  everyMinutes: number;
  times: number;
}

export const MIN_REPEAT_MINUTES = 5;
export const MAX_REPEAT_MINUTES = 240;
export const MIN_REPEAT_TIMES = 1;
export const MAX_REPEAT_TIMES = 10;

const within = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

/** Whether a repeat is within its bounds (5–240 minutes, 1–10 times). */
export function isRepeatWithin(r: LadderRepeat): boolean {
  return within(r.everyMinutes, MIN_REPEAT_MINUTES, MAX_REPEAT_MINUTES) && within(r.times, MIN_REPEAT_TIMES, MAX_REPEAT_TIMES);
}

export const MIN_AFTER_MINUTES = 5;
export const MAX_AFTER_MINUTES = 240;

export const DEFAULT_FOLLOWUP_MINUTES = 30;

export const DEFAULT_ESCALATION: Readonly<EscalationSettings> = Object.freeze({
  afterMinutes: 15,
  steps: [...ESCALATION_STEPS],
  seniors: {},
  followupMinutes: DEFAULT_FOLLOWUP_MINUTES,
});

/** A stored follow-up value: whole minutes within the bounds of `afterMinutes`, null (off), else the default. */
function readFollowup(v: unknown): number | null {
  if (v === null) return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= MIN_AFTER_MINUTES && n <= MAX_AFTER_MINUTES ? n : DEFAULT_FOLLOWUP_MINUTES;
}

const isStep = (s: unknown): s is EscalationStep => typeof s === 'string' && (ESCALATION_STEPS as readonly string[]).includes(s);
const SLACK_USER = /^[UW][A-Z0-9]+$/;
const SLACK_CHANNEL = /^[CG][A-Z0-9]+$/;

/** A stored value as settings; anything it cannot read falls back to the default, field by field. */
export function readEscalation(value: string | null | undefined): EscalationSettings {
  if (!value) return { ...DEFAULT_ESCALATION, steps: [...DEFAULT_ESCALATION.steps], seniors: {} };
  if (!value.trim().startsWith('{')) return readEscalation(null);
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
  const followupMinutes = readFollowup(v && typeof v === 'object' && 'followupMinutes' in v ? v.followupMinutes : undefined);
  const r = v.repeat && typeof v.repeat === 'object' ? { everyMinutes: Number(v.repeat.everyMinutes), times: Number(v.repeat.times) } : null;
  const repeat = r && isRepeatWithin(r) ? r : undefined;
  return { afterMinutes, steps, ...(managersChannel ? { managersChannel } : {}), seniors, followupMinutes, ...(repeat ? { repeat } : {}) };
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

/** A step as the progress records it: which step, whether it reached nobody, and which repeat of the last step it was. */
export interface RungDone {
  step: EscalationStep;
  skipped?: unknown;
  /** 1, 2, …: a repeat of the last step (absent: the step's first run). */
  repeat?: number;
}

/**
 * The rung due at `now`: a step of the ladder (dueStep), or, once every step is done and the last one reached
 * someone, a repeat of the last step: repeat r (from 1) at the last step's due time plus `r · everyMinutes`, at
 * most `times` repeats. A repeat that reached nobody ends the repeats (the admins were told once how to fix it).
 * Progress without repeats reads as before: the first run of each step has no `repeat`.
 */
export function dueRung(
  settings: Pick<EscalationSettings, 'afterMinutes' | 'steps' | 'repeat'>,
  beganAt: number,
  done: readonly RungDone[],
  now: number,
): { step: EscalationStep; index: number; dueAt: number; repeat?: number } | null {
  const firsts = done.filter((d) => !d.repeat);
  const step = dueStep(
    settings,
    beganAt,
    firsts.map((d) => d.step),
    now,
    firsts.filter((d) => d.skipped).map((d) => d.step),
  );
  if (step) return step;
  const index = settings.steps.length - 1;
  const last = settings.steps[index];
  if (!settings.repeat || last === undefined || !settings.steps.every((s) => firsts.some((d) => d.step === s))) return null;
  const runs = done.filter((d) => d.step === last);
  if (runs.some((d) => d.skipped)) return null;
  const repeat = runs.filter((d) => d.repeat).length + 1;
  if (repeat > settings.repeat.times) return null;
  const handedOn = settings.steps.slice(0, index).filter((s) => firsts.some((d) => d.step === s && d.skipped)).length;
  const dueAt = stepDueAt(settings, beganAt, index - handedOn) + repeat * settings.repeat.everyMinutes * 60_000;
  return now >= dueAt ? { step: last, index, dueAt, repeat } : null;
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

/**
 * The first step after the one at `index` that has someone to reach now (a reminder always does; the seniors
 * when some are named for `shift`; the managers when their channel is set), or null: what the ladder goes on
 * to when a step is skipped.
 */
export function nextReachableStep(
  settings: Pick<EscalationSettings, 'steps' | 'seniors' | 'managersChannel'>,
  index: number,
  shift: string,
): EscalationStep | null {
  const reachable = (s: EscalationStep) => s === 'thread' || (s === 'seniors' ? (settings.seniors[shift]?.length ?? 0) > 0 : Boolean(settings.managersChannel));
  return settings.steps.slice(index + 1).find(reachable) ?? null;
}
