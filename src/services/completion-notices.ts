import type { WebClient } from '@slack/web-api';
import type { Action, CareClient, NotificationGroup } from '../care/index.js';
import type { Logger } from '../logging/logger.js';
import type { Delivery, Store } from '../store/index.js';
import { ACTION_ATTRIBUTES } from './action-model.js';
import { toActionViews } from './action-views.js';
import type { ChannelPolicy } from './channel-policy.js';
import { describeSlackError, isPermanentSlackError, unfinishedDeliveries, type Deliverer, type DeliveryResult } from './delivery.js';
import type { IdentityService } from './identity.js';
import type { MessageRenderers } from './renderers.js';
import type { SlackProfiles } from './slack-profiles.js';

export interface NoticeReport {
  recipients: number;
  results: Partial<Record<DeliveryResult, number>>;
  /** email_to addresses with no Slack user (counted, never logged at info level). */
  unmatchedEmails: number;
}

export interface CompletionNotices {
  /** Tell every member of the action's notification groups (and routed channels), once per completion. */
  deliver(action: Action): Promise<NoticeReport>;
  /** Try again what failed for a passing reason or was left pending by a crashed run. */
  retryUnfinished(): Promise<number>;
}

export function createCompletionNotices(deps: {
  care: CareClient;
  store: Store;
  slack: WebClient;
  identity: IdentityService;
  profiles: SlackProfiles;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, 'completionNotice'>;
  teamId: () => Promise<string>;
  timezone: string;
  logger: Logger;
  now: () => Date;
  staleAfterMs: number;
  /** How long a notification group's members are reused before being read again (default 60 s). */
  groupTtlMs?: number;
}): CompletionNotices {
  const dmChannels = new Map<string, string>();
  // Notification groups change rarely and every re-read of a completion needs them: a short cache
  // keeps the poller's overlap re-reads (and bursts of completions) from costing API calls.
  const groupCache = new Map<string, { at: number; group: NotificationGroup }>();
  const groupTtlMs = deps.groupTtlMs ?? 60_000;

  async function groupsFor(ids: string[]): Promise<NotificationGroup[]> {
    const at = deps.now().getTime();
    const fresh = (id: string) => {
      const hit = groupCache.get(id);
      return hit && at - hit.at < groupTtlMs && at >= hit.at ? hit.group : undefined;
    };
    const missing = ids.filter((id) => !fresh(id));
    if (missing.length) {
      const fetched = await deps.care.notificationGroups.collect({
        filters: { ids: missing },
        attributes: ['_id', 'name', 'users', 'email_to'],
        per_page: 100,
        limit: 100,
      });
      for (const id of missing) groupCache.delete(id); // a group gone from the care system is gone here too
      for (const group of fetched) groupCache.set(group._id, { at, group });
    }
    return ids.flatMap((id) => groupCache.get(id)?.group ?? []);
  }

  async function dmChannel(userId: string): Promise<string> {
    const hit = dmChannels.get(userId);
    if (hit) return hit;
    const res = await deps.slack.conversations.open({ users: userId });
    const id = res.channel?.id;
    if (!id) throw new Error('conversations.open gave no channel');
    dmChannels.set(userId, id);
    return id;
  }

  const service: CompletionNotices = {
    async retryUnfinished() {
      const todo = await unfinishedDeliveries(deps.store, 'completion', { now: deps.now().getTime(), staleAfterMs: deps.staleAfterMs });
      const byCompletion = new Map<string, Delivery>();
      for (const d of todo) byCompletion.set(`${d.actionId} ${d.occurrence}`, d);
      for (const d of byCompletion.values()) {
        try {
          const action = await deps.care.actions.retrieve(d.actionId, { attributes: [...ACTION_ATTRIBUTES] });
          // The notice is about that completion, even if the action was reopened since.
          await service.deliver({ ...action, completed: d.occurrence });
        } catch (err) {
          deps.logger.warn('retrying a completion notice failed; it stays in the ledger for the next run', { actionId: d.actionId, error: err });
        }
      }
      return byCompletion.size;
    },

    async deliver(action) {
      const report: NoticeReport = { recipients: 0, results: {}, unmatchedEmails: 0 };
      const groupIds = action.notify_on_complete ?? [];
      if (!action.completed || groupIds.length === 0) return report;
      const teamId = await deps.teamId();
      const groups = await groupsFor([...new Set(groupIds)]);

      // Slack user -> the group names that make them a recipient (one DM per person per completion).
      const people = new Map<string, Set<string>>();
      const lookupFailures: string[] = [];
      const add = (slackUserId: string, group: string) => people.set(slackUserId, (people.get(slackUserId) ?? new Set()).add(group));
      for (const g of groups) {
        const name = g.name ?? 'a notification group';
        for (const careUserId of g.users ?? []) {
          for (const link of await deps.store.getLinksByCareUser(careUserId)) if (link.teamId === teamId) add(link.slackUserId, name);
        }
        for (const email of g.email_to ?? []) {
          let slackUserId: string | null;
          try {
            slackUserId = await deps.profiles.lookupByEmail(email);
          } catch (err) {
            if (!isPermanentSlackError(err)) {
              lookupFailures.push(describeSlackError(err)); // a passing failure: try this completion again
              continue;
            }
            slackUserId = null; // e.g. no users:read.email scope: as good as no match
          }
          if (slackUserId) add(slackUserId, name);
          else {
            report.unmatchedEmails++;
            deps.logger.debug('notification address has no Slack user', { email });
          }
        }
      }
      if (report.unmatchedEmails) deps.logger.info('notification addresses without a Slack user', { actionId: action._id, count: report.unmatchedEmails });

      const [view] = await toActionViews([action], teamId, deps.identity);
      const occurrence = action.completed;
      const count = (r: DeliveryResult) => (report.results[r] = (report.results[r] ?? 0) + 1);

      // Each person's DM is its own delivery: they go out side by side (Slack limits posts per conversation).
      await Promise.all(
        [...people].map(async ([slackUserId, groupNames]) => {
          report.recipients++;
          const key = { kind: 'completion', actionId: action._id, occurrence, recipient: `user:${teamId}/${slackUserId}` };
          const tz = (await deps.profiles.get(slackUserId).catch(() => null))?.tz ?? deps.timezone;
          const notice = deps.render.completionNotice(view!, { now: deps.now(), timezone: tz, showTask: true }, [...groupNames]);
          // The DM is opened inside the claim: a failure to open it is in the ledger and retried like a failed post.
          count(await deps.deliverer.deliver(key, () => dmChannel(slackUserId), notice));
        }),
      );

      for (const route of await deps.store.routesForGroups(groupIds)) {
        report.recipients++;
        const key = { kind: 'completion', actionId: action._id, occurrence, recipient: `channel:${route.teamId}/${route.channelId}` };
        const showTask = await deps.channels.showTasksIn(route.teamId, route.channelId);
        const notice = deps.render.completionNotice(view!, { now: deps.now(), timezone: deps.timezone, showTask }, [route.groupName]);
        count(await deps.deliverer.deliver(key, route.channelId, notice));
      }
      if (lookupFailures.length) {
        // Someone may be missing: fail so the poller reads this completion again (its cursor stays put);
        // everyone already told is in the ledger and is not told twice.
        throw new Error(`${lookupFailures.length} notification address lookup(s) failed: ${lookupFailures.join(', ')}`);
      }
      return report;
    },
  };
  return service;
}
