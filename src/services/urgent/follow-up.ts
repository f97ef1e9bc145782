/**
 * Follow-up of taken work (issue 33): an urgent action taken (or acknowledged) but neither completed nor made not
 * urgent within N minutes of being taken (`/care escalation followup <minutes>|off`, default 30) gets ONE DM to
 * whoever holds it: "Still open: #301" with Done / Still on it / Hand back. Still open N minutes after that DM (no
 * answer, or "Still on it" ran out), the ladder resumes from the seniors' step (escalations.ts runs it, timed from
 * that moment; its steps are recorded `again` and shown on the alert like the others).
 *
 * Run by the escalation job's tick, before the ladder's steps (same lease, same run): policy in follow-up-policy.ts.
 * - Held: the app's remembered assignment is newer than the episode (taken: Take it, or assigned anywhere), or
 *   `acknowledged` says someone is on it (plugged in by "I'm on it"; none by default).
 * - Once: the DM is a ledger delivery (kind `followup`, occurrence `<episode>@<held since>`), so two instances
 *   send it once; what happened is kept in the cursor `followup:<action Id>` and audited once (`followup.*`).
 * - The DM is a post about the action: the redraw engine draws it again as the action changes (redraw-kinds.ts),
 *   and its buttons go once it is completed, not urgent or with someone else.
 * - Done completes it (as Complete does, with its notices); Still on it restarts the clock once; Hand back
 *   (asked first, by the button) unassigns it in the care system, posts the urgent alert again in the channels
 *   that take urgent alerts ("Handed back by @x") and resumes the ladder one step's time later.
 */
import type { WebClient } from '@slack/web-api';
import { type Action, type CareClient, NotFoundError } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { DeliveryKey, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { ActionsService } from '../actions/actions.js';
import { rememberedAssignment } from '../notices/assignment-notices.js';
import type { ChannelPolicy } from '../channel-policy.js';
import type { Deliverer, DeliveryResult, OutgoingMessage } from '../notices/delivery.js';
import { createDmChannels } from '../dm-channels.js';
import { escalationOf } from './escalation-settings.js';
import { parseProgress, progressCursor } from './escalation-steps.js';
import {
  checkAgainAt,
  FOLLOWUP_KIND,
  FOLLOWUP_VERBS,
  type FollowUpState,
  followUpCursor,
  followUpDmState,
  followUpDue,
  followUpOccurrence,
  HANDBACK_KIND,
  type Hold,
  parseFollowUp,
  parseFollowUpOccurrence,
  type ResumeWhy,
  resumeAt,
  resumeSteps,
  stateFor,
} from './follow-up-policy.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { FollowUpDmState, MessageRenderers } from '../renderers.js';
import { isSafeguarding, safeguardingAudience, safeguardingOf } from './safeguarding.js';
import { episodeCursor, parseUrgency } from './urgent-alerts.js';
import { urgentAlertChannelsFor } from './urgent-audience.js';

/** Someone on an urgent action without being its assignee ("I'm on it"): who, and since when. */
export type Acknowledged = (actionId: string, occurrence: string) => Promise<{ slackUserId: string; since: Date } | null>;

export interface FollowUpReport {
  dms: { actionId: string; to: string | null }[];
  resumed: string[];
  /** Taken episodes still followed up (the job keeps running where there are any). */
  watching: number;
}

/** A press of a follow-up DM's button, answered: the DM as it reads now (drawn where it was pressed), or a note to the presser alone. */
export type FollowUpAnswer = { kind: 'drawn'; message: OutgoingMessage; note?: string } | { kind: 'note'; text: string };

export interface FollowUps {
  runDue(now: Date): Promise<FollowUpReport>;
  answer(actor: Actor, ref: { actionId: string; ref: string }, what: 'done' | 'still-on-it' | 'hand-back'): Promise<FollowUpAnswer>;
}

const RECENT_ALERTS = 500;
const MAX_EPISODE_AGE_MS = 24 * 60 * 60_000;
const FINAL: readonly DeliveryResult[] = ['sent', 'already-sent', 'found-in-slack', 'gave-up'];
const REACHED: readonly DeliveryResult[] = ['sent', 'already-sent', 'found-in-slack'];

interface HeldBy extends Hold {
  /** Taken: the care user assigned; acknowledged: the Slack user on it. */
  careUserId?: string;
  slackUserId?: string;
}

export function createFollowUps(deps: {
  store: WorkspaceStore;
  care: CareClient;
  identity: IdentityService;
  channels: Pick<ChannelPolicy, 'showTasksIn'>;
  deliverer: Deliverer;
  actions: Pick<ActionsService, 'complete' | 'handBack'>;
  render: Required<Pick<MessageRenderers, 'followUp' | 'handBackAlert'>>;
  /** The client scheduled work posts with (paced): DM opening. */
  slack: WebClient;
  teamId: () => Promise<string>;
  timezone: string;
  now: () => Date;
  /** Who is on an action without being its assignee ("I'm on it"); none by default. */
  acknowledged?: Acknowledged | undefined;
  logger: Logger;
}): FollowUps {
  const { store } = deps;
  const dm = createDmChannels(deps.slack);
  const saveState = (actionId: string, state: FollowUpState) => store.setCursor(followUpCursor(actionId), JSON.stringify(state));

  async function episodes(): Promise<{ actionId: string; occurrence: string }[]> {
    const rows = await store.listDeliveries({ kind: 'urgent', state: 'sent', order: 'desc', limit: RECENT_ALERTS });
    const seen = new Map<string, { actionId: string; occurrence: string }>();
    for (const r of rows) seen.set(`${r.actionId}\n${r.occurrence}`, { actionId: r.actionId, occurrence: r.occurrence });
    return [...seen.values()];
  }

  /** Who holds the action in this episode, as the app knows it without asking the care system. */
  async function holdOf(actionId: string, occurrence: string, began: number): Promise<HeldBy | null> {
    const ack = await deps.acknowledged?.(actionId, occurrence);
    if (ack && ack.since.getTime() >= began) return { since: ack.since.getTime(), via: 'acknowledged', slackUserId: ack.slackUserId };
    const remembered = await rememberedAssignment(store, actionId);
    const since = parseApiDateTime(remembered?.since)?.getTime();
    if (!remembered?.to || since === undefined || since <= began) return null;
    return { since, via: 'taken', careUserId: remembered.to };
  }

  async function auditOnce(userId: string, verb: string, actionId: string, details: Record<string, unknown>) {
    const done = (await store.listAudit({ actionId, verb, limit: 50 })).some((e) => e.details.ref === details.ref);
    if (!done) await store.appendAudit({ userId, verb, actionId, details });
  }

  /** The ladder runs again in this episode (escalations.ts), from the seniors' step. */
  async function resume(actionId: string, occurrence: string, now: Date, why: ResumeWhy) {
    const settings = await escalationOf(store);
    const stored = parseProgress(await store.getCursor(progressCursor(actionId)));
    const { stopped: _stopped, ...progress } = stored?.occurrence === occurrence ? stored : { occurrence, done: [] };
    if (progress.resumed) return;
    await store.setCursor(progressCursor(actionId), JSON.stringify({ ...progress, resumed: resumeAt(settings, now.getTime(), why) }));
  }

  async function viewOf(action: Action): Promise<ActionView> {
    return (await toActionViews([action], deps.identity, { store, teamId: deps.teamId }))[0]!;
  }

  function dmMessage(view: ActionView, ref: string, state: FollowUpDmState): OutgoingMessage {
    const of = parseFollowUpOccurrence(ref)!;
    return deps.render.followUp(
      view,
      { now: deps.now(), timezone: deps.timezone, showTask: true, shared: false },
      { ref, heldSince: new Date(of.heldSince), via: of.via, state },
    );
  }

  /** The follow-up DM as it reads now (the action read again, its answers from the audit). */
  async function drawn(actionId: string, ref: string, holder: string, action?: Action): Promise<OutgoingMessage> {
    const now = action ?? (await deps.care.actions.retrieve(actionId, { attributes: [...ACTION_ATTRIBUTES] }));
    const view = await viewOf(now);
    const team = await deps.teamId();
    const audit = (await store.listAudit({ actionId, limit: 200 })).filter((e) => e.teamId === team);
    return dmMessage(view, ref, followUpDmState(view, holder, ref, audit));
  }

  /** The urgent alert again, in the channels that take urgent alerts (a safeguarding action's: its officers' DMs), once per hold. */
  async function alertAgain(action: Action, state: FollowUpState, by: string, now: Date) {
    const occurrence = `${state.occurrence}@${state.heldSince}@${by}`;
    const view = await viewOf(action);
    const team = await deps.teamId();
    const safeguarding = await safeguardingOf(store);
    if (isSafeguarding(action, safeguarding)) {
      for (const userId of safeguardingAudience(safeguarding, deps.identity.adminIds())) {
        const message = deps.render.handBackAlert(view, { now, timezone: deps.timezone, showTask: true, shared: false }, { by, at: now });
        await deps.deliverer.deliver({ kind: HANDBACK_KIND, actionId: action._id, occurrence, recipient: `user:${team}/${userId}` }, () => dm(userId), message);
      }
      return;
    }
    const subs = urgentAlertChannelsFor(await store.listSubscriptions(), action);
    for (const sub of subs) {
      const showTask = await deps.channels.showTasksIn(sub.channelId);
      const message = deps.render.handBackAlert(view, { now, timezone: sub.timeZone, showTask, shared: true }, { by, at: now });
      const key = { kind: HANDBACK_KIND, actionId: action._id, occurrence, recipient: `channel:${sub.teamId}/${sub.channelId}` };
      await deps.deliverer.deliver(key, sub.channelId, message);
    }
  }

  return {
    async runDue(now) {
      const report: FollowUpReport = { dms: [], resumed: [], watching: 0 };
      const settings = await escalationOf(store);
      const minutes = settings.followupMinutes;
      if (minutes === null) return report;
      const team = await deps.teamId();
      for (const episode of await episodes()) {
        const began = parseApiDateTime(episode.occurrence)?.getTime();
        if (began === undefined || now.getTime() - began > MAX_EPISODE_AGE_MS) continue;
        const urgency = parseUrgency(await store.getCursor(episodeCursor(episode.actionId)));
        if (urgency?.since !== episode.occurrence || urgency.quiet) continue;
        const current = parseFollowUp(await store.getCursor(followUpCursor(episode.actionId)));
        const hold = await holdOf(episode.actionId, episode.occurrence, began);
        // Nobody holds it now: only a follow-up already sent goes on (it was unassigned meanwhile, still open: the ladder resumes).
        const state = hold ? stateFor(current, episode.occurrence, hold) : current?.occurrence === episode.occurrence && current.dmAt ? current : null;
        if (!state) continue;
        if (!state.ended) report.watching++;
        const due = followUpDue(minutes, state, now.getTime());
        if (!due) continue;

        let action: Action;
        try {
          action = await deps.care.actions.retrieve(episode.actionId, { attributes: [...ACTION_ATTRIBUTES] });
        } catch (err) {
          if (err instanceof NotFoundError) await saveState(episode.actionId, { ...state, ended: 'gone' });
          else deps.logger.warn('could not read a taken urgent action to follow it up; trying again next minute', { actionId: episode.actionId, error: err });
          continue;
        }
        if (action.completed || !action.urgent) {
          await saveState(episode.actionId, { ...state, ended: action.completed ? 'completed' : 'not-urgent' });
          continue;
        }
        const ref = followUpOccurrence(state);

        if (due.kind === 'resume') {
          // With no step left to resume (escalation off, or a ladder of the thread reminder alone) History says so.
          const steps = resumeSteps(settings.steps);
          if (steps.length) await resume(action._id, episode.occurrence, now, 'followup');
          await saveState(action._id, { ...state, resumedAt: now.toISOString() });
          await auditOnce('-', FOLLOWUP_VERBS.resume, action._id, { episode: episode.occurrence, ref, steps });
          report.resumed.push(action._id);
          continue;
        }

        // The DM: to the assignee whose hold this is (the poll remembers a newer one first), or to whoever is on it.
        if (hold?.via === 'taken' && action.assigned_to !== hold.careUserId) continue;
        const holder = hold?.via === 'acknowledged' ? (hold.slackUserId ?? null) : hold?.careUserId ? await deps.identity.slackUserFor(hold.careUserId) : null;
        let reached = false;
        if (holder) {
          const key: DeliveryKey = { kind: FOLLOWUP_KIND, actionId: action._id, occurrence: ref, recipient: `user:${team}/${holder}` };
          const result = await deps.deliverer.deliver(key, () => dm(holder), dmMessage(await viewOf(action), ref, { kind: 'open' }));
          // Waiting on Slack (its rate limit, another instance's claim): tried again next minute.
          if (!FINAL.includes(result)) {
            const row = result === 'failed' ? await store.getDelivery(key) : null;
            if (!row || row.retryable) continue;
          }
          reached = REACHED.includes(result);
        }
        // Not linked to Slack, or Slack refused the DM for good: nobody was told; the ladder still resumes after another N minutes.
        await saveState(action._id, { ...state, holder, dmAt: now.toISOString() });
        await auditOnce('-', FOLLOWUP_VERBS.dm, action._id, {
          episode: episode.occurrence,
          ref,
          to: reached && holder ? [holder] : [],
          ...(holder && !reached ? { unreached: [holder] } : {}),
        });
        report.dms.push({ actionId: action._id, to: holder });
      }
      return report;
    },

    async answer(actor, { actionId, ref }, what) {
      const team = await deps.teamId();
      const of = parseFollowUpOccurrence(ref);
      const sent = of ? await store.getDelivery({ kind: FOLLOWUP_KIND, actionId, occurrence: ref, recipient: `user:${team}/${actor.userId}` }) : null;
      if (!of || !sent) return { kind: 'note', text: 'This follow-up is not yours to answer; nothing was changed.' };
      const state = parseFollowUp(await store.getCursor(followUpCursor(actionId)));
      // The follow-up this DM is (a newer hold has its own).
      const live = state && followUpOccurrence(state) === ref ? state : null;
      const now = deps.now();

      if (what === 'done') {
        const done = await deps.actions.complete(actor, actionId);
        return { kind: 'drawn', message: await drawn(actionId, ref, actor.userId, done.action) };
      }

      const action = await deps.care.actions.retrieve(actionId, { attributes: [...ACTION_ATTRIBUTES] });
      // Over: handed back, ended, completed or not urgent (a hand-back after the ladder resumed still counts).
      const over = !live || live.handedBackAt || live.ended || action.completed || !action.urgent;

      if (what === 'still-on-it') {
        if (over || live.resumedAt || live.stillOnItAt)
          return { kind: 'drawn', message: await drawn(actionId, ref, actor.userId, action), note: 'This follow-up has already been answered.' };
        const minutes = (await escalationOf(store)).followupMinutes ?? 0;
        await saveState(actionId, { ...live, stillOnItAt: now.toISOString() });
        await auditOnce(actor.userId, FOLLOWUP_VERBS.stillOnIt, actionId, { episode: of.episode, ref, until: checkAgainAt(minutes, now.getTime()) });
        return { kind: 'drawn', message: await drawn(actionId, ref, actor.userId, action) };
      }

      // Hand back: unassigned in the care system (taken), the channel alerted again, the ladder resumed.
      if (over) return { kind: 'drawn', message: await drawn(actionId, ref, actor.userId, action), note: 'This follow-up is over: nothing was handed back.' };
      let after = action;
      if (of.via === 'taken') {
        const link = await deps.identity.requireLink(actor);
        if (action.assigned_to !== link.careUserId)
          return {
            kind: 'drawn',
            message: await drawn(actionId, ref, actor.userId, action),
            note: 'It is not assigned to you any more: nothing was handed back.',
          };
        // Recorded first: every post drawn after the write already says it was handed back.
        await saveState(actionId, { ...live, handedBackAt: now.toISOString() });
        await auditOnce(actor.userId, FOLLOWUP_VERBS.handBack, actionId, { episode: of.episode, ref, from: link.careUserId });
        after = (await deps.actions.handBack(actor, actionId, link.careUserId)).action;
      } else {
        await saveState(actionId, { ...live, handedBackAt: now.toISOString() });
        await auditOnce(actor.userId, FOLLOWUP_VERBS.handBack, actionId, { episode: of.episode, ref });
      }
      await resume(actionId, of.episode, now, 'hand-back');
      await alertAgain(after, live, actor.userId, now).catch((err: unknown) =>
        deps.logger.warn('could not post the urgent alert again after a hand-back', { actionId, error: err }),
      );
      return { kind: 'drawn', message: await drawn(actionId, ref, actor.userId, after) };
    },
  };
}
