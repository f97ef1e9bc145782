import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Action, CareClient, NotificationGroup } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { Delivery, WorkspaceStore } from '../../store/index.js';
import { readActionsByIds, toActionViews } from '../action-views.js';
import type { ChannelPolicy } from '../channel-policy.js';
import { describeSlackError, isPermanentSlackError, unfinishedDeliveries, type Deliverer, type DeliveryResult } from './delivery.js';
import type { IdentityService } from '../people/identity.js';
import type { MessageRenderers } from '../renderers.js';
import type { SlackProfiles } from '../people/slack-profiles.js';
import { isSafeguarding, safeguardingOf } from '../urgent/safeguarding.js';
import { createDmChannels } from '../dm-channels.js';
import { completionFacts } from './completion-audience.js';
import { completionNoticeFor } from './completion-roles.js';
import { completingInSlack } from './creator-notices.js';

export interface NoticeReport {
  recipients: number;
  /** The ledger recipients this completion was delivered (or recorded) for. */
  keys: string[];
  results: Partial<Record<DeliveryResult, number>>;
  /** email_to addresses with no Slack user (counted, never logged at info level). */
  unmatchedEmails: number;
  /** Nothing done yet: a completion through Slack is under way (its own path tells them); the poll reads it again. */
  waiting?: boolean;
}

export interface DeliverOptions {
  /** The completion's ledger occurrence, when it is known (a retry). Default: the action's `completed`. */
  occurrence?: string;
  /**
   * A completion just made through Slack: told apart from an earlier one made
   * through Slack in the same whole second (the care API's `completed` has no
   * finer grain), so done → reopen → done is two notices.
   */
  madeInSlack?: boolean;
}

export interface CompletionNotices {
  /** Tell every member of the action's notification groups (and routed channels), once per completion. */
  deliver(action: Action, options?: DeliverOptions): Promise<NoticeReport>;
  /** Try again what failed for a passing reason or was left pending by a crashed run. */
  retryUnfinished(): Promise<number>;
}

/** The ledger recipient of an email_to address: a short hash, so the ledger holds no address. */
export const addressRecipient = (teamId: string, email: string) =>
  `email:${teamId}/${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;

/** Completions remembered as worked, per workspace and instance (a poll's overlap holds far fewer). */
const WORKED_KEPT = 500;

/** The completion time in a ledger occurrence (`<completed>` or `<completed>#<n>`). */
const completionTimeOf = (occurrence: string) => occurrence.split('#')[0]!;

export function createCompletionNotices(deps: {
  care: CareClient;
  store: WorkspaceStore;
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

  // Completions already worked here (`<action Id>|<completed>`). While nothing newer changes, the poll's
  // overlap re-reads the last ones at every poll, a minute apart: past the group cache's life. Each recipient
  // of a worked completion has its ledger row, which the retry sweep finishes, so a re-read has nothing to do
  // and is answered from here, without reading the groups again. Bounded: oldest forgotten first.
  const worked = new Set<string>();
  const remember = (key: string) => {
    worked.delete(key);
    worked.add(key);
    if (worked.size > WORKED_KEPT) worked.delete(worked.values().next().value!);
  };

  const dmChannel = createDmChannels(deps.slack);

  /** The ledger occurrence of a completion just made through Slack (see DeliverOptions.madeInSlack). */
  async function slackOccurrence(actionId: string, completed: string): Promise<string> {
    const key = `completion-seq:${actionId}`;
    const [last, n] = (await deps.store.getCursor(key))?.split('#') ?? [];
    const seq = last === completed ? Number(n ?? 1) + 1 : 1;
    await deps.store.setCursor(key, `${completed}#${seq}`);
    // The first keeps the plain completion time: the poller, which sees only that, finds it sent.
    return seq === 1 ? completed : `${completed}#${seq}`;
  }

  const service: CompletionNotices = {
    async retryUnfinished() {
      const todo = await unfinishedDeliveries(deps.store, 'completion', { staleAfterMs: deps.staleAfterMs });
      const byCompletion = new Map<string, Delivery[]>();
      for (const d of todo) byCompletion.set(`${d.actionId} ${d.occurrence}`, [...(byCompletion.get(`${d.actionId} ${d.occurrence}`) ?? []), d]);
      // The actions of every unfinished completion in one paged read, not one request each.
      const ids = [...new Set(todo.map((d) => d.actionId))];
      let actions: Map<string, Action>;
      try {
        actions = await readActionsByIds(deps.care, ids);
      } catch (err) {
        deps.logger.warn('could not read the actions of unfinished notices; they stay in the ledger for the next run', { count: ids.length, error: err });
        return 0;
      }
      for (const rows of byCompletion.values()) {
        const { actionId, occurrence } = rows[0]!;
        const action = actions.get(actionId);
        try {
          if (!action) {
            // Gone from the care system: nobody is told about it any more; the rows say why.
            for (const d of rows) await deps.deliverer.record(d, { failed: 'the action no longer exists in the care system', retryable: false });
            continue;
          }
          // The notice is about that completion, even if the action was reopened since.
          const report = await service.deliver({ ...action, completed: completionTimeOf(occurrence) }, { occurrence });
          // Someone no longer among the recipients (left the group, unlinked) is not told late; the row says why.
          for (const d of rows.filter((row) => !report.keys.includes(row.recipient))) {
            await deps.deliverer.record(d, { failed: 'no longer among the recipients', retryable: false });
          }
        } catch (err) {
          deps.logger.warn('retrying a completion notice failed; it stays in the ledger for the next run', { actionId, error: err });
        }
      }
      return byCompletion.size;
    },

    async deliver(action, options = {}) {
      const report: NoticeReport = { recipients: 0, keys: [], results: {}, unmatchedEmails: 0 };
      const groupIds = action.notify_on_complete ?? [];
      if (!action.completed || groupIds.length === 0) return report;
      const workedKey = `${action._id}|${action.completed}`;
      // The poll re-reading a completion worked here (a retry or a Slack completion names its occurrence).
      if (!options.occurrence && !options.madeInSlack && worked.has(workedKey)) return report;
      const teamId = await deps.teamId();
      const groups = await groupsFor([...new Set(groupIds)]);
      const occurrence = options.occurrence ?? (options.madeInSlack ? await slackOccurrence(action._id, action.completed) : action.completed);
      const keyFor = (recipient: string) => ({ kind: 'completion', actionId: action._id, occurrence, recipient });
      const count = (recipient: string, r: DeliveryResult) => {
        report.keys.push(recipient);
        report.results[r] = (report.results[r] ?? 0) + 1;
      };

      // Slack user -> the group names that make them a recipient (one DM per person per completion).
      const people = new Map<string, Set<string>>();
      const add = (slackUserId: string, group: string) => people.set(slackUserId, (people.get(slackUserId) ?? new Set()).add(group));
      /** email_to addresses by what their lookup gave: a Slack user, none, or a passing failure. */
      const addresses = new Map<string, { slackUserId: string } | { none: true } | { failed: string }>();
      for (const g of groups) {
        const name = g.name ?? 'a notification group';
        for (const careUserId of g.users ?? []) {
          for (const link of await deps.store.getLinksByCareUser(careUserId)) if (link.teamId === teamId) add(link.slackUserId, name);
        }
        for (const email of g.email_to ?? []) {
          try {
            const slackUserId = await deps.profiles.lookupByEmail(email);
            addresses.set(email, slackUserId ? { slackUserId } : { none: true });
            if (slackUserId) add(slackUserId, name);
          } catch (err) {
            // e.g. no users:read.email scope: as good as no match. A passing failure is this address's alone.
            addresses.set(email, isPermanentSlackError(err) ? { none: true } : { failed: describeSlackError(err) });
          }
        }
      }
      report.unmatchedEmails = [...addresses.values()].filter((a) => 'none' in a).length;

      // One notice per person per completion (completion-roles.ts): nothing to whoever completed it, and a
      // creator or an assignee told by their own notice is not also told as a group member.
      const facts = await completionFacts({ store: deps.store, teamId: deps.teamId }, action);
      if (!facts.completer && !options.occurrence && !options.madeInSlack) {
        // A completion through Slack under way (its audit row not yet written): its own fast path tells the groups.
        if (await completingInSlack(deps.store, action._id, deps.now())) return { ...report, waiting: true };
      }
      const toldElsewhere = new Set([...people.keys()].filter((p) => completionNoticeFor(p, facts, { group: true }) !== 'group'));
      for (const p of toldElsewhere) people.delete(p);

      const [view] = await toActionViews([action], deps.identity, { store: deps.store, teamId: deps.teamId });
      // Each person's DM is its own delivery: they go out side by side (Slack limits posts per conversation).
      await Promise.all(
        [...people].map(async ([slackUserId, groupNames]) => {
          report.recipients++;
          const recipient = `user:${teamId}/${slackUserId}`;
          const tz = await deps.profiles.tz(slackUserId);
          const notice = deps.render.completionNotice(view!, { now: deps.now(), timezone: tz, showTask: true }, [...groupNames]);
          // The DM is opened inside the claim: a failure to open it is in the ledger and retried like a failed post.
          count(recipient, await deps.deliverer.deliver(keyFor(recipient), () => dmChannel(slackUserId), notice));
        }),
      );

      // A safeguarding action's completion is never routed to a channel (safeguarding.ts): its groups' members have their DMs.
      const routes = isSafeguarding(action, await safeguardingOf(deps.store)) ? [] : await deps.store.routesForGroups(groupIds);
      for (const route of routes) {
        report.recipients++;
        const recipient = `channel:${route.teamId}/${route.channelId}`;
        const showTask = await deps.channels.showTasksIn(route.channelId);
        const notice = deps.render.completionNotice(view!, { now: deps.now(), timezone: deps.timezone, showTask, shared: true }, [route.groupName]);
        count(recipient, await deps.deliverer.deliver(keyFor(recipient), route.channelId, notice));
      }

      // An address Slack could not look up now has a ledger row of its own (failed, retryable, never the
      // address itself), so the retry sweep reads this completion again while everyone else is told now.
      // Once looked up, the row is settled by the DM that told that person, or says there is no such person.
      for (const [email, found] of addresses) {
        const recipient = addressRecipient(teamId, email);
        if ('failed' in found) {
          count(recipient, await deps.deliverer.record(keyFor(recipient), { failed: `users.lookupByEmail: ${found.failed}`, retryable: true }));
          continue;
        }
        const row = await deps.store.getDelivery(keyFor(recipient));
        if (!row || row.state === 'sent') continue;
        if ('slackUserId' in found && toldElsewhere.has(found.slackUserId)) {
          count(recipient, await deps.deliverer.record(keyFor(recipient), { failed: 'told by another notice, or completed it', retryable: false }));
          continue;
        }
        const dm = 'slackUserId' in found ? await deps.store.getDelivery(keyFor(`user:${teamId}/${found.slackUserId}`)) : null;
        const outcome =
          dm?.state === 'sent' && dm.slackChannel && dm.slackTs
            ? { sent: { channel: dm.slackChannel, ts: dm.slackTs } }
            : 'none' in found
              ? { failed: 'no Slack user has this address', retryable: false }
              : null; // that person's DM is itself still unfinished: this row follows it next time
        count(recipient, outcome ? await deps.deliverer.record(keyFor(recipient), outcome) : 'busy');
      }
      // Every recipient now has its row (sent, or left to the retry sweep): the poll's next re-read has nothing to do.
      if (occurrence === action.completed) remember(workedKey);
      if (report.unmatchedEmails) {
        // At info once, when this completion was newly delivered; its re-reads inside the poll's overlap say it at debug.
        const level = report.results.sent ? 'info' : 'debug';
        deps.logger[level]('notification addresses without a Slack user', { actionId: action._id, count: report.unmatchedEmails });
      }
      return report;
    },
  };
  return service;
}
