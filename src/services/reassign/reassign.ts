/**
 * Reassign all of someone's open work (sickness, a shift swap): admins only.
 * `plan` counts what would move (for the confirmation); `run` moves it one
 * action at a time through the care client (which paces itself under the care
 * API's rate limit), audits each move, says how far it has got, and ends with
 * exactly what moved and what did not. Then one summary DM to each person
 * affected who is linked to Slack (the one losing the work and the one
 * receiving it), through the exactly-once ledger; the per-action assignment
 * DMs are kept quiet for these moves (the summary tells them instead).
 */
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import { dueWindow, inWindow } from '../../time/due-windows.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';
import type { AssignmentNotices } from '../notices/assignment-notices.js';
import type { Deliverer, DeliveryResult, OutgoingMessage } from '../notices/delivery.js';
import { createDmChannels } from '../dm-channels.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { moveOne } from './reassign-move.js';
import type { MovedAction, PersonRef, ReassignOutcome, ReassignPlan, ReassignScope, ReassignSummary, RotaPerson } from './reassign-types.js';
import { parseReassignRecord, REASSIGN_UNDO_WINDOW_MS, reassignRecordName, undoRecordOf } from './reassign-records.js';
import type { WorkspaceNames } from '../people/workspace-names.js';
import type { WebClient } from '@slack/web-api';

export type { MovedAction, PersonRef, ReassignOutcome, ReassignPlan, ReassignScope, ReassignSummary, RotaPerson } from './reassign-types.js';

export interface ReassignService {
  /** One person on the rota by what the admin typed; a sentence naming close matches when not one. */
  person(ref: PersonRef): Promise<RotaPerson>;
  /**
   * Admins only: what would move (counted for the confirmation), kept under `runId` (the store's
   * cursors) so that the run moves exactly what was confirmed, and names what it could not.
   */
  plan(admin: Actor, from: RotaPerson, to: RotaPerson, scope: ReassignScope, runId: string): Promise<ReassignPlan>;
  /**
   * Admins only: move the actions of the plan confirmed as `runId` that are still assigned to `from`
   * (each read again just before, so one deleted, completed or given to someone else meanwhile is
   * not moved, and said so). Once per run (the ledger sends its summary DMs once). `onProgress` after each.
   * At the end the admin gets one result DM (with Undo when something moved), and the plan is replaced
   * by what Undo needs (reassign-records.ts).
   */
  run(
    admin: Actor,
    runId: string,
    onProgress?: (done: number, total: number, plan: ReassignPlan) => Promise<void> | void,
  ): Promise<{ plan: ReassignPlan; outcome: ReassignOutcome; undoUntil: number | null }>;
}

/** The result DM's Undo: which run, and until when (Unix ms). */
export interface UndoOffer {
  runId: string;
  expiresAt: number;
  /** How long Undo works after a run. */
  windowMs: number;
}

/** What the Slack layer renders: the summary DMs, and the result for an admin who closed the modal. */
export interface ReassignRenderers {
  summary(summary: ReassignSummary): OutgoingMessage;
  /** The admin's result DM, with Undo while it works (null: nothing moved). */
  result(plan: ReassignPlan, outcome: ReassignOutcome, undo: UndoOffer | null): OutgoingMessage;
}

/** One run moves at most this many actions (25 a few seconds each at the care API's 10 requests a second). */
export const MAX_MOVES = 500;

export function createReassignService(deps: {
  /** Writes (observed by the read cache). */
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  /** The workspace it serves (bound at composition: no caller names one). */
  teamId: () => Promise<string>;
  names: WorkspaceNames;
  assignments: Pick<AssignmentNotices, 'quietly'>;
  deliverer: Deliverer;
  slack: WebClient;
  render: ReassignRenderers;
  timezone: string;
  now: () => Date;
  logger: Logger;
}): ReassignService {
  const { care, store, identity, logger } = deps;
  const dmChannel = createDmChannels(deps.slack);

  async function withSlack(careUserId: string, name: string): Promise<RotaPerson> {
    const slackUserId = await identity.slackUserFor(careUserId);
    return { careUserId, name, ...(slackUserId ? { slackUserId } : {}) };
  }

  async function byCareName(typed: string): Promise<RotaPerson> {
    const found = await identity.findCareUsers(typed);
    if (!found.available)
      throw new UserFacingError('The care system does not let me read its users: name them with @ from Slack’s list, or give their care user Id.');
    const exact = found.users.filter((u) => u.name.toLowerCase() === typed.trim().toLowerCase());
    const hits = exact.length ? exact : found.users;
    if (hits.length === 1) return withSlack(hits[0]!.id, hits[0]!.name);
    if (hits.length > 1)
      throw new UserFacingError(
        `More than one person on the rota matches “${typed}”: ${hits
          .slice(0, 6)
          .map((u) => `${u.name} (\`${u.id}\`)`)
          .join(', ')}. Type their whole name, or their care user Id.`,
      );
    // None: the people with any one of the words in their name.
    const near = new Map<string, string>();
    for (const word of typed.split(/\s+/).filter((w) => w.length >= 2)) {
      for (const u of (await identity.findCareUsers(word)).users.slice(0, 6)) near.set(u.id, u.name);
    }
    const names = [...near.values()].slice(0, 6);
    throw new UserFacingError(
      `No one on the rota is called “${typed}”.${names.length ? ` Did you mean ${names.join(', ')}?` : ''} Type their name as the care system has it, their care user Id, or pick them with @.`,
    );
  }

  async function fromSlack(slackUserId: string): Promise<RotaPerson> {
    const link = await identity.getLink({ userId: slackUserId });
    if (!link)
      throw new UserFacingError(
        `<@${slackUserId}> has not linked a care account, so I cannot tell which care user they are: type their name as the care system has it, or their care user Id.`,
      );
    return { careUserId: link.careUserId, name: (await identity.careUserName(link.careUserId)) ?? 'Care user', slackUserId };
  }

  async function isAdmin(admin: Actor): Promise<void> {
    if (!(await identity.isAdmin(admin)))
      throw new UserFacingError('Only admins can reassign someone’s work. Ask a workspace admin to do it (`/care admins` lists them).', 'not-admin');
  }

  const label = (a: Pick<Action, '_id' | 'action_no'>): MovedAction => ({ id: a._id, no: a.action_no ?? null });

  async function tell(admin: Actor, plan: ReassignPlan, outcome: ReassignOutcome, runId: string): Promise<DeliveryResult[]> {
    if (outcome.moved.length === 0) return [];
    const results: DeliveryResult[] = [];
    for (const reader of ['from', 'to'] as const) {
      const person = plan[reader];
      if (!person.slackUserId || person.slackUserId === admin.userId) continue;
      const key = { kind: 'reassign-summary', actionId: `run:${runId}`, occurrence: runId, recipient: `user:${await deps.teamId()}/${person.slackUserId}` };
      const message = deps.render.summary({ by: admin.userId, from: plan.from, to: plan.to, moved: outcome.moved, reader });
      results.push(await deps.deliverer.deliver(key, () => dmChannel(person.slackUserId!), message));
    }
    return results;
  }

  return {
    async person(ref) {
      if (ref.type === 'slack') return fromSlack(ref.id);
      if (ref.type === 'care') {
        const name = await identity.careUserName(ref.id);
        if (!name) throw new UserFacingError(`There is no care user with the Id \`${ref.id}\`. Check it on their page in the care system, or type their name.`);
        return withSlack(ref.id, name);
      }
      const typed = ref.name.trim();
      if (typed.startsWith('@')) {
        const found = await deps.names.person({ type: 'name', name: typed });
        if (found.kind === 'found') return fromSlack(found.match.id);
        // Not a Slack name: maybe their care name ("@Ben Whitaker").
        return byCareName(typed.replace(/^@+/, ''));
      }
      return byCareName(typed);
    },

    async plan(admin, from, to, scope, runId) {
      await isAdmin(admin);
      if (from.careUserId === to.careUserId)
        throw new UserFacingError(`${from.name} and ${to.name} are the same person: name someone else to move the work to.`);
      const now = deps.now();
      const today = dueWindow('today', now, deps.timezone);
      // Read fresh from the care system (not the cache): what is counted is what will be moved.
      const open = await care.actions.collect({
        filters: { assigned_to: from.careUserId, completed: 'no' },
        attributes: [...ACTION_ATTRIBUTES],
        sort_by: ['due'],
        per_page: 100,
        limit: MAX_MOVES + 1,
      });
      const mine = open.filter((a) => a.assigned_to === from.careUserId && !a.completed);
      const kind = (a: Action): 'overdue' | 'today' | 'later' => {
        const due = parseApiDateTime(a.due);
        if (!due) return 'later';
        if (due.getTime() < now.getTime()) return 'overdue';
        return inWindow(due, today) ? 'today' : 'later';
      };
      const wanted = mine.filter((a) => scope === 'all' || kind(a) === 'overdue' || (scope === 'today' && kind(a) === 'today'));
      const planned = wanted.slice(0, MAX_MOVES);
      const count = (k: string) => planned.filter((a) => kind(a) === k).length;
      const plan: ReassignPlan = {
        from,
        to,
        scope,
        actions: planned.map(label),
        total: planned.length,
        overdue: count('overdue'),
        today: count('today'),
        later: count('later'),
        capped: wanted.length > MAX_MOVES,
      };
      if (plan.total) await store.setCursor(reassignRecordName(runId), JSON.stringify({ state: 'confirming', plan, at: now.getTime() }));
      return plan;
    },

    async run(admin, runId, onProgress) {
      await isAdmin(admin);
      const kept = parseReassignRecord(await store.getCursor(reassignRecordName(runId)));
      if (!kept) throw new UserFacingError('That confirmation is no longer known here: start again with `/care reassign` or the Team view.');
      if (kept.state !== 'confirming') throw new UserFacingError('This reassignment has already run; its result was shown, and the people affected were told.');
      const plan = kept.plan;
      await store.setCursor(reassignRecordName(runId), JSON.stringify({ ...kept, state: 'running' }));
      const outcome: ReassignOutcome = { moved: [], failed: [] };
      let done = 0;
      for (const planned of plan.actions) {
        const move = { planned, from: plan.from.careUserId, to: plan.to.careUserId, verb: 'reassign', run: runId, since: 'meanwhile' };
        const one = await moveOne({ care, store, assignments: deps.assignments, logger }, admin, move);
        if (one.moved) outcome.moved.push(one.action);
        else outcome.failed.push({ ...one.action, why: one.why });
        done++;
        try {
          await onProgress?.(done, plan.actions.length, plan);
        } catch (err) {
          logger.warn('could not show how far a reassignment has got', { error: err });
        }
      }
      logger.info('reassigned work', { by: admin.userId, moved: outcome.moved.length, failed: outcome.failed.length, run: runId });
      // The plan (names, Slack Ids) goes: only what Undo needs stays, until its window ends (reassign-records.ts).
      const undo = undoRecordOf(plan, outcome.moved, deps.now().getTime());
      if (undo) await store.setCursor(reassignRecordName(runId), JSON.stringify(undo));
      else await store.deleteCursor(reassignRecordName(runId));
      await tell(admin, plan, outcome, runId).catch((err) => logger.warn('could not send a reassignment summary', { error: err }));
      await deps.deliverer
        .deliver(
          { kind: 'reassign-result', actionId: `run:${runId}`, occurrence: runId, recipient: `user:${await deps.teamId()}/${admin.userId}` },
          () => dmChannel(admin.userId),
          deps.render.result(plan, outcome, undo ? { runId, expiresAt: undo.expiresAt, windowMs: REASSIGN_UNDO_WINDOW_MS } : null),
        )
        .catch((err) => logger.warn('could not send a reassignment result', { error: err }));
      return { plan, outcome, undoUntil: undo?.expiresAt ?? null };
    },
  };
}
