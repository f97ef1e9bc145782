/**
 * Escalation of urgent work: an urgent action that nobody takes, completes or
 * un-urgents climbs the ladder its care home set (escalation-ladder.ts,
 * `/care escalation`): a reminder in its alert's thread, a DM to the seniors
 * on shift, a post in the managers' channel. Run by a job every 5 seconds
 * (jobs/escalation-tick.ts), leased per workspace.
 *
 * - What escalates: an urgent episode the app alerted (an `urgent` ledger row
 *   sent to a channel). An action already urgent when the app first saw it
 *   (a "quiet" episode) was never alerted, so it never escalates; with no
 *   channel taking urgent alerts nothing escalates.
 * - Each step once: each message is a ledger delivery keyed by (kind
 *   `escalation`, action, `<episode occurrence>#<step>`, recipient; a repeat
 *   of the last step `…#<step>#<n>`), so two instances send it once; the steps
 *   done are kept per action in the store's cursors (`escalation:<action Id>`).
 * - Stopped: before each step the action is read again; completed, no longer
 *   urgent (or a new episode), or taken (escalation-ladder.ts isTaken) ends
 *   its escalation for the episode, in Slack or in the care system alike.
 * - Each step is recorded as it happened (escalation-steps.ts: whom it
 *   reached, whom Slack refused for good, or why it had nobody to reach),
 *   audited (`escalate`, details {step, to, shift?, skipped?, reason?,
 *   unreached?}; no task text) and shown on every alert of the episode
 *   (chat.update, through the paced client): "Reminder sent in thread at
 *   10:17", "Escalated to @amelia at 10:32", "Nobody DMed at 10:32: no seniors
 *   are named for the Night shift". A later step's post tells the steps before
 *   it from these records, never from the settings.
 * - A step with nobody to reach (no seniors named for the shift on, no
 *   managers' channel) tells the workspace's admins once how to fix it: a
 *   ledger delivery (kind `escalation-gap`, occurrence `seniors/<shift>` or
 *   `managers-channel`, per admin), so once across actions, runs and instances.
 */
import type { HistoryAccess } from '../notices/history-access.js';
import type { WebClient } from '@slack/web-api';
import { type Action, type CareClient, NotFoundError } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { Delivery, DeliveryKey, WorkspaceStore } from '../../store/index.js';
import { currentShift } from '../../time/shifts.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView, type AnswersShown } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { ChannelPolicy } from '../channel-policy.js';
import type { Deliverer, DeliveryResult } from '../notices/delivery.js';
import { createDmChannels } from '../dm-channels.js';
import { earlyStep, liveAnswers } from './answer-policy.js';
import { answersKnown, standingIn } from './episode-answers.js';
import { dueRung, type EscalationStep, nextReachableStep } from './escalation-ladder.js';
import { escalationOf } from './escalation-settings.js';
import { resumedDueStep, resumedOccurrence } from './follow-up-policy.js';
import { type EscalationProgress, lineOf, noManagersChannel, noSeniors, parseProgress, progressCursor, type StepDone } from './escalation-steps.js';
import type { IdentityService } from '../people/identity.js';
import type { EscalationGap, MessageRenderers } from '../renderers.js';
import { isSafeguarding, safeguardingAudience, safeguardingOf } from './safeguarding.js';
import { shiftsOf } from '../shift-work/shift-settings.js';
import { episodeCursor, parseUrgency } from './urgent-alerts.js';

export const ESCALATION_KIND = 'escalation';
/** The admins' one DM that a step had nobody to reach (occurrence `seniors/<shift>` or `managers-channel`). */
export const ESCALATION_GAP_KIND = 'escalation-gap';

/** How many of the newest urgent alerts the job looks at each run. */
const RECENT_ALERTS = 500;
/** An episode older than this is not escalated (any more). */
const MAX_EPISODE_AGE_MS = 24 * 60 * 60_000;

export { type EscalationProgress, parseProgress, progressCursor, type StepDone } from './escalation-steps.js';

export interface EscalationReport {
  episodes: number;
  steps: { actionId: string; step: EscalationStep; to: string[]; skipped?: string; repeat?: number }[];
  stopped: number;
}

export interface Escalations {
  runDue(now: Date): Promise<EscalationReport>;
}

/** An alert the ledger holds as sent: where it is. */
interface AlertPost {
  recipient: string;
  channel: string;
  ts: string;
}

const FINAL: readonly DeliveryResult[] = ['sent', 'already-sent', 'found-in-slack', 'gave-up'];
/** A delivery that reached its recipient (a settled one that did not: Slack refused it for good). */
const REACHED: readonly DeliveryResult[] = ['sent', 'already-sent', 'found-in-slack'];

export function createEscalations(deps: {
  store: WorkspaceStore;
  care: CareClient;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Required<Pick<MessageRenderers, 'escalatedAlert' | 'escalation' | 'escalationGap'>>;
  /** The client scheduled work posts with (paced): alert updates, DM opening. */
  slack: WebClient;
  teamId: () => Promise<string>;
  /** The home's zone (which shift is on). */
  timezone: string;
  /**
   * Read each alert post before changing it (so only its escalation line changes). Off for an app Slack allows
   * one history read a minute (distributed, not Marketplace): the alert is then drawn afresh.
   */
  readAlertPosts?: boolean;
  /** Whether the workspace granted the history scopes (without them an alert is drawn afresh, never read). */
  history?: HistoryAccess | undefined;
  /** Location names by id (reference data). */
  locationNames?: (ids: string[]) => Promise<Map<string, string>>;
  logger: Logger;
}): Escalations {
  const { store } = deps;
  const dm = createDmChannels(deps.slack);

  async function episodesWithAlerts(): Promise<Map<string, { actionId: string; occurrence: string; alerts: AlertPost[] }>> {
    const rows = await store.listDeliveries({ kind: 'urgent', state: 'sent', order: 'desc', limit: RECENT_ALERTS });
    const out = new Map<string, { actionId: string; occurrence: string; alerts: AlertPost[] }>();
    for (const r of rows) {
      if (!r.slackChannel || !r.slackTs) continue;
      const key = `${r.actionId}\n${r.occurrence}`;
      const entry = out.get(key) ?? { actionId: r.actionId, occurrence: r.occurrence, alerts: [] };
      entry.alerts.push({ recipient: r.recipient, channel: r.slackChannel, ts: r.slackTs });
      out.set(key, entry);
    }
    return out;
  }

  /** Whether every delivery of a step is settled for good (sent, found, given up, or failed for a reason that stays). */
  async function settled(keys: DeliveryKey[], results: DeliveryResult[]): Promise<boolean> {
    for (const [i, r] of results.entries()) {
      if (FINAL.includes(r)) continue;
      if (r !== 'failed') return false;
      const row: Delivery | null = await store.getDelivery(keys[i]!);
      if (!row || row.retryable) return false;
    }
    return true;
  }

  /**
   * Tell the workspace's admins, once (the ledger: per workspace and missing setting, across instances and runs),
   * that a step had nobody to reach and how to fix it.
   */
  async function tellAdmins(gap: EscalationGap, occurrence: string): Promise<void> {
    const team = await deps.teamId();
    const message = deps.render.escalationGap(gap, { timezone: deps.timezone });
    for (const admin of deps.identity.adminIds()) {
      const key = { kind: ESCALATION_GAP_KIND, actionId: '-', occurrence, recipient: `user:${team}/${admin}` };
      await deps.deliverer
        .deliver(key, () => dm(admin), message)
        .catch((err: unknown) => {
          deps.logger.warn('could not tell an admin that an escalation step had nobody to reach', { occurrence, error: err });
        });
    }
  }

  async function updateAlerts(view: ActionView, alerts: AlertPost[], done: StepDone[], now: Date, answers?: AnswersShown) {
    const lines = done.map(lineOf);
    for (const alert of alerts) {
      try {
        const showTask = await deps.channels.showTasksIn(alert.channel);
        // As Slack holds it now (a "Snoozed by @x · Undo" row stays); drawn afresh if it cannot be read.
        const read =
          deps.readAlertPosts === false || (deps.history && !(await deps.history.readable().catch(() => false)))
            ? null
            : await deps.slack.conversations.history({ channel: alert.channel, latest: alert.ts, inclusive: true, limit: 1 }).catch(() => null);
        const current = read?.messages?.find((m) => m.ts === alert.ts)?.blocks;
        const message = deps.render.escalatedAlert(view, { now, timezone: deps.timezone, showTask, shared: true, answers }, lines, current);
        await deps.slack.chat.update({ channel: alert.channel, ts: alert.ts, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
      } catch (err) {
        deps.logger.warn('could not show the escalation on the urgent alert', { actionId: view.id, channel: alert.channel, error: err });
      }
    }
  }

  return {
    async runDue(now) {
      const report: EscalationReport = { episodes: 0, steps: [], stopped: 0 };
      const settings = await escalationOf(store);
      if (!settings.steps.length) return report;
      const team = await deps.teamId();
      const safeguardingSettings = await safeguardingOf(store);
      const safeguarding = (a: Action) => isSafeguarding(a, safeguardingSettings);
      let shiftName: string | undefined;
      /** The shift on now (its seniors are the ones DMed), read once a run. */
      const shiftOn = async () => (shiftName ??= currentShift(await shiftsOf(store), now, deps.timezone).shift.name);
      for (const episode of (await episodesWithAlerts()).values()) {
        const began = parseApiDateTime(episode.occurrence)?.getTime();
        if (began === undefined || now.getTime() - began > MAX_EPISODE_AGE_MS) continue;
        // Only the episode still running (the poll or a change in Slack ends it when the action stops being urgent).
        const urgency = parseUrgency(await store.getCursor(episodeCursor(episode.actionId)));
        if (urgency?.since !== episode.occurrence || urgency.quiet) continue;
        const cursor = progressCursor(episode.actionId);
        const stored = parseProgress(await store.getCursor(cursor));
        const progress: EscalationProgress = stored?.occurrence === episode.occurrence ? stored : { occurrence: episode.occurrence, done: [] };
        if (progress.stopped) continue;
        report.episodes++;
        let drawn: ActionView | undefined;
        let drawnSafeguarding = false;
        let answers: AnswersShown | undefined;
        // The answers to the episode: "I can't" from everyone a step reached brings the next step at once (answer-policy.ts).
        const live = liveAnswers(await store.listEpisodeAnswers(episode.actionId), episode.occurrence);
        const byDm = episode.alerts.every((a) => a.recipient.startsWith('user:'));
        const alerted = episode.alerts.map((a) => a.recipient.slice(a.recipient.indexOf('/') + 1));
        // A skipped step (nobody to tell) hands its time on: the next is tried in the same run.
        for (let more = true; more; ) {
          more = false;
          // A ladder resumed after it was taken (follow-up.ts) runs its own steps, timed from the resume (and no
          // repeats); otherwise a step of the ladder, or a repeat of its last step (escalation-ladder.ts dueRung).
          // "I can't" from everyone the round's last step reached brings its next step at once (answer-policy.ts).
          const round = progress.resumed ? progress.done.filter((d) => d.again) : progress.done;
          const roundBegan = progress.resumed ? Date.parse(progress.resumed.at) : began;
          const due =
            (progress.resumed
              ? resumedDueStep(
                  settings,
                  progress.resumed,
                  round.map((d) => d.step),
                  now.getTime(),
                  round.filter((d) => d.skipped).map((d) => d.step),
                )
              : dueRung(settings, began, progress.done, now.getTime())) ??
            earlyStep(settings, roundBegan, round, now.getTime(), live, { safeguarding: byDm, alerted });
          if (!due) break;
          const n = (due as { repeat?: number }).repeat;
          const repeat = n && settings.repeat ? { n, of: settings.repeat.times } : undefined;

          // Read it again: whatever happened since the poll (in Slack or the care system) decides.
          let action: Action;
          try {
            action = await deps.care.actions.retrieve(episode.actionId, { attributes: [...ACTION_ATTRIBUTES] });
          } catch (err) {
            // Deleted in the care system: nothing left to escalate. Anything else: tried again next minute,
            // without holding back the other actions' steps.
            if (err instanceof NotFoundError) {
              report.stopped++;
              await store.setCursor(cursor, JSON.stringify({ ...progress, stopped: 'gone' }));
            } else deps.logger.warn('could not read an urgent action to escalate it; trying again next minute', { actionId: episode.actionId, error: err });
            break;
          }
          // Taken (one person needed), or enough people on it (escalation-ladder.ts isTaken; answer-policy.ts);
          // resumed: only a take or an answer after the resume stops it again.
          const standing = standingIn(
            await answersKnown({ store, identity: deps.identity }, action),
            episode.occurrence,
            progress.resumed ? Date.parse(progress.resumed.at) : undefined,
          );
          const stop = action.completed ? 'completed' : !action.urgent ? 'not-urgent' : standing.taker && !standing.twoStaff ? 'taken' : undefined;
          if (stop) {
            report.stopped++;
            await store.setCursor(cursor, JSON.stringify({ ...progress, stopped: stop }));
            continue;
          }
          // An answer's stop lasts while the answer does (its Undo lets the ladder go on): not recorded as an end.
          if (standing.answered) {
            report.stopped++;
            break;
          }
          answers = standing.shown;

          const [view] = await toActionViews([action], deps.identity);
          const location =
            action.location && deps.locationNames ? ((await deps.locationNames([action.location]).catch(() => null))?.get(action.location) ?? null) : null;
          // What the steps before this one did, as recorded: the post says that, never a guess from the settings.
          const info = {
            step: due.step,
            unansweredMinutes: Math.max(0, Math.floor((now.getTime() - began) / 60_000)),
            location,
            before: progress.done.map(lineOf),
            ...(progress.resumed ? { again: progress.resumed.why } : {}),
            ...(repeat ? { repeat } : {}),
          };
          const askCtx = { now, timezone: deps.timezone, answers };
          // Each repeat its own ledger rows: `<episode>#<step>#<n>`; a resumed step `<episode>#<step>+again`.
          const occurrence = progress.resumed
            ? resumedOccurrence(episode.occurrence, due.step)
            : `${episode.occurrence}#${due.step}${repeat ? `#${repeat.n}` : ''}`;
          const sent: { key: DeliveryKey; result: DeliveryResult; target: string }[] = [];
          let skip: Partial<StepDone> | undefined;
          let shift: string | undefined;

          if (due.step === 'thread') {
            // A safeguarding action's reminder only in its officers' DMs (an alert posted before it was tagged stays quiet).
            for (const alert of episode.alerts.filter((a) => !safeguarding(action) || !a.recipient.startsWith('channel:'))) {
              const showTask = await deps.channels.showTasksIn(alert.channel);
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: alert.recipient };
              const message = deps.render.escalation(view!, { ...askCtx, showTask, shared: true }, info);
              sent.push({ key, result: await deps.deliverer.deliver(key, alert.channel, { ...message, thread_ts: alert.ts }), target: alert.channel });
            }
          } else if (safeguarding(action)) {
            // A safeguarding action climbs by DM to the officers alone (the admins when none are named), never a channel.
            const officers = safeguardingAudience(safeguardingSettings, deps.identity.adminIds());
            for (const userId of officers) {
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: `user:${team}/${userId}` };
              const message = deps.render.escalation(view!, { ...askCtx, showTask: true, shared: false }, info);
              sent.push({ key, result: await deps.deliverer.deliver(key, () => dm(userId), message), target: userId });
            }
          } else if (due.step === 'seniors') {
            shift = await shiftOn();
            const seniors = settings.seniors[shift] ?? [];
            if (!seniors.length) skip = noSeniors(shift);
            for (const userId of seniors) {
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: `user:${team}/${userId}` };
              const message = deps.render.escalation(view!, { ...askCtx, showTask: true, shared: false }, { ...info, shift });
              sent.push({ key, result: await deps.deliverer.deliver(key, () => dm(userId), message), target: userId });
            }
          } else {
            const channel = settings.managersChannel;
            if (!channel) skip = noManagersChannel();
            else {
              const showTask = await deps.channels.showTasksIn(channel);
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: `channel:${team}/${channel}` };
              const message = deps.render.escalation(view!, { ...askCtx, showTask, shared: true }, info);
              sent.push({ key, result: await deps.deliverer.deliver(key, channel, message), target: channel });
            }
          }

          // A step waiting on Slack (its rate limit, a claim of another instance) is tried again next minute.
          if (
            !skip &&
            !(await settled(
              sent.map((x) => x.key),
              sent.map((x) => x.result),
            ))
          )
            continue;
          // Whom it reached (and whom Slack refused for good), as it happened: written once, never rewritten.
          const to = sent.filter((x) => REACHED.includes(x.result)).map((x) => x.target);
          const unreached = sent.filter((x) => !REACHED.includes(x.result)).map((x) => x.target);
          const done: StepDone = {
            step: due.step,
            at: now.toISOString(),
            to,
            ...(shift ? { shift } : {}),
            ...skip,
            ...(unreached.length ? { unreached } : {}),
            ...(progress.resumed ? { again: progress.resumed.why } : {}),
            ...(repeat ? { repeat: repeat.n, of: repeat.of } : {}),
            ...('early' in due && due.early ? { early: true } : {}),
          };
          progress.done.push(done);
          await store.setCursor(cursor, JSON.stringify(progress));
          // Once per step: a run that finds the step's messages already sent (another instance's, or its own
          // before a crash) audits it only if that run did not.
          const audited = (await store.listAudit({ actionId: action._id, verb: 'escalate', limit: 50 })).some(
            (e) =>
              e.details.step === due.step &&
              e.details.episode === episode.occurrence &&
              (e.details.again ?? null) === (done.again ?? null) &&
              (e.details.repeat ?? 0) === (repeat?.n ?? 0),
          );
          const { at: _at, step: _step, ...record } = done;
          if (!audited)
            await store.appendAudit({
              userId: '-',
              verb: 'escalate',
              actionId: action._id,
              details: { step: due.step, episode: episode.occurrence, ...record },
            });
          report.steps.push({
            actionId: action._id,
            step: due.step,
            to,
            ...(done.skipped ? { skipped: done.skipped } : {}),
            ...(repeat ? { repeat: repeat.n } : {}),
          });
          drawn = view!;
          drawnSafeguarding = safeguarding(action);
          if (done.skipped) {
            more = true;
            const gap: EscalationGap = {
              missing: due.step === 'seniors' ? 'seniors' : 'managers-channel',
              ...(shift ? { shift } : {}),
              // What it did instead: the next step of the ladder with someone to reach now.
              next: nextReachableStep(settings, due.index, await shiftOn()),
              ...(settings.managersChannel ? { managersChannel: settings.managersChannel } : {}),
              actionNo: action.action_no ?? null,
              actionId: action._id,
              at: now,
            };
            await tellAdmins(gap, due.step === 'seniors' ? `seniors/${shift}` : 'managers-channel');
          }
        }
        // The alert shows every step recorded, a skipped one in words (once a run, after its steps).
        // A safeguarding action's steps are drawn on its officers' DMs only (an alert posted before it was tagged is left as it was).
        const shownOn = drawnSafeguarding ? episode.alerts.filter((a) => !a.recipient.startsWith('channel:')) : episode.alerts;
        if (drawn) await updateAlerts(drawn, shownOn, progress.done, now, answers);
      }
      return report;
    },
  };
}
