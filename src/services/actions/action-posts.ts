/**
 * Posts the app makes about one action outside the delivery paths: the "Created" and "Updated" confirmations of
 * the action form (in the creator's DM, or in the thread a message shortcut or a card came from). Each one is
 * recorded in the delivery ledger as a sent row of its own kind, keyed by the message itself (its channel and
 * ts), so a second record of the same post changes nothing. Retention then edits them down with every other
 * post about the action (retention.ts), and anything that follows the action's posts finds them in the ledger.
 *
 * The post is made first and recorded after: a row is never left pending for a post nobody will retry. A
 * confirmation that could only be said ephemerally (in a channel, to the person alone) is not recorded: Slack
 * keeps no ephemeral message for the app to edit later.
 */
import type { Deliverer, DeliveryResult } from '../notices/delivery.js';
import type { Logger } from '../../logging/logger.js';

/** The ledger kinds of the form's confirmations. */
export const CREATED_KIND = 'created';
export const UPDATED_KIND = 'updated';
export type ActionPostKind = typeof CREATED_KIND | typeof UPDATED_KIND;

/** One post about one action, as Slack answered it. */
export interface ActionPost {
  kind: ActionPostKind;
  /** The care action's Id. */
  actionId: string;
  teamId: string;
  /** Who it was for: a person's DM, or a channel (a thread reply in it). */
  to: { user: string } | { channel: string };
  /** Slack's channel and ts of the message (chat.postMessage's answer). */
  channel: string;
  ts: string;
}

export interface ActionPosts {
  /** Record a post that went out; never throws (a failure to record is logged, the person already has the post). */
  record(post: ActionPost): Promise<DeliveryResult | 'not-recorded'>;
}

/** Pure: the ledger recipient of a post (as every delivery names it). */
export function postRecipient(teamId: string, to: ActionPost['to']): string {
  return 'user' in to ? `user:${teamId}/${to.user}` : `channel:${teamId}/${to.channel}`;
}

/** Pure: the ledger key of one post: one row per message, whatever records it. */
export function postKey(post: ActionPost) {
  return { kind: post.kind, actionId: post.actionId, occurrence: `${post.channel}/${post.ts}`, recipient: postRecipient(post.teamId, post.to) };
}

export function createActionPosts(deps: { deliverer: Pick<Deliverer, 'record'>; logger: Logger }): ActionPosts {
  return {
    async record(post) {
      try {
        return await deps.deliverer.record(postKey(post), { sent: { channel: post.channel, ts: post.ts } });
      } catch (err) {
        deps.logger.warn('could not record a post about an action; retention will not find it', { kind: post.kind, actionId: post.actionId, error: err });
        return 'not-recorded';
      }
    },
  };
}
