/**
 * Take it, claimed once: many people pressing Take it on one alert at once read the same version of the action;
 * exactly one of them may write. The claim is a ledger row (kind `take`) keyed by the action and the version
 * they read (its `modified`, assignee and due time), claimed in one conditional statement as deliveries are, so
 * it holds across instances. The row's holder is the Slack user who won: the others are told who.
 */
import type { Action } from '../../care/index.js';
import type { DeliveryKey, WorkspaceStore } from '../../store/index.js';

export const TAKE_KIND = 'take';

/** A take whose instance died while holding the claim is given up after this long (a take takes a few seconds). */
const TAKE_STALE_MS = 30_000;
/** A take that keeps failing (the care API down) may be tried again by each new press. */
const TAKE_MAX_ATTEMPTS = 1_000;

/** The ledger key of taking one version of an action. Pure. */
export function takeKey(teamId: string, action: Action): DeliveryKey {
  const version = [action.modified ?? '', action.assigned_to ?? '-', action.due ?? ''].join('|');
  return { kind: TAKE_KIND, actionId: action._id, occurrence: version, recipient: `action:${teamId}/${action._id}` };
}

export type TakeClaim =
  /** This press may write; `done`/`failed` record how it went. */
  | { won: true; done: () => Promise<void>; failed: (error: unknown) => Promise<void> }
  /** Another press of this version holds or has done it: `by` is the Slack user who did (null: not known). */
  | { won: false; by: string | null };

/** Claim taking one version of an action (`key`: takeKey) for `userId` (a Slack user of the store's workspace). */
export async function claimTake(
  store: Pick<WorkspaceStore, 'claimDelivery' | 'markSent' | 'markFailed'>,
  key: DeliveryKey,
  userId: string,
): Promise<TakeClaim> {
  const claim = await store.claimDelivery(key, { holder: userId, staleAfterMs: TAKE_STALE_MS, maxAttempts: TAKE_MAX_ATTEMPTS });
  if (claim.outcome === 'busy' || claim.outcome === 'sent') return { won: false, by: claim.delivery.claimedBy };
  // 'failed' (out of attempts): no claim to hold, the press goes ahead as before claims were kept.
  const id = claim.delivery.id;
  return {
    won: true,
    done: async () => {
      await store.markSent(id, { channel: '', ts: '' });
    },
    failed: async (error) => {
      const reason = error instanceof Error ? error.name : 'error';
      await store.markFailed(id, `take failed: ${reason}`, { retryable: true, holder: userId });
    },
  };
}
