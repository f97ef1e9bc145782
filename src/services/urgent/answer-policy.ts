/**
 * The answers to an urgent episode as pure policy (issue 33): "I'm on it" (acknowledge: keeps the assignee,
 * stops the ladder), "I can't" (with a reason: moves the ladder on), "Join" (the second of two staff).
 *
 * - **Stopped.** An action needing one person stops escalating once someone has taken it (Take it, or
 *   assigned anywhere after the episode began: escalation-ladder.ts isTaken) or someone is on it. An action
 *   needing two staff escalates until two distinct people have answered: Take it, on it and join each count,
 *   the same person once. An answer-based stop lasts while the answer does: its Undo lets the ladder go on,
 *   on its own timetable (steps whose time passed meanwhile come one a run, in order).
 * - **Moved on early.** The ladder's current stage is the last step done (or the alert itself before any).
 *   A stage reached a channel (the alert, the thread reminder, the managers' post) where the app cannot
 *   know who read it: one "I can't" given after that stage began brings the next step at once (the next run
 *   of the escalation job, within a minute). A stage of DMs (the seniors, or a safeguarding action's
 *   officers) reached named people: the next step comes at once when every one of them the step reached has
 *   said "I can't" since. The steps after it keep their own times.
 * - **Two staff.** An action needs two when the app marks it so (the form's More options, or
 *   `/care two-staff`), or when it carries a care system action tag (`user_tags`) the home named with
 *   `/care settings two-staff <tag ids>`.
 */
import type { EpisodeAnswer } from '../../store/index.js';
import { dueStep, type EscalationSettings, type EscalationStep } from './escalation-ladder.js';
import type { StepDone } from './escalation-steps.js';

/** Why someone can't, as a short code; the words are what a channel may show (never the free text). */
export const CANT_REASONS = {
  'with-resident': 'with another resident',
  'on-break': 'on break',
  'need-two': 'not trained / need two',
  other: 'other',
} as const;
export type CantReason = keyof typeof CANT_REASONS;
export const isCantReason = (v: unknown): v is CantReason => typeof v === 'string' && Object.hasOwn(CANT_REASONS, v);

/** The longest note a person may add to an answer (it is shown in History, DMs and the evidence export only). */
export const ANSWER_NOTE_MAX = 200;

/** The two-staff tags setting (a home setting: JSON array of the care system's action tag Ids). */
export const TWO_STAFF_SETTING = 'two-staff';

/** A stored two-staff tags value as tag Ids (none when unset or unreadable). */
export function readTwoStaffTags(value: string | null | undefined): string[] {
  if (!value) return [];
  try {
    const v = JSON.parse(value) as unknown;
    return Array.isArray(v) ? [...new Set(v.filter((t): t is string => typeof t === 'string' && t.length > 0))] : [];
  } catch {
    return [];
  }
}

/** Whether an action needs two staff: marked in the app, or tagged with one of the home's two-staff tags. */
export function needsTwoStaff(mark: boolean | null, userTags: readonly string[] | null | undefined, twoStaffTags: readonly string[]): boolean {
  if (mark) return true;
  return (userTags ?? []).some((t) => twoStaffTags.includes(t));
}

/** The live answers (not undone) to one episode, oldest first. */
export function liveAnswers(answers: readonly EpisodeAnswer[], episode: string): EpisodeAnswer[] {
  return answers.filter((a) => a.episode === episode && a.undoneAt === null).sort((x, y) => x.at - y.at || x.id - y.id);
}

/** Who an answer puts on the work: the person named as doing it, else whoever answered. */
const doerOf = (a: Pick<EpisodeAnswer, 'slackUserId' | 'doerSlackUserId'>) => a.doerSlackUserId ?? a.slackUserId;

/**
 * The distinct people on the work in an episode, first first: whoever took it (`taker`: the assignee's Slack
 * user, or `care:<id>` when not linked, when the action is taken), and each on-it or join answer's doer.
 * Someone who said "I can't" and later "I'm on it" is on it.
 */
export function staffOn(live: readonly EpisodeAnswer[], taker: string | null): string[] {
  const people = taker ? [taker] : [];
  for (const a of live) if (a.answer !== 'cant' && !people.includes(doerOf(a))) people.push(doerOf(a));
  return people;
}

/** How many staff the action needs. */
export const staffNeeded = (twoStaff: boolean): number => (twoStaff ? 2 : 1);

/** Whether enough people answered for the ladder to stop. */
export function answeredEnough(live: readonly EpisodeAnswer[], taker: string | null, twoStaff: boolean): boolean {
  return staffOn(live, taker).length >= staffNeeded(twoStaff);
}

/** Whether a stage (the last step done) reached a channel, where anyone may have read it. */
const reachedChannel = (step: EscalationStep | null, safeguarding: boolean): boolean =>
  step === null ? !safeguarding : step === 'thread' || (step === 'managers' && !safeguarding);

/**
 * Whether the "I can't" answers given since the ladder's current stage began move it on at once (see the
 * rules above). `done`: the steps done, in order; `began`: the episode's start (ms); `safeguarding`: its
 * alert and steps went by DM to named people (the alert's recipients: `alerted`).
 */
export function cantMovesOn(
  done: readonly Pick<StepDone, 'step' | 'at' | 'to' | 'skipped'>[],
  live: readonly EpisodeAnswer[],
  began: number,
  options: { safeguarding?: boolean; alerted?: readonly string[] } = {},
): boolean {
  const last = [...done].reverse().find((d) => !d.skipped) ?? null;
  const since = last ? Date.parse(last.at) : began;
  const cant = new Set(live.filter((a) => a.answer === 'cant' && a.at > since).map((a) => a.slackUserId));
  if (!cant.size) return false;
  if (reachedChannel(last?.step ?? null, options.safeguarding ?? false)) return true;
  const reached = last ? last.to : (options.alerted ?? []);
  return reached.length > 0 && reached.every((u) => cant.has(u));
}

/**
 * The step due at `now` with the episode's answers: as the ladder's timetable says (escalation-ladder.ts
 * dueStep), or, when the "I can't" answers move it on, the next step at once (`early`).
 */
export function dueStepWithAnswers(
  settings: Pick<EscalationSettings, 'afterMinutes' | 'steps'>,
  began: number,
  done: readonly StepDone[],
  now: number,
  live: readonly EpisodeAnswer[],
  options: { safeguarding?: boolean; alerted?: readonly string[] } = {},
): { step: EscalationStep; index: number; dueAt: number; early?: true } | null {
  const steps = done.map((d) => d.step);
  const due = dueStep(
    settings,
    began,
    steps,
    now,
    done.filter((d) => d.skipped).map((d) => d.step),
  );
  return due ?? earlyStep(settings, began, done, now, live, options);
}

/**
 * The next step of the ladder at once (`early`), when the "I can't" answers since the last step (or the alert) move it
 * on; null otherwise. `done`: this round's steps (a ladder resumed by its follow-up counts its own), `began` its start.
 */
export function earlyStep(
  settings: Pick<EscalationSettings, 'steps'>,
  began: number,
  done: readonly StepDone[],
  now: number,
  live: readonly EpisodeAnswer[],
  options: { safeguarding?: boolean; alerted?: readonly string[] } = {},
): { step: EscalationStep; index: number; dueAt: number; early: true } | null {
  const steps = done.map((d) => d.step);
  const index = settings.steps.findIndex((s) => !steps.includes(s));
  if (index < 0 || !cantMovesOn(done, live, began, options)) return null;
  return { step: settings.steps[index]!, index, dueAt: now, early: true };
}
