/**
 * The managers' check of handovers nobody accepted: every handover posted in
 * the last LOOKBACK_MS, not only the latest shift change's, so a tick missed at
 * the 30-minute mark (the app down, a clock that jumped past shift changes)
 * still tells them, once per handover (the delivery ledger, across instances):
 * the managers' channel when the escalation setting names one, else each admin
 * by DM.
 */
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import { occurrenceOf } from '../../time/shifts.js';
import type { RenderContext } from '../action-model.js';
import type { Deliverer, DeliveryResult, OutgoingMessage } from '../notices/delivery.js';
import { managersChannelOf } from '../urgent/escalation-settings.js';
import { ACCEPT_UNDO_MS, acceptanceOf, type HandoverAcceptance, handoverRecipient, shiftNameOf } from './handover-acceptance.js';
import type { HandoverChannel } from './handover-channels.js';
import type { IdentityService } from '../people/identity.js';
import { shiftsOf } from './shift-settings.js';

/** Not accepted this long after the post (or the shift change, if later): the managers are told. */
export const ACCEPT_WITHIN_MS = 30 * 60_000;
/** The managers' check looks back this far over handovers posted (a week: an outage of days still tells them). */
export const LOOKBACK_MS = 7 * 24 * 60 * 60_000;

/** When a handover went out (ms, the app's clock): its 30 minutes count from the minute it did. */
export const postedCursor = (channelId: string, occurrence: string) => `handover-posted:${channelId}:${occurrence}`;
/** Set once the managers were told of a handover not accepted, or it was accepted for good: the look-back passes it by. */
const settledCursor = (channelId: string, occurrence: string) => `handover-settled:${channelId}:${occurrence}`;

export type NotAcceptedRenderer = (info: { channelId: string; shiftName: string; startsAt: Date; minutes: number }, ctx: RenderContext) => OutgoingMessage;

/** The check, run after each tick's posts: how many managers were told. */
export function createUnacceptedCheck(deps: {
  store: WorkspaceStore;
  identity: Pick<IdentityService, 'adminIds'>;
  deliverer: Deliverer;
  acceptance: Pick<HandoverAcceptance, 'acceptedBy'>;
  notAccepted: NotAcceptedRenderer;
  /** The DM channel with a person (dm-channels.ts). */
  dm: (userId: string) => Promise<string>;
  timezone: string;
  logger: Logger;
  /** The workspace it checks (bound at composition). */
  teamId: () => Promise<string>;
}): (channels: HandoverChannel[], now: Date) => Promise<number> {
  const { store, identity, logger } = deps;
  const tz = deps.timezone;

  async function managersOf(): Promise<{ channel: string } | { admins: string[] }> {
    const channel = await managersChannelOf(store).catch(() => undefined);
    return channel ? { channel } : { admins: identity.adminIds() };
  }

  /** Tell the managers once that the handover in `ch` to `shift` was not accepted in time; true once everyone was told. */
  async function tellManagers(ch: HandoverChannel, shift: { name: string; startsAt: Date; occurrence: string }, now: Date) {
    const who = await managersOf();
    const team = await deps.teamId();
    const { occurrence } = shift;
    const message = deps.notAccepted(
      { channelId: ch.channelId, shiftName: shift.name, startsAt: shift.startsAt, minutes: ACCEPT_WITHIN_MS / 60_000 },
      { now, timezone: tz, showTask: false },
    );
    const kind = 'handover-unaccepted';
    const done = (r: DeliveryResult) => r === 'sent' || r === 'already-sent' || r === 'found-in-slack' || r === 'gave-up';
    if ('channel' in who) {
      const r = await deps.deliverer.deliver(
        { kind, actionId: ch.channelId, occurrence, recipient: handoverRecipient(team, who.channel) },
        who.channel,
        message,
      );
      return { told: r === 'sent' ? 1 : 0, settled: done(r) };
    }
    let told = 0;
    let settled = true;
    for (const admin of who.admins) {
      const r = await deps.deliverer.deliver({ kind, actionId: ch.channelId, occurrence, recipient: `user:${team}/${admin}` }, () => deps.dm(admin), message);
      if (r === 'sent') told++;
      settled &&= done(r);
    }
    return { told, settled };
  }

  /**
   * Every handover posted in the last LOOKBACK_MS and still not accepted ACCEPT_WITHIN_MS after it went out
   * (or after its shift began, if later): the managers are told, once each (the ledger). A handover is then
   * settled (a cursor), as is one accepted for good (its Undo window over): later runs pass it by unread.
   */
  return async function lookBack(channels: HandoverChannel[], now: Date): Promise<number> {
    const [shifts, team] = await Promise.all([shiftsOf(store), deps.teamId()]);
    /** When the incoming shift of `occurrence` started (null: no shift of that name now). */
    const startOf = (occurrence: string) => {
      const shift = shifts.find((s) => s.name === shiftNameOf(occurrence));
      return shift ? occurrenceOf(shift, occurrence.slice(0, occurrence.indexOf('/')), tz).startsAt : null;
    };
    const byId = new Map(channels.map((c) => [c.channelId, c]));
    // Newest first; one post per channel per shift change, so a week's are among these.
    const limit = Math.max(200, 2 * channels.length * shifts.length * 8);
    const rows = await store.listDeliveries({ kind: 'handover', state: 'sent', order: 'desc', limit });
    let told = 0;
    for (const row of rows) {
      const ch = byId.get(row.recipient.slice(row.recipient.indexOf('/') + 1));
      if (!ch || row.recipient !== handoverRecipient(team, ch.channelId)) continue;
      const ref = { channelId: ch.channelId, occurrence: row.occurrence };
      const shiftStart = startOf(ref.occurrence);
      if (shiftStart && now.getTime() - shiftStart.getTime() > LOOKBACK_MS) continue;
      try {
        if (await store.getCursor(settledCursor(ref.channelId, ref.occurrence))) continue;
        const postedAt = Number((await store.getCursor(postedCursor(ref.channelId, ref.occurrence))) ?? row.sentAt ?? 0);
        const startsAt = shiftStart ?? new Date(postedAt);
        if (now.getTime() - startsAt.getTime() > LOOKBACK_MS) continue;
        // Counted from the minute it went out (the job ticks on the minute): 19:00's post is late at 19:30.
        const from = Math.max(startsAt.getTime(), Math.floor(postedAt / 60_000) * 60_000);
        if (now.getTime() - from < ACCEPT_WITHIN_MS) continue;
        const acceptance = await acceptanceOf(store, { recipient: row.recipient, occurrence: ref.occurrence });
        if (acceptance.accepted) {
          const by = await deps.acceptance.acceptedBy(ref, acceptance.round);
          if (by && now.getTime() >= by.at + ACCEPT_UNDO_MS) await store.setCursor(settledCursor(ref.channelId, ref.occurrence), 'accepted');
          continue;
        }
        const result = await tellManagers(ch, { name: shiftNameOf(ref.occurrence), startsAt, occurrence: ref.occurrence }, now);
        told += result.told;
        if (result.settled) await store.setCursor(settledCursor(ref.channelId, ref.occurrence), 'told');
      } catch (err) {
        logger.error('the managers could not be told of a handover not accepted; the next run tries again', { channel: ch.channelId, error: err });
      }
    }
    return told;
  };
}
