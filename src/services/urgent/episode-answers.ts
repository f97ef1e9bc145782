/**
 * The answers to an urgent episode, kept by the app (issue 33): "I'm on it" (keeps the assignee, stops the
 * ladder), "I can't" (a reason and an optional note: moves the ladder on), "Join" (the second of two staff).
 * Policy is in answer-policy.ts; this records, audits, tells and redraws.
 *
 * - Recorded once: a person's same answer to an episode is one row while it is live (the store's unique
 *   index), whichever instance took the click; audited once (verb `on-it`, `cant`, `join`; details: the
 *   episode, the reason code, the doer, whether a note was written: never the note, never task text).
 * - Told: an "I'm on it" or "Join" by someone other than the assignee is DMed to the assignee once (a ledger
 *   delivery, kind `answer`), with no note.
 * - Shown: every post about the action is redrawn (post-redraw.ts; the answers are part of its version).
 * - Undo once: by the person who answered, within UNDO_WINDOW; audited (`<verb>.undo`); the ladder then goes
 *   on from where its timetable is.
 */
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { EpisodeAnswer, EpisodeAnswerKind, WorkspaceStore } from '../../store/index.js';
import { twoStaffOf } from './two-staff.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView, type AnswerLine, type AnswersShown, type RenderContext } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import { ANSWER_NOTE_MAX, isCantReason, liveAnswers, needsTwoStaff, readTwoStaffTags, staffNeeded, staffOn, TWO_STAFF_SETTING } from './answer-policy.js';
import { rememberedAssignment } from '../notices/assignment-notices.js';
import type { Deliverer } from '../notices/delivery.js';
import { createDmChannels } from '../dm-channels.js';
import { UserFacingError } from '../errors.js';
import { isTaken } from './escalation-ladder.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { MessageRenderers } from '../renderers.js';
import { episodeCursor, parseUrgency } from './urgent-alerts.js';
import type { WebClient } from '@slack/web-api';

export const ANSWER_KIND = 'answer';
/** How long after an answer its Undo works (as the shared posts' Undo). */
export const ANSWER_UNDO_MS = 5 * 60_000;

export interface AnswerRequest {
  actionId: string;
  answer: EpisodeAnswerKind;
  reason?: string | null | undefined;
  note?: string | null | undefined;
  /** "I'm on it" for someone else (an action nobody is assigned): the Slack user doing it. */
  doer?: string | null | undefined;
}

export type AnswerOutcome =
  | { kind: 'recorded'; answer: EpisodeAnswer; action: Action }
  /** This person already gave this answer to the episode (another click, another instance). */
  | { kind: 'already'; action: Action }
  /** The action is not in an urgent episode the app alerted (completed, not urgent, or never alerted). */
  | { kind: 'not-asking'; action: Action };

export type AnswerUndoOutcome = 'undone' | 'spent' | 'not-yours' | 'too-late' | 'gone';

/** Where an episode's answers stand: the live ones, who is on it, how many it needs. */
export interface EpisodeStanding {
  live: EpisodeAnswer[];
  twoStaff: boolean;
  /** The assignee's Slack user (or `care:<id>`) when the action counts as taken in the episode; else null. */
  taker: string | null;
  shown: AnswersShown;
  /** Enough people are on it: the ladder stops. */
  answered: boolean;
}

/** The answers of one episode as its posts show them (no notes). Pure. */
export function answerLines(live: readonly EpisodeAnswer[]): AnswerLine[] {
  return live.map((a) => ({
    answer: a.answer,
    by: a.slackUserId,
    ...(a.doerSlackUserId ? { doer: a.doerSlackUserId } : {}),
    at: new Date(a.at),
    ...(a.reason ? { reason: a.reason } : {}),
  }));
}

/** What the answers of any episode of an action are worked out from (read once: answersKnown). */
export interface AnswersKnown {
  answers: EpisodeAnswer[];
  twoStaff: boolean;
  assignee: string | null;
  /** The assignee's Slack user, or `care:<id>` when not linked. */
  assigneeKey: string | null;
  /** What the app remembers of the assignment (who, since when, ms): whether it counts as taken in an episode. */
  remembered: { to: string | null; since: number } | null;
}

/** Read what an action's answers are worked out from. */
export async function answersKnown(deps: { store: WorkspaceStore; identity: Pick<IdentityService, 'slackUserFor'> }, action: Action): Promise<AnswersKnown> {
  const [answers, twoStaff, remembered] = await Promise.all([
    deps.store.listEpisodeAnswers(action._id),
    twoStaffOf(deps.store, action),
    rememberedAssignment(deps.store, action._id),
  ]);
  const assignee = action.assigned_to ?? null;
  const assigneeKey = assignee ? ((await deps.identity.slackUserFor(assignee).catch(() => null)) ?? `care:${assignee}`) : null;
  return {
    answers,
    twoStaff,
    assignee,
    assigneeKey,
    remembered: remembered ? { to: remembered.to, since: parseApiDateTime(remembered.since)?.getTime() ?? 0 } : null,
  };
}

/**
 * Where one episode's answers stand. `since` (ms): only takes and answers after it count (a ladder resumed by its
 * follow-up, follow-up.ts: what stood before the resume has already been followed up); default the episode's start. Pure.
 */
export function standingIn(known: AnswersKnown, episode: string, since?: number): EpisodeStanding {
  const began = since ?? parseApiDateTime(episode)?.getTime() ?? 0;
  const live = liveAnswers(known.answers, episode).filter((a) => since === undefined || a.at > since);
  const taker = isTaken(known.assignee, known.remembered, began) ? known.assigneeKey : null;
  const staff = staffOn(live, taker);
  const needed = staffNeeded(known.twoStaff);
  return { live, twoStaff: known.twoStaff, taker, shown: { lines: answerLines(live), staff, needed }, answered: staff.length >= needed };
}

/** A digest of an action's answers (each one and whether it is undone): part of its posts' version (post-redraw.ts). Pure. */
export function answersDigest(answers: readonly Pick<EpisodeAnswer, 'id' | 'undoneAt'>[]): string {
  return answers.map((a) => `${a.id}${a.undoneAt === null ? '' : 'u'}`).join(',');
}

export interface EpisodeAnswers {
  answer(actor: Actor, request: AnswerRequest): Promise<AnswerOutcome>;
  /** The answerer's Undo of an answer of theirs, once. */
  undo(actor: Actor, actionId: string, answerId: number): Promise<AnswerUndoOutcome>;
  /** Every answer to these actions, notes included (History, the evidence export): never for a channel. */
  answersOf(actionIds: readonly string[]): Promise<Map<string, EpisodeAnswer[]>>;
  /** Mark (or unmark) an action as needing two staff; audited (`two-staff`). */
  setTwoStaff(actor: Actor, actionId: string, on: boolean): Promise<void>;
  /** The running urgent episode of an action the app alerted, or null. */
  episodeOf(actionId: string): Promise<string | null>;
  /**
   * The answers as the posts of the action's running episode show them (none: no running episode), for a post a
   * listener draws at once: from the store and the view it has (the care system asked only when the home names
   * two-staff tags).
   */
  shown(view: Pick<ActionView, 'id' | 'assignee'>): Promise<AnswersShown | undefined>;
  /** Admins: the care system's action tags that mean two staff (null: none); audited (`two-staff.tags`). Returns them as set. */
  setTwoStaffTags(actor: Actor, tags: string[] | null): Promise<string[]>;
  /** The tags that mean two staff, as set. */
  twoStaffTags(): Promise<string[]>;
}

export function createEpisodeAnswers(deps: {
  store: WorkspaceStore;
  care: Pick<CareClient, 'actions'>;
  identity: IdentityService;
  deliverer: Deliverer;
  /** Every post about the action drawn as it is now (post-redraw.ts). */
  redraw: { follow(action: Action): Promise<unknown> };
  render: Pick<MessageRenderers, 'answerNotice'>;
  /** The client scheduled work posts with (DM opening). */
  slack: WebClient;
  timezone: string;
  now: () => Date;
  logger: Logger;
  /** The workspace whose people it tells (bound at composition). */
  teamId: () => Promise<string>;
}): EpisodeAnswers {
  const { store } = deps;
  const dm = createDmChannels(deps.slack);

  async function episodeOf(actionId: string): Promise<string | null> {
    const urgency = parseUrgency(await store.getCursor(episodeCursor(actionId)));
    if (!urgency?.since || urgency.quiet) return null;
    // Only an episode the app alerted has posts to answer on.
    const alerts = await store.listDeliveries({ kind: 'urgent', actionId, state: 'sent', limit: 50 });
    return alerts.some((d) => d.occurrence === urgency.since) ? urgency.since : null;
  }

  /** The assignee told, once, that someone else is on it (no note: the DM says who and when). */
  async function tellAssignee(actor: Actor, action: Action, answer: EpisodeAnswer): Promise<void> {
    if (answer.answer === 'cant' || !action.assigned_to || !deps.render.answerNotice) return;
    const assignee = await deps.identity.slackUserFor(action.assigned_to);
    if (!assignee || assignee === actor.userId) return;
    const [view] = await toActionViews([action], deps.identity);
    const ctx: RenderContext = { now: deps.now(), timezone: deps.timezone, showTask: true, shared: false };
    const message = deps.render.answerNotice(view!, ctx, answerLines([answer])[0]!);
    const key = { kind: ANSWER_KIND, actionId: action._id, occurrence: `${answer.episode}#${answer.id}`, recipient: `user:${await deps.teamId()}/${assignee}` };
    await deps.deliverer.deliver(key, () => dm(assignee), message);
  }

  async function redraw(action: Action): Promise<void> {
    await deps.redraw
      .follow(action)
      .catch((err) => deps.logger.warn('posts about an answered action will be drawn again by the poller', { actionId: action._id, error: err }));
  }

  return {
    episodeOf,

    async shown(view) {
      const [urgency, answers, mark, tagsSetting, remembered] = await Promise.all([
        store.getCursor(episodeCursor(view.id)).then(parseUrgency),
        store.listEpisodeAnswers(view.id),
        store.twoStaffMark(view.id),
        store.getHomeSetting(TWO_STAFF_SETTING),
        rememberedAssignment(store, view.id),
      ]);
      if (!urgency?.since || urgency.quiet) return undefined;
      const tags = readTwoStaffTags(tagsSetting?.value);
      const twoStaff =
        Boolean(mark) ||
        (tags.length > 0 && needsTwoStaff(null, (await deps.care.actions.retrieve(view.id, { attributes: [...ACTION_ATTRIBUTES] })).user_tags, tags));
      const careId = view.assignee?.careUserId ?? null;
      const known: AnswersKnown = {
        answers,
        twoStaff,
        assignee: careId,
        assigneeKey: careId ? (view.assignee?.slackUserId ?? `care:${careId}`) : null,
        remembered: remembered ? { to: remembered.to, since: parseApiDateTime(remembered.since)?.getTime() ?? 0 } : null,
      };
      return standingIn(known, urgency.since).shown;
    },

    async answer(actor, request) {
      const action = await deps.care.actions.retrieve(request.actionId, { attributes: [...ACTION_ATTRIBUTES] });
      const episode = action.completed || !action.urgent ? null : await episodeOf(action._id);
      if (!episode) return { kind: 'not-asking', action };
      if (request.answer === 'cant' && request.reason != null && !isCantReason(request.reason))
        throw new UserFacingError('Pick a reason from the list.', 'invalid');
      const note = request.note?.trim() ? request.note.trim().slice(0, ANSWER_NOTE_MAX) : null;
      const link = await deps.identity.getLink(actor);
      const doer = request.answer === 'on-it' && request.doer && request.doer !== actor.userId ? request.doer : null;
      const answer = await store.addEpisodeAnswer({
        actionId: action._id,
        episode,
        slackUserId: actor.userId,
        careUserId: link?.careUserId ?? null,
        answer: request.answer,
        reason: request.answer === 'cant' ? (request.reason ?? 'other') : null,
        note,
        doerSlackUserId: doer,
        at: deps.now().getTime(),
      });
      if (!answer) return { kind: 'already', action };
      await store.appendAudit({
        userId: actor.userId,
        verb: request.answer,
        actionId: action._id,
        details: {
          episode,
          answerId: answer.id,
          ...(answer.reason ? { reason: answer.reason } : {}),
          ...(doer ? { doer } : {}),
          ...(note ? { note: true } : {}),
        },
      });
      deps.logger.info('an urgent action was answered', { actionId: action._id, answer: request.answer });
      await tellAssignee(actor, action, answer).catch((err) =>
        deps.logger.warn('could not tell the assignee that someone is on it', { actionId: action._id, error: err }),
      );
      await redraw(action);
      return { kind: 'recorded', answer, action };
    },

    async undo(actor, actionId, answerId) {
      const answer = (await store.listEpisodeAnswers(actionId)).find((a) => a.id === answerId);
      if (!answer) return 'gone';
      if (answer.slackUserId !== actor.userId) return 'not-yours';
      if (answer.undoneAt !== null) return 'spent';
      if (deps.now().getTime() - answer.at >= ANSWER_UNDO_MS) return 'too-late';
      if (!(await store.undoEpisodeAnswer(answerId, deps.now().getTime()))) return 'spent';
      await store.appendAudit({
        userId: actor.userId,
        verb: `${answer.answer}.undo`,
        actionId,
        details: { episode: answer.episode, answerId },
      });
      await redraw(await deps.care.actions.retrieve(actionId, { attributes: [...ACTION_ATTRIBUTES] }));
      return 'undone';
    },

    answersOf: (actionIds) => store.episodeAnswersOf(actionIds),

    async setTwoStaffTags(actor, tags) {
      await deps.identity.requireAdmin(actor);
      const value = tags?.length ? JSON.stringify([...new Set(tags)]) : null;
      await store.setHomeSetting(TWO_STAFF_SETTING, value, actor.userId);
      await store.appendAudit({ userId: actor.userId, verb: 'two-staff.tags', details: { tags: tags ?? [] } });
      return readTwoStaffTags(value);
    },

    twoStaffTags: async () => readTwoStaffTags((await store.getHomeSetting(TWO_STAFF_SETTING))?.value),

    async setTwoStaff(actor, actionId, on) {
      await store.setTwoStaff(actionId, on, actor.userId);
      await store.appendAudit({ userId: actor.userId, verb: 'two-staff', actionId, details: { on } });
    },
  };
}

/**
 * The first live "I'm on it" of an episode, for the follow-up of taken work (follow-up.ts `acknowledged`): whoever
 * said it holds the action from then on, as a take would.
 */
export function acknowledgedFrom(store: Pick<WorkspaceStore, 'listEpisodeAnswers'>) {
  return async (actionId: string, occurrence: string): Promise<{ slackUserId: string; since: Date } | null> => {
    const first = liveAnswers(await store.listEpisodeAnswers(actionId), occurrence).find((a) => a.answer === 'on-it');
    return first ? { slackUserId: first.doerSlackUserId ?? first.slackUserId, since: new Date(first.at) } : null;
  };
}

/** The people on an episode by their answers (on it, join), for who's on now (on-call.ts `answers`). */
export function onItFrom(store: Pick<WorkspaceStore, 'listEpisodeAnswers'>) {
  return async (actionId: string, episode: string): Promise<{ name: string; slackUserId: string; since: Date }[]> =>
    liveAnswers(await store.listEpisodeAnswers(actionId), episode)
      .filter((a) => a.answer !== 'cant')
      .map((a) => ({ name: a.doerSlackUserId ?? a.slackUserId, slackUserId: a.doerSlackUserId ?? a.slackUserId, since: new Date(a.at) }));
}
