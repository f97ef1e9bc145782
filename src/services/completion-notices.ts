import type { WebClient } from '@slack/web-api';
import type { Action, CareClient } from '../care/index.js';
import type { Logger } from '../logging/logger.js';
import { DEFAULT_MAX_ATTEMPTS, type Delivery, type Store } from '../store/index.js';
import { completionNotice } from '../slack/views/notices.js';
import { toActionViews } from './action-views.js';
import type { ChannelPolicy } from './channel-policy.js';
import type { Deliverer, DeliveryResult } from './delivery.js';
import type { IdentityService } from './identity.js';
import type { SlackProfiles } from './slack-profiles.js';

/** What completion notices need of an action. */
export const NOTICE_ATTRIBUTES = ['_id', 'action_no', 'task', 'due', 'urgent', 'completed', 'assigned_to', 'modified', 'notify_on_complete'] as const;

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
  teamId: () => Promise<string>;
  timezone: string;
  logger: Logger;
  now: () => Date;
  staleAfterMs: number;
}): CompletionNotices {
  const dmChannels = new Map<string, string>();

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
      const cutoff = deps.now().getTime() - deps.staleAfterMs;
      const failed = await deps.store.listDeliveries({ kind: 'completion', state: 'failed', order: 'desc', limit: 200 });
      const pending = await deps.store.listDeliveries({ kind: 'completion', state: 'pending', limit: 200 });
      const todo = [...failed.filter((d) => d.retryable), ...pending.filter((d) => (d.claimedAt ?? 0) <= cutoff)].filter((d) => d.attempts < DEFAULT_MAX_ATTEMPTS);
      const byCompletion = new Map<string, Delivery>();
      for (const d of todo) byCompletion.set(`${d.actionId} ${d.occurrence}`, d);
      for (const d of byCompletion.values()) {
        try {
          const action = await deps.care.actions.retrieve(d.actionId, { attributes: [...NOTICE_ATTRIBUTES] });
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
      const groups = await deps.care.notificationGroups.collect({ filters: { ids: groupIds }, attributes: ['_id', 'name', 'users', 'email_to'], per_page: 100, limit: 100 });

      // Slack user -> the group names that make them a recipient (one DM per person per completion).
      const people = new Map<string, Set<string>>();
      const add = (slackUserId: string, group: string) => people.set(slackUserId, (people.get(slackUserId) ?? new Set()).add(group));
      for (const g of groups) {
        const name = g.name ?? 'a notification group';
        for (const careUserId of g.users ?? []) {
          for (const link of await deps.store.getLinksByCareUser(careUserId)) if (link.teamId === teamId) add(link.slackUserId, name);
        }
        for (const email of g.email_to ?? []) {
          const slackUserId = await deps.profiles.lookupByEmail(email).catch(() => null);
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

      for (const [slackUserId, groupNames] of people) {
        report.recipients++;
        const key = { kind: 'completion', actionId: action._id, occurrence, recipient: `user:${teamId}/${slackUserId}` };
        try {
          const channel = await dmChannel(slackUserId);
          const tz = (await deps.profiles.get(slackUserId).catch(() => null))?.tz ?? deps.timezone;
          const notice = completionNotice(view!, { now: deps.now(), timezone: tz, showTask: true }, [...groupNames]);
          count(
            await deps.deliverer.deliver(key, channel, async (metadata) => {
              const res = await deps.slack.chat.postMessage({ channel, text: notice.text, blocks: notice.blocks, metadata });
              return { channel, ts: res.ts! };
            }),
          );
        } catch (err) {
          deps.logger.warn('could not open a DM for a completion notice', { error: err });
          count('failed');
        }
      }

      for (const route of await deps.store.routesForGroups(groupIds)) {
        report.recipients++;
        const key = { kind: 'completion', actionId: action._id, occurrence, recipient: `channel:${route.teamId}/${route.channelId}` };
        const showTask = await deps.channels.showTasksIn(route.teamId, route.channelId);
        const notice = completionNotice(view!, { now: deps.now(), timezone: deps.timezone, showTask }, [route.groupName]);
        count(
          await deps.deliverer.deliver(key, route.channelId, async (metadata) => {
            const res = await deps.slack.chat.postMessage({ channel: route.channelId, text: notice.text, blocks: notice.blocks, metadata });
            return { channel: route.channelId, ts: res.ts! };
          }),
        );
      }
      return report;
    },
  };
  return service;
}
