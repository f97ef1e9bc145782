import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore, Subscription } from '../../store/index.js';
import { ACTION_ATTRIBUTES, type ActionView, type AnswersShown } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import { staffNeeded } from './answer-policy.js';
import type { ChannelPolicy } from '../channel-policy.js';
import { unfinishedDeliveries, type Deliverer, type DeliveryResult } from '../notices/delivery.js';
import type { IdentityService } from '../people/identity.js';
import type { FirstLook } from '../notices/first-look.js';
import type { MessageRenderers } from '../renderers.js';
import { twoStaffOf } from './two-staff.js';
import { isSafeguarding, safeguardingAudience, safeguardingOf } from './safeguarding.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { urgentAlertChannelsFor } from './urgent-audience.js';

/** What the app knew of an action before a change made through Slack (null: it did not exist). */
export interface UrgencyChange {
  before: Pick<Action, 'urgent' | 'completed'> | null;
}

export interface UrgentAlerts {
  /**
   * Look at one version of an action (read by the changes poll, or just changed
   * through Slack): when it became urgent, alert every channel subscribed to
   * urgent alerts, once per time it became urgent (an "episode"). Urgent when
   * the app first saw it (or before a change made through Slack) is no news.
   */
  consider(action: Action, subscriptions: Subscription[], change?: UrgencyChange): Promise<DeliveryResult[]>;
  /** The app's first look: remember whether the action is urgent, alerting nobody (unless already remembered). */
  remember(action: Action): Promise<void>;
  /**
   * Try again the alerts that failed for a passing reason or were left pending
   * by a crashed run (the poller reads an action again only within its overlap).
   * An action no longer urgent is not alerted.
   */
  retryUnfinished(subscriptions: Subscription[]): Promise<number>;
}

/**
 * What the app remembers of an action's urgency (per action, in the store's
 * cursors): the episode it is in (`since`: the `modified` at which it became
 * urgent, the alerts' ledger occurrence; null while not urgent), whether that
 * episode is told at all (not when the action was urgent already when the app
 * first saw it), and the `modified` of the version that set this (an older
 * version read late says nothing new). Completing an urgent action pauses its
 * episode; reopening it is not news.
 */
export interface Urgency {
  since: string | null;
  quiet: boolean;
  seen: string;
}

/** Where an action's urgency is remembered (the escalation job reads it too). */
export const episodeCursor = (actionId: string) => `urgent-episode:${actionId}`;
/** Where an action's remembered urgency is kept (the changes poll's observations read it too). */
export const urgencyCursor = episodeCursor;
const timeOf = (value: string | null | undefined) => parseApiDateTime(value)?.getTime() ?? 0;

/** The stored urgency; older rows held the episode's occurrence alone ('' when not urgent). */
export function parseUrgency(value: string | null): Urgency | null {
  if (value === null) return null;
  if (!value.startsWith('{')) return { since: value || null, quiet: false, seen: value };
  try {
    const v = JSON.parse(value) as Partial<Urgency>;
    return typeof v.seen === 'string' ? { since: v.since ?? null, quiet: Boolean(v.quiet), seen: v.seen } : null;
  } catch {
    return null;
  }
}

/**
 * The urgency after seeing this version, or null when it changes nothing. Pure:
 * the whole rule of what counts as becoming urgent. `firstSightIsNews` as for
 * assignments (first-look.ts); `change` carries what Slack saw before its own change.
 */
export function nextUrgency(
  current: Urgency | null,
  action: Action,
  change: UrgencyChange | undefined,
  fallbackNow: string,
  firstSightIsNews = false,
): Urgency | null {
  const modified = action.modified ?? fallbackNow;
  const urgent = Boolean(action.urgent);
  if (current && timeOf(modified) < timeOf(current.seen)) return null; // a late read of an older version
  if (current) {
    if (urgent === (current.since !== null)) return null;
    return urgent ? { since: modified, quiet: false, seen: modified } : { since: null, quiet: false, seen: modified };
  }
  if (!urgent) return { since: null, quiet: false, seen: modified };
  const wasUrgent = change ? Boolean(change.before?.urgent) : !firstSightIsNews;
  return { since: modified, quiet: wasUrgent, seen: modified };
}

export function createUrgentAlerts(deps: {
  store: WorkspaceStore;
  care: CareClient;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, 'urgentAlert'>;
  firstLook: Pick<FirstLook, 'isNews'>;
  now: () => Date;
  staleAfterMs: number;
  logger: Logger;
  /** The workspace's Slack team id and the DM channel with a person: a safeguarding action's alert goes by DM. */
  teamId: () => Promise<string>;
  dm: (userId: string) => Promise<string>;
  /** The home's zone (a safeguarding alert's due time). */
  timezone: string;
}): UrgentAlerts {
  const alerts: UrgentAlerts = {
    async retryUnfinished(subscriptions) {
      const todo = await unfinishedDeliveries(deps.store, 'urgent', { staleAfterMs: deps.staleAfterMs, limit: 100 });
      const actionIds = new Set<string>();
      for (const d of todo) {
        // Only the episode still running: an alert of an episode that ended is not sent late (the row says so).
        if (parseUrgency(await deps.store.getCursor(episodeCursor(d.actionId)))?.since === d.occurrence) actionIds.add(d.actionId);
        else await deps.deliverer.record(d, { failed: 'no longer urgent', retryable: false });
      }
      for (const id of actionIds) {
        try {
          await alerts.consider(await deps.care.actions.retrieve(id, { attributes: [...ACTION_ATTRIBUTES] }), subscriptions);
        } catch (err) {
          deps.logger.warn('retrying an urgent alert failed; it stays in the ledger for the next run', { actionId: id, error: err });
        }
      }
      return actionIds.size;
    },

    async remember(action) {
      const key = episodeCursor(action._id);
      if ((await deps.store.getCursor(key)) !== null) return;
      const modified = action.modified ?? deps.now().toISOString();
      const known: Urgency = { since: action.urgent ? modified : null, quiet: true, seen: modified };
      await deps.store.setCursor(key, JSON.stringify(known));
    },

    async consider(action, subscriptions, change) {
      const key = episodeCursor(action._id);
      const current = parseUrgency(await deps.store.getCursor(key));
      const news = !current && !change && action.urgent ? await deps.firstLook.isNews(action) : false;
      const next = nextUrgency(current, action, change, deps.now().toISOString(), news);
      if (next) await deps.store.setCursor(key, JSON.stringify(next));
      const episode = next ?? current;
      if (!episode?.since || episode.quiet || !action.urgent || action.completed) return [];
      const results: DeliveryResult[] = [];
      // Nobody has answered a new episode yet: a two-person action's alert says at once that it needs two (issue 33).
      const answers = await unanswered(deps.store, action);
      const safeguarding = await safeguardingOf(deps.store);
      if (isSafeguarding(action, safeguarding)) {
        // Never to a channel: by DM to the officers (the admins when none are named), the lock-screen text the same.
        const team = await deps.teamId();
        const [view] = await toActionViews([action], deps.identity);
        for (const userId of safeguardingAudience(safeguarding, deps.identity.adminIds())) {
          const alert = deps.render.urgentAlert(view!, { now: deps.now(), timezone: deps.timezone, showTask: true, shared: false, answers });
          results.push(
            await deps.deliverer.deliver(
              { kind: 'urgent', actionId: action._id, occurrence: episode.since, recipient: `user:${team}/${userId}` },
              () => deps.dm(userId),
              alert,
            ),
          );
        }
        return results;
      }
      const targets = urgentAlertChannelsFor(subscriptions, action);
      const views = new Map<string, ActionView>(); // one view per team, however many channels
      for (const sub of targets) {
        const view = views.get(sub.teamId) ?? (await toActionViews([action], deps.identity))[0]!;
        views.set(sub.teamId, view);
        const showTask = await deps.channels.showTasksIn(sub.channelId);
        const alert = deps.render.urgentAlert(view, { now: deps.now(), timezone: sub.timeZone, showTask, shared: true, answers });
        results.push(
          await deps.deliverer.deliver(
            { kind: 'urgent', actionId: action._id, occurrence: episode.since, recipient: `channel:${sub.teamId}/${sub.channelId}` },
            sub.channelId,
            alert,
          ),
        );
      }
      return results;
    },
  };
  return alerts;
}

/** The answers of an episode nobody has answered yet, as its first alert shows them (how many staff it needs). */
async function unanswered(store: Pick<WorkspaceStore, 'twoStaffMark' | 'getHomeSetting'>, action: Action): Promise<AnswersShown> {
  return { lines: [], staff: [], needed: staffNeeded(await twoStaffOf(store, action)) };
}
