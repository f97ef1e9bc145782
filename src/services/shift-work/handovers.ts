/**
 * Handover at each shift change: every handover channel gets one post (what
 * the outgoing shift completed and who, what is still open from it, what is
 * new), with **Accept handover** for the incoming senior. A post nobody
 * accepted within ACCEPT_WITHIN_MS is told to the managers once: the
 * managers' channel when the escalation setting names one, else each admin by
 * DM. Posts, acceptances and the managers' notice are delivery-ledger rows
 * keyed by the shift occurrence (`2027-10-30/Night`), so each happens once
 * across instances; a change missed while the app was down goes out when it
 * comes back, but only the latest one (no backlog of stale handovers). Who may
 * accept, and Undo of an acceptance: handover-acceptance.ts. The managers'
 * check (handover-unaccepted.ts) looks back over every handover posted in the
 * last week, so a missed tick still tells them, once per handover not accepted.
 */
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import { apiDateRange, dueWindow } from '../../time/due-windows.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { currentShift, nextShiftChange } from '../../time/shifts.js';
import { safeguardingFilter } from '../urgent/safeguarding.js';
import { ACTION_ATTRIBUTES, type ActionView, byUrgencyThenDue, type RenderContext } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import type { ChannelPolicy } from '../channel-policy.js';
import type { Deliverer, DeliveryResult, OutgoingMessage } from '../notices/delivery.js';
import { type AcceptResult, createAcceptance, type HandoverRef, handoverRecipient, type UndoAcceptResult } from './handover-acceptance.js';
import { type HandoverChannel, handoverChannels, saveHandoverChannels, showTasksNow } from './handover-channels.js';
import { type HandoverContent, type HandoverShifts, handoverContent, openReason } from './handover-content.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { createUnacceptedCheck, postedCursor } from './handover-unaccepted.js';
import { shiftsOf } from './shift-settings.js';

export type { AcceptResult, HandoverRef, UndoAcceptResult } from './handover-acceptance.js';
export { ACCEPT_WITHIN_MS } from './handover-unaccepted.js';

/** A carer's own part of the handover leads their Home tab this long into a shift. */
export const HOME_HANDOVER_MS = 2 * 60 * 60_000;

/** How handover messages look (the Slack layer renders them; wired in compose-workspace.ts). */
export interface HandoverRenderers {
  post(c: HandoverContent, ctx: RenderContext, ref: HandoverRef): OutgoingMessage;
  /** To the managers: the handover in `channelId` for `shiftName` was not accepted within the time. */
  notAccepted(info: { channelId: string; shiftName: string; startsAt: Date; minutes: number }, ctx: RenderContext): OutgoingMessage;
}

export type HandoverSetResult =
  | { kind: 'not-member' }
  /** `showTasks`: whether task text shows there now; `publicPending`: asked for in a public channel without `--public`. */
  | { kind: 'set'; channel: HandoverChannel; isPrivate: boolean; showTasks: boolean; publicPending: boolean; next: { name: string; startsAt: Date } };

export interface HandoverRunReport {
  channels: number;
  results: Partial<Record<DeliveryResult, number>>;
  managersTold: number;
}

/** The shift on now and the one before it, while the handover is fresh (the first HOME_HANDOVER_MS). */
export interface FreshHandover {
  shifts: HandoverShifts;
}

export interface HandoverService {
  setHere(admin: Actor, req: { channelId: string; showTasks: boolean; publicConfirmed: boolean }): Promise<HandoverSetResult>;
  off(admin: Actor, channelId: string): Promise<boolean>;
  list(admin: Actor): Promise<HandoverChannel[]>;
  /** Post the latest shift change's handover where it has not gone out, and tell managers of any not accepted in time. */
  runDue(now: Date): Promise<HandoverRunReport>;
  /** Due at once while some channel takes handovers (its shift changes and the unaccepted check), else null (the job's next due time). */
  nextDueAt(now: Date): Promise<number | null>;
  /**
   * The first press of a person who may accept (a linked person; where seniors are named for the
   * incoming shift, one of them or an admin) accepts (audited 'handover.accept'); later presses learn
   * who did; anyone else is refused, and nothing changes.
   */
  accept(actor: Actor, ref: HandoverRef, post: { ts: string }): Promise<AcceptResult>;
  /** The accepter's Undo of acceptance `round`, once, within ACCEPT_UNDO_MS (audited 'handover.accept-undo'). */
  undoAccept(actor: Actor, ref: HandoverRef, round: number, post: { ts: string }): Promise<UndoAcceptResult>;
  /** The shifts of a handover that happened less than HOME_HANDOVER_MS ago, or null. */
  fresh(now: Date): Promise<FreshHandover | null>;
}

/** A carer's own open actions from the handover (what the Home tab shows first), most pressing first. */
export function yourHandover(mine: ActionView[], fresh: FreshHandover): ActionView[] {
  return mine.filter((v) => openReason(v, fresh.shifts) !== null).sort(byUrgencyThenDue);
}

export function createHandovers(deps: {
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: HandoverRenderers;
  /** The DM channel with a person (dm-channels.ts). */
  dm: (userId: string) => Promise<string>;
  teamId: () => Promise<string>;
  /** The care home's zone (APP_TIMEZONE): its shifts are wall-clock times there. */
  timezone: string;
  now: () => Date;
  logger: Logger;
}): HandoverService {
  const { store, identity, logger } = deps;
  const tz = deps.timezone;
  const acceptance = createAcceptance(deps);
  const lookBack = createUnacceptedCheck({ ...deps, acceptance, notAccepted: deps.render.notAccepted });

  async function shiftsAt(now: Date): Promise<HandoverShifts> {
    const shifts = await shiftsOf(store);
    const current = currentShift(shifts, now, tz);
    const previous = currentShift(shifts, new Date(current.startsAt.getTime() - 1), tz);
    return {
      outgoing: { name: previous.shift.name, startsAt: previous.startsAt },
      incoming: { name: current.shift.name, startsAt: current.startsAt, endsAt: current.endsAt, id: current.id },
    };
  }

  async function privateNow(channelId: string): Promise<boolean | null> {
    try {
      return (await deps.channels.info(channelId)).isPrivate;
    } catch {
      return null;
    }
  }

  /** What the handover says, read once per run for every channel. */
  async function readContent(shifts: HandoverShifts, now: Date): Promise<HandoverContent> {
    const weekEnd = apiDateRange(dueWindow('week', now, tz)).end_date;
    const open = await deps.care.actions.collect({
      filters: { completed: 'no', end_date: weekEnd },
      attributes: [...ACTION_ATTRIBUTES],
      sort_by: ['due'],
      per_page: 100,
      limit: 20_000,
    });
    // `modified_after` has whole-second resolution and excludes its own second: a second earlier.
    const changed: Action[] = await deps.care.actions.collect({
      filters: { completed: 'unset', modified_after: new Date(shifts.outgoing.startsAt.getTime() - 1000) },
      attributes: [...ACTION_ATTRIBUTES, 'created'],
      sort_by: ['modified'],
      per_page: 100,
      limit: 20_000,
    });
    // Safeguarding actions are never in a channel's handover, not even counted (safeguarding.ts).
    const safeguarding = await safeguardingFilter(store);
    const openViews = await toActionViews(
      open.filter((a) => !safeguarding(a)),
      identity,
    );
    const changedViews = await toActionViews(
      changed.filter((a) => !safeguarding(a)),
      identity,
      { store, teamId: deps.teamId },
    );
    const created = new Map(changed.map((a) => [a._id, parseApiDateTime((a as { created?: string | null }).created ?? null)]));
    return handoverContent(
      shifts,
      openViews,
      changedViews.map((view) => ({ view, created: created.get(view.id) ?? null })),
    );
  }

  return {
    async setHere(admin, req) {
      await identity.requireAdmin(admin);
      const info = await deps.channels.info(req.channelId).catch(() => null);
      if (!info?.isMember) return { kind: 'not-member' };
      const now = deps.now();
      const channel: HandoverChannel = {
        channelId: req.channelId,
        showTasks: req.showTasks,
        channelPrivate: info.isPrivate,
        publicConfirmed: req.showTasks && req.publicConfirmed && !info.isPrivate,
        setUpBy: admin.userId,
        at: now.getTime(),
      };
      const list = (await handoverChannels(store)).filter((c) => c.channelId !== req.channelId);
      await saveHandoverChannels(store, [...list, channel], admin.userId);
      await store.appendAudit({
        userId: admin.userId,
        verb: 'handover.here',
        details: { channelId: req.channelId, showTasks: req.showTasks, publicConfirmed: channel.publicConfirmed, channelPrivate: info.isPrivate },
      });
      const change = nextShiftChange(await shiftsOf(store), now, tz);
      return {
        kind: 'set',
        channel,
        isPrivate: info.isPrivate,
        showTasks: showTasksNow(channel, info.isPrivate),
        publicPending: req.showTasks && !info.isPrivate && !req.publicConfirmed,
        next: { name: change.shift.name, startsAt: change.startsAt },
      };
    },

    async off(admin, channelId) {
      await identity.requireAdmin(admin);
      const list = await handoverChannels(store);
      const rest = list.filter((c) => c.channelId !== channelId);
      if (rest.length === list.length) return false;
      await saveHandoverChannels(store, rest, admin.userId);
      await store.appendAudit({ userId: admin.userId, verb: 'handover.off', details: { channelId } });
      return true;
    },

    async list(admin) {
      await identity.requireAdmin(admin);
      return handoverChannels(store);
    },

    async runDue(now) {
      const report: HandoverRunReport = { channels: 0, results: {}, managersTold: 0 };
      const channels = await handoverChannels(store);
      if (!channels.length) return report;
      const shifts = await shiftsAt(now);
      const occurrence = shifts.incoming.id;
      const team = await deps.teamId();
      let content: HandoverContent | undefined;
      for (const ch of channels) {
        // Set up after this change: its first handover is the next one, as the admin was told.
        if (ch.at > shifts.incoming.startsAt.getTime()) continue;
        const key = { kind: 'handover', actionId: '-', occurrence, recipient: handoverRecipient(team, ch.channelId) };
        try {
          const row = await store.getDelivery(key);
          if (row?.state === 'failed' && !row.retryable) continue;
          if (row?.state !== 'sent') {
            content ??= await readContent(shifts, now);
            const showTask = showTasksNow(ch, await privateNow(ch.channelId));
            const message = deps.render.post(content, { now, timezone: tz, showTask, shared: true }, { channelId: ch.channelId, occurrence });
            const result = await deps.deliverer.deliver(key, ch.channelId, { ...message, unfurl_links: false });
            report.results[result] = (report.results[result] ?? 0) + 1;
            report.channels++;
            if (result === 'sent' || result === 'found-in-slack') {
              const cursor = postedCursor(ch.channelId, occurrence);
              if (!(await store.getCursor(cursor))) await store.setCursor(cursor, String(now.getTime()));
            }
          }
        } catch (err) {
          logger.error('a handover could not be posted; the next run tries again', { channel: ch.channelId, error: err });
        }
      }
      report.managersTold += await lookBack(channels, now);
      return report;
    },

    async nextDueAt(now) {
      return (await handoverChannels(store)).length ? now.getTime() : null;
    },

    accept: acceptance.accept,
    undoAccept: acceptance.undoAccept,

    async fresh(now) {
      const shifts = await shiftsAt(now);
      return now.getTime() - shifts.incoming.startsAt.getTime() < HOME_HANDOVER_MS ? { shifts } : null;
    },
  };
}
