/**
 * Escalation of urgent work: an urgent action that nobody takes, completes or
 * un-urgents climbs the ladder its care home set (escalation-ladder.ts,
 * `/care escalation`): a reminder in its alert's thread, a DM to the seniors
 * on shift, a post in the managers' channel. Run by a job every minute
 * (jobs/escalation-tick.ts), leased per workspace.
 *
 * - What escalates: an urgent episode the app alerted (an `urgent` ledger row
 *   sent to a channel). An action already urgent when the app first saw it
 *   (a "quiet" episode) was never alerted, so it never escalates; with no
 *   channel taking urgent alerts nothing escalates.
 * - Each step once: each message is a ledger delivery keyed by (kind
 *   `escalation`, action, `<episode occurrence>#<step>`, recipient), so two
 *   instances send it once; the steps done are kept per action in the store's
 *   cursors (`escalation:<action Id>`).
 * - Stopped: before each step the action is read again; completed, no longer
 *   urgent (or a new episode), or taken (escalation-ladder.ts isTaken) ends
 *   its escalation for the episode, in Slack or in the care system alike.
 * - Each step is audited (`escalate`, details {step, to}; no task text) and
 *   shown on every alert of the episode (chat.update, through the paced
 *   client): "Reminder sent in thread at 10:17", "Escalated to @amelia at 10:32".
 */
import type { WebClient } from '@slack/web-api';
import { type Action, type CareClient, NotFoundError } from '../care/index.js';
import type { Logger } from '../logging/logger.js';
import type { Delivery, DeliveryKey, WorkspaceStore } from '../store/index.js';
import { currentShift } from '../time/shifts.js';
import { parseApiDateTime } from '../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView } from './action-model.js';
import { toActionViews } from './action-views.js';
import { rememberedAssignment } from './assignment-notices.js';
import type { ChannelPolicy } from './channel-policy.js';
import type { Deliverer, DeliveryResult } from './delivery.js';
import { createDmChannels } from './dm-channels.js';
import { dueStep, type EscalationStep, isTaken } from './escalation-ladder.js';
import { escalationOf } from './escalation-settings.js';
import type { IdentityService } from './identity.js';
import type { EscalationLine, MessageRenderers } from './renderers.js';
import { shiftsOf } from './shift-settings.js';
import { episodeCursor, parseUrgency } from './urgent-alerts.js';

export const ESCALATION_KIND = 'escalation';

/** How many of the newest urgent alerts the job looks at each run. */
const RECENT_ALERTS = 500;
/** An episode older than this is not escalated (any more). */
const MAX_EPISODE_AGE_MS = 24 * 60 * 60_000;

/** One step as done: when (the app's clock), to whom, or why it was skipped. */
export interface StepDone {
  step: EscalationStep;
  at: string;
  to: string[];
  skipped?: string;
}

/** What the app remembers of an action's escalation in one episode. */
export interface EscalationProgress {
  occurrence: string;
  done: StepDone[];
  /** Why it stopped: 'taken', 'completed', 'not-urgent'. */
  stopped?: string;
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

export interface EscalationReport {
  episodes: number;
  steps: { actionId: string; step: EscalationStep; to: string[]; skipped?: string }[];
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

export function createEscalations(deps: {
  store: WorkspaceStore;
  care: CareClient;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Required<Pick<MessageRenderers, 'escalatedAlert' | 'escalation'>>;
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

  async function updateAlerts(view: ActionView, alerts: AlertPost[], team: string, done: StepDone[], now: Date) {
    const lines: EscalationLine[] = done.filter((d) => !d.skipped).map((d) => ({ step: d.step, to: d.to, at: new Date(d.at) }));
    for (const alert of alerts) {
      try {
        const showTask = await deps.channels.showTasksIn(team, alert.channel);
        // As Slack holds it now (a "Snoozed by @x · Undo" row stays); drawn afresh if it cannot be read.
        const read =
          deps.readAlertPosts === false
            ? null
            : await deps.slack.conversations.history({ channel: alert.channel, latest: alert.ts, inclusive: true, limit: 1 }).catch(() => null);
        const current = read?.messages?.find((m) => m.ts === alert.ts)?.blocks;
        const message = deps.render.escalatedAlert(view, { now, timezone: deps.timezone, showTask, shared: true }, lines, current);
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
        // A skipped step (nobody to tell) hands its time on: the next is tried in the same run.
        for (let more = true; more; ) {
          more = false;
          const due = dueStep(
            settings,
            began,
            progress.done.map((d) => d.step),
            now.getTime(),
            progress.done.filter((d) => d.skipped).map((d) => d.step),
          );
          if (!due) break;

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
          const remembered = await rememberedAssignment(store, action._id);
          const stop = action.completed
            ? 'completed'
            : !action.urgent
              ? 'not-urgent'
              : isTaken(action.assigned_to ?? null, remembered ? { to: remembered.to, since: parseApiDateTime(remembered.since)?.getTime() ?? 0 } : null, began)
                ? 'taken'
                : undefined;
          if (stop) {
            report.stopped++;
            await store.setCursor(cursor, JSON.stringify({ ...progress, stopped: stop }));
            continue;
          }

          const [view] = await toActionViews([action], team, deps.identity);
          const location =
            action.location && deps.locationNames ? ((await deps.locationNames([action.location]).catch(() => null))?.get(action.location) ?? null) : null;
          const info = { step: due.step, unansweredMinutes: Math.max(0, Math.floor((now.getTime() - began) / 60_000)), location };
          const occurrence = `${episode.occurrence}#${due.step}`;
          const keys: DeliveryKey[] = [];
          const results: DeliveryResult[] = [];
          let to: string[] = [];
          let skipped: string | undefined;

          if (due.step === 'thread') {
            for (const alert of episode.alerts) {
              const showTask = await deps.channels.showTasksIn(team, alert.channel);
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: alert.recipient };
              const message = deps.render.escalation(view!, { now, timezone: deps.timezone, showTask, shared: true }, info);
              keys.push(key);
              results.push(await deps.deliverer.deliver(key, alert.channel, { ...message, thread_ts: alert.ts }));
              to.push(alert.channel);
            }
          } else if (due.step === 'seniors') {
            const shift = currentShift(await shiftsOf(store), now, deps.timezone).shift.name;
            to = settings.seniors[shift] ?? [];
            if (!to.length) skipped = `no seniors named for the ${shift} shift`;
            for (const userId of to) {
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: `user:${team}/${userId}` };
              const message = deps.render.escalation(view!, { now, timezone: deps.timezone, showTask: true, shared: false }, info);
              keys.push(key);
              results.push(await deps.deliverer.deliver(key, () => dm(userId), message));
            }
          } else {
            const channel = settings.managersChannel;
            if (!channel) skipped = 'no managers’ channel set';
            else {
              to = [channel];
              const showTask = await deps.channels.showTasksIn(team, channel);
              const key = { kind: ESCALATION_KIND, actionId: action._id, occurrence, recipient: `channel:${team}/${channel}` };
              const message = deps.render.escalation(view!, { now, timezone: deps.timezone, showTask, shared: true }, info);
              keys.push(key);
              results.push(await deps.deliverer.deliver(key, channel, message));
            }
          }

          // A step waiting on Slack (its rate limit, a claim of another instance) is tried again next minute.
          if (!skipped && !(await settled(keys, results))) continue;
          const done: StepDone = { step: due.step, at: now.toISOString(), to, ...(skipped ? { skipped } : {}) };
          progress.done.push(done);
          await store.setCursor(cursor, JSON.stringify(progress));
          // Once per step: a run that finds the step's messages already sent (another instance's, or its own
          // before a crash) audits it only if that run did not.
          const audited = (await store.listAudit({ actionId: action._id, verb: 'escalate', limit: 50 })).some(
            (e) => e.details.step === due.step && e.details.episode === episode.occurrence,
          );
          if (!audited)
            await store.appendAudit({
              teamId: team,
              userId: '-',
              verb: 'escalate',
              actionId: action._id,
              details: { step: due.step, to, episode: episode.occurrence, ...(skipped ? { skipped } : {}) },
            });
          report.steps.push({ actionId: action._id, step: due.step, to, ...(skipped ? { skipped } : {}) });
          if (!skipped) await updateAlerts(view!, episode.alerts, team, progress.done, now);
          else more = true;
        }
      }
      return report;
    },
  };
}
