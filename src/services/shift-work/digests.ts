import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore, Subscription } from '../../store/index.js';
import { apiDateRange, dueWindow } from '../../time/due-windows.js';
import type { Shift } from '../../time/shifts.js';
import { dueStart, isShiftStart, nextStart } from '../../time/start-time.js';
import { safeguardingFilter } from '../urgent/safeguarding.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { ChannelPolicy } from '../channel-policy.js';
import { digestContent } from './digest-content.js';
import { escapeMrkdwn } from '../mrkdwn-escape.js';
import type { Deliverer, DeliveryResult } from '../notices/delivery.js';
import type { IdentityService } from '../people/identity.js';
import type { MessageRenderers } from '../renderers.js';

interface DigestQuery {
  key: string;
  assignedTo: string[] | null;
  urgentOnly: boolean;
  endDate: string;
}

export interface DigestRunReport {
  channels: number;
  queries: number;
  results: Partial<Record<DeliveryResult | 'empty-skipped', number>>;
}

export interface Digests {
  /** Post every digest whose time has come today and that has not been posted yet (missed runs included). */
  runDue(now: Date): Promise<DigestRunReport>;
  /** Post this channel's digest now (an admin's `/care digest now`). */
  postNow(sub: Subscription, now: Date): Promise<DigestRunReport>;
  /** When the next digest of any channel comes after `now` (ms); null with none set up (the job's next due time). */
  nextDueAt(now: Date): Promise<number | null>;
}

const partsCursor = (sub: Subscription, occurrence: string) => `digest-parts:${sub.teamId}/${sub.channelId}:${occurrence}`;

export function createDigests(deps: {
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, 'digest'>;
  logger: Logger;
  /** The care home's shifts, for digests at each shift start (services/shift-work/shift-settings.ts). */
  shifts: () => Promise<readonly Shift[]>;
}): Digests {
  const { store, logger } = deps;

  async function queryFor(sub: Subscription, now: Date): Promise<DigestQuery> {
    let assignedTo: string[] | null = null;
    const f = sub.filters;
    if (f.mineOnly) {
      const link = await store.getLinkBySlackUser(sub.setUpBy);
      assignedTo = link ? [link.careUserId] : [];
    } else if (f.slackUserIds?.length || f.careUserIds?.length) {
      const ids = new Set(f.careUserIds ?? []);
      for (const u of f.slackUserIds ?? []) {
        const link = await store.getLinkBySlackUser(u);
        if (link) ids.add(link.careUserId);
      }
      assignedTo = [...ids].sort();
    }
    // Overdue, today, and urgent actions due in the coming week: one query covers all three.
    const endDate = apiDateRange(dueWindow('week', now, sub.timeZone)).end_date;
    const urgentOnly = Boolean(f.urgentOnly);
    return { key: JSON.stringify([assignedTo, urgentOnly, endDate]), assignedTo, urgentOnly, endDate };
  }

  async function readQuery(q: DigestQuery): Promise<Action[]> {
    if (q.assignedTo && q.assignedTo.length === 0) return [];
    return deps.care.actions.collect({
      filters: { completed: 'no', end_date: q.endDate, ...(q.assignedTo ? { assigned_to: q.assignedTo } : {}), ...(q.urgentOnly ? { urgent: 'yes' } : {}) },
      attributes: [...ACTION_ATTRIBUTES],
      sort_by: ['due'],
      per_page: 100,
      limit: 20_000,
    });
  }

  /** The actions (of those read) about one resident: one more query, of their open actions. */
  async function aboutResident(residentId: string, actions: Action[]): Promise<Action[]> {
    const about = await deps.care.actions.collect({
      filters: { completed: 'no', parent_subject: [residentId] },
      attributes: ['_id'],
      per_page: 100,
      limit: 5_000,
    });
    const ids = new Set(about.map((a) => a._id));
    return actions.filter((a) => ids.has(a._id));
  }

  async function post(sub: Subscription, actions: Action[], now: Date, occurrence: string, report: DigestRunReport): Promise<void> {
    const tz = sub.timeZone;
    // Safeguarding actions are never in a channel's digest, not even counted (safeguarding.ts).
    const safeguarding = await safeguardingFilter(store);
    const shown = actions.filter((a) => !safeguarding(a));
    const atLocation = sub.filters.locationId ? shown.filter((a) => a.location === sub.filters.locationId) : shown;
    const mine = sub.filters.residentId ? await aboutResident(String(sub.filters.residentId), atLocation) : atLocation;
    const views = await toActionViews(mine, deps.identity);
    const showTask = await deps.channels.showTasksIn(sub.channelId);
    const filterText = [
      sub.filters.urgentOnly ? 'urgent only' : '',
      sub.filters.mineOnly ? `for <@${sub.setUpBy}>` : '',
      ...(sub.filters.slackUserIds ?? []).map((u) => `<@${u}>`),
      // A location's name is the care system's words: written as text, never as Slack markup (`<`, `&`).
      sub.filters.locationName ? escapeMrkdwn(String(sub.filters.locationName)) : '',
      sub.filters.residentId ? 'one resident' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const content = digestContent(views, now, tz, filterText);
    const rendered = deps.render.digest(content, { now, timezone: tz, showTask }, { postWhenEmpty: sub.postWhenEmpty });
    const count = (r: DeliveryResult | 'empty-skipped') => (report.results[r] = (report.results[r] ?? 0) + 1);
    if (!rendered) {
      count('empty-skipped');
      return;
    }
    report.channels++;
    const recipient = `channel:${sub.teamId}/${sub.channelId}`;
    // Remember how many thread parts this digest has, so a run cut short is finished later.
    if (rendered.thread.length) await store.setCursor(partsCursor(sub, occurrence), String(rendered.thread.length));
    const mainKey = { kind: 'digest', actionId: '-', occurrence, recipient };
    const result = await deps.deliverer.deliver(mainKey, sub.channelId, { ...rendered.main, unfurl_links: false });
    count(result);
    if (!rendered.thread.length) return;
    const main = await store.getDelivery(mainKey);
    if (main?.state !== 'sent' || !main.slackTs) return; // the thread follows once the summary is out
    for (const [i, part] of rendered.thread.entries()) {
      const r = await deps.deliverer.deliver({ kind: 'digest-part', actionId: '-', occurrence: `${occurrence}#${i + 1}`, recipient }, sub.channelId, {
        ...part,
        thread_ts: main.slackTs!,
      });
      // In order or not at all: a part not surely out yet holds back the ones after it (the next run goes on).
      if (r !== 'sent' && r !== 'already-sent' && r !== 'found-in-slack') break;
    }
  }

  async function run(items: { sub: Subscription; occurrence: string }[], now: Date): Promise<DigestRunReport> {
    const report: DigestRunReport = { channels: 0, queries: 0, results: {} };
    // One paged query per distinct filter, shared by every channel that has it.
    const byQuery = new Map<string, { q: DigestQuery; subs: typeof items }>();
    for (const item of items) {
      const q = await queryFor(item.sub, now);
      const entry = byQuery.get(q.key) ?? { q, subs: [] };
      entry.subs.push(item);
      byQuery.set(q.key, entry);
    }
    // The queries are read one after another (the client paces them) while the channels of the ones
    // already read are posted: the run takes about as long as the slower of the two, not their sum.
    const entries = [...byQuery.values()];
    const reads: Promise<Action[]>[] = [];
    let previous: Promise<unknown> = Promise.resolve();
    for (const { q } of entries) {
      const read = previous.then(() => readQuery(q));
      reads.push(read);
      previous = read.catch(() => undefined);
    }
    for (const [i, { subs }] of entries.entries()) {
      let actions: Action[];
      try {
        report.queries++;
        actions = await reads[i]!;
      } catch (err) {
        logger.error('a digest query failed; its channels are tried again next run', { channels: subs.length, error: err });
        continue;
      }
      for (const { sub, occurrence } of subs) {
        try {
          await post(sub, actions, now, occurrence, report);
        } catch (err) {
          logger.error('posting a digest failed', { channel: sub.channelId, error: err });
        }
      }
    }
    return report;
  }

  /** A summary went out but a crash may have cut its thread short: the run finishes the thread. */
  async function threadPending(sub: Subscription, date: string): Promise<boolean> {
    const expected = Number((await store.getCursor(partsCursor(sub, date))) ?? 0);
    if (!expected) return false;
    const parts = await store.listDeliveries({ kind: 'digest-part', recipient: `channel:${sub.teamId}/${sub.channelId}`, limit: 500, order: 'desc' });
    const mine = parts.filter((p) => p.occurrence.startsWith(`${date}#`));
    const sent = mine.filter((p) => p.state === 'sent').length;
    const givenUp = mine.filter((p) => p.state === 'failed' && !p.retryable).length;
    return sent + givenUp < expected;
  }

  /** A digest of this channel went out at or after `since` (the shift's start): the ledger's newest row. */
  async function postedSince(sub: Subscription, since: Date): Promise<boolean> {
    const [last] = await store.listDeliveries({ kind: 'digest', recipient: `channel:${sub.teamId}/${sub.channelId}`, limit: 1, order: 'desc' });
    return last !== undefined && last.state === 'sent' && last.createdAt >= since.getTime();
  }

  return {
    async runDue(now) {
      const due: { sub: Subscription; occurrence: string }[] = [];
      const subs = await store.listSubscriptions();
      // Read once per run, and only when some digest goes out at shift starts.
      const shifts = subs.some((s) => isShiftStart(s.time)) ? await deps.shifts() : [];
      for (const sub of subs) {
        // The occurrence is the local date (a clock time) or the shift's (`2027-10-31/Day`): once each, whatever the clocks do.
        const occ = dueStart({ time: sub.time, days: sub.days, timezone: sub.timeZone, shifts }, now);
        if (!occ) continue;
        // Set up (or changed) after today's time (or this shift's start): the first digest is the next one, as the admin was told.
        if (occ.at.getTime() < sub.setUpAt) continue;
        const done = await store.getDelivery({ kind: 'digest', actionId: '-', occurrence: occ.id, recipient: `channel:${sub.teamId}/${sub.channelId}` });
        if (done?.state === 'sent' && !(await threadPending(sub, occ.id))) continue;
        if (done?.state === 'failed' && !done.retryable) continue;
        // The shifts changed since this shift began (renamed, moved): its start was already marked by a digest.
        if (occ.shift && !done && (await postedSince(sub, occ.at))) continue;
        due.push({ sub, occurrence: occ.id });
      }
      return due.length ? run(due, now) : { channels: 0, queries: 0, results: {} };
    },
    postNow(sub, now) {
      return run([{ sub, occurrence: `now:${now.toISOString()}` }], now);
    },
    async nextDueAt(now) {
      const subs = await store.listSubscriptions();
      const shifts = subs.some((s) => isShiftStart(s.time)) ? await deps.shifts() : [];
      const next = subs.map((s) => nextStart({ time: s.time, days: s.days, timezone: s.timeZone, shifts }, now)?.at.getTime() ?? Number.POSITIVE_INFINITY);
      const first = Math.min(...next);
      return Number.isFinite(first) ? first : null;
    },
  };
}
