/**
 * A handover's acceptance: who may accept it, and whether it stands.
 *
 * Who: a person with a linked care account; where seniors are named for the
 * incoming shift (`/care escalation seniors <shift> @…`), only one of them or
 * a workspace admin. Anyone else is told why, and nothing changes.
 *
 * Whether: acceptance goes in rounds, each a pair of ledger rows keyed by the
 * handover (its channel and shift occurrence): `handover-accept` (the first
 * press of the round wins, across instances) and `handover-accept-undo` (the
 * accepter's Undo, once). A round undone opens the next; the handover is
 * accepted while its latest round is accepted and not undone. Who accepted a
 * round and when is in the audit (`handover.accept`, with its round).
 */
import type { AuditEntry, WorkspaceStore } from '../../store/index.js';
import type { Deliverer } from '../notices/delivery.js';
import { escalationOf } from '../urgent/escalation-settings.js';
import type { Actor, IdentityService } from '../people/identity.js';

/** How long after accepting the accepter may Undo it (as for the other shared buttons). */
export const ACCEPT_UNDO_MS = 5 * 60_000;
/** Rounds read at most (an Undo each): far more than any handover sees. */
const MAX_ROUNDS = 100;

/** Where a handover post is, as its button carries it. */
export interface HandoverRef {
  channelId: string;
  /** The incoming shift's occurrence id (`2027-10-30/Night`). */
  occurrence: string;
}

export type AcceptRefusal =
  | { kind: 'refused'; reason: 'not-linked' }
  /** Seniors are named for the incoming shift and the presser is neither one of them nor an admin. */
  | { kind: 'refused'; reason: 'not-senior'; shiftName: string; seniors: string[] };

/** Why this person may not accept the handover to `shiftName`, or null when they may. Pure policy. */
export function acceptRefusal(p: {
  userId: string;
  linked: boolean;
  admin: boolean;
  shiftName: string;
  /** The seniors named for the incoming shift (none: any linked person). */
  seniors: readonly string[] | undefined;
}): AcceptRefusal | null {
  if (!p.linked) return { kind: 'refused', reason: 'not-linked' };
  const seniors = p.seniors ?? [];
  if (!seniors.length || p.admin || seniors.includes(p.userId)) return null;
  return { kind: 'refused', reason: 'not-senior', shiftName: p.shiftName, seniors: [...seniors] };
}

/** The shift name in an occurrence id (`2027-10-30/Night` -> `Night`). */
export const shiftNameOf = (occurrence: string) => occurrence.slice(occurrence.indexOf('/') + 1);

export interface HandoverKey {
  /** `channel:<team>/<channel>`: the handover post's ledger recipient. */
  recipient: string;
  occurrence: string;
}

/** The latest round of a handover's acceptance: `accepted` while it is accepted and not undone. */
export interface Acceptance {
  round: number;
  accepted: boolean;
}

const roundOccurrence = (occurrence: string, round: number) => (round === 1 ? occurrence : `${occurrence}#${round}`);

export function acceptKey(h: HandoverKey, round: number) {
  return { kind: 'handover-accept', actionId: '-', occurrence: roundOccurrence(h.occurrence, round), recipient: h.recipient };
}

export function undoKey(h: HandoverKey, round: number) {
  return { ...acceptKey(h, round), kind: 'handover-accept-undo' };
}

/** The handover's acceptance as it stands (a read of the ledger: two rows a round). */
export async function acceptanceOf(store: Pick<WorkspaceStore, 'getDelivery'>, h: HandoverKey): Promise<Acceptance> {
  for (let round = 1; round < MAX_ROUNDS; round++) {
    const accepted = await store.getDelivery(acceptKey(h, round));
    if (accepted?.state !== 'sent') return { round, accepted: false };
    const undone = await store.getDelivery(undoKey(h, round));
    if (undone?.state !== 'sent') return { round, accepted: true };
  }
  return { round: MAX_ROUNDS, accepted: false };
}

/** Record the round's acceptance (or its Undo): true for the one press that did it. */
async function recordOnce(deliverer: Deliverer, key: ReturnType<typeof acceptKey>, post: { channel: string; ts: string }): Promise<boolean> {
  return (await deliverer.record(key, { sent: post })) === 'sent';
}

/** A handover post's ledger recipient. */
export const handoverRecipient = (team: string, channelId: string) => `channel:${team}/${channelId}`;

export type AcceptResult =
  /** `round`: which acceptance of this handover it is (an Undo opens the next). */
  { kind: 'accepted'; by: string; at: Date; round: number } | { kind: 'already'; by: string | null; at: Date | null } | AcceptRefusal;

export type UndoAcceptResult =
  /** The Accept button and the managers' check are back; `by` undid it. */
  | { kind: 'undone'; by: string; at: Date }
  | { kind: 'not-yours'; by: string }
  | { kind: 'too-late'; minutes: number }
  /** Undone already, or accepted again since: nothing changed. */
  | { kind: 'spent' };

export interface HandoverAcceptance {
  accept(actor: Actor, ref: HandoverRef, post: { ts: string }): Promise<AcceptResult>;
  undoAccept(actor: Actor, ref: HandoverRef, round: number, post: { ts: string }): Promise<UndoAcceptResult>;
  /** Who accepted round `round` of the handover, and when (the audit). */
  acceptedBy(ref: HandoverRef, round: number): Promise<AuditEntry | undefined>;
}

export function createAcceptance(deps: {
  store: WorkspaceStore;
  identity: IdentityService;
  deliverer: Deliverer;
  teamId: () => Promise<string>;
  now: () => Date;
}): HandoverAcceptance {
  const { store, identity } = deps;
  const acceptAuditId = (ref: HandoverRef) => `handover:${ref.channelId}/${ref.occurrence}`;
  const handoverKey = async (ref: HandoverRef): Promise<HandoverKey> => ({
    recipient: handoverRecipient(await deps.teamId(), ref.channelId),
    occurrence: ref.occurrence,
  });

  async function acceptedBy(ref: HandoverRef, round: number) {
    const entries = await store.listAudit({ verb: 'handover.accept', actionId: acceptAuditId(ref), limit: 200 });
    return entries.find((e) => (Number(e.details.round) || 1) === round);
  }

  /** The audit row of a press (no task text: which handover post, and which round of it). */
  const audit = (actor: Actor, verb: string, ref: HandoverRef, round: number) =>
    store.appendAudit({
      userId: actor.userId,
      verb,
      actionId: acceptAuditId(ref),
      details: { channelId: ref.channelId, occurrence: ref.occurrence, round },
      at: deps.now().getTime(),
    });

  return {
    acceptedBy,
    async accept(actor, ref, post) {
      const shiftName = shiftNameOf(ref.occurrence);
      const refusal = acceptRefusal({
        userId: actor.userId,
        linked: (await identity.getLink(actor)) !== null,
        admin: await identity.isAdmin(actor),
        shiftName,
        seniors: (await escalationOf(store)).seniors?.[shiftName],
      });
      if (refusal) return refusal;
      const key = await handoverKey(ref);
      const { round, accepted } = await acceptanceOf(store, key);
      if (!accepted && (await recordOnce(deps.deliverer, acceptKey(key, round), { channel: ref.channelId, ts: post.ts }))) {
        const entry = await audit(actor, 'handover.accept', ref, round);
        return { kind: 'accepted', by: actor.userId, at: new Date(entry.at), round };
      }
      // Someone else's press won (or is being recorded): who it was is in the audit a moment later.
      for (let tries = 0; ; tries++) {
        const entry = await acceptedBy(ref, round);
        if (entry || tries >= 10) return { kind: 'already', by: entry?.userId ?? null, at: entry ? new Date(entry.at) : null };
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },

    async undoAccept(actor, ref, round, post) {
      const key = await handoverKey(ref);
      const now = await acceptanceOf(store, key);
      if (!now.accepted || now.round !== round) return { kind: 'spent' };
      const entry = await acceptedBy(ref, round);
      if (!entry) return { kind: 'spent' };
      if (entry.userId !== actor.userId) return { kind: 'not-yours', by: entry.userId };
      if (deps.now().getTime() >= entry.at + ACCEPT_UNDO_MS) return { kind: 'too-late', minutes: ACCEPT_UNDO_MS / 60_000 };
      if (!(await recordOnce(deps.deliverer, undoKey(key, round), { channel: ref.channelId, ts: post.ts }))) return { kind: 'spent' };
      const undone = await audit(actor, 'handover.accept-undo', ref, round);
      return { kind: 'undone', by: actor.userId, at: new Date(undone.at) };
    },
  };
}
