/**
 * Telling a workspace's admins, once, of a message that may not have arrived: Slack gave no answer when it
 * was posted, and the workspace declined the history scopes, so the app could not look whether it landed and
 * did not send it again (delivery.ts marks it uncertain in the ledger). One DM per admin per uncertain
 * delivery, through the ledger, so neither another instance nor a later Retry tells them again. The DM's text
 * (what a locked phone shows) names no resident and carries no task text.
 */
import type { Deliverer, UncertainDelivery } from './delivery.js';

export const UNCERTAIN_NOTICE_KIND = 'delivery-uncertain';

/** Pure: who the message was for, as Slack shows it. */
export function recipientText(recipient: string): string {
  const [type, rest = ''] = recipient.split(':', 2);
  const id = rest.slice(rest.indexOf('/') + 1);
  if (type === 'user') return `<@${id}>`;
  if (type === 'channel') return `<#${id}>`;
  return 'a notification group address';
}

/** Pure: the DM's words. */
export function uncertainText(d: Pick<UncertainDelivery, 'kind' | 'actionId' | 'recipient'>): string {
  const about = d.actionId && d.actionId !== '-' ? ` about care action Id ${d.actionId}` : '';
  return [
    `:warning: A Care Actions message may not have arrived: a ${d.kind} message${about} to ${recipientText(d.recipient)}.`,
    'Slack gave no answer when it was sent, and this workspace did not grant the app the history scopes it would need to look whether it arrived, so it was not sent again (it is never sent twice). Check with them, or in the care system.',
  ].join('\n');
}

export interface UncertainNoticesDeps {
  teamId: () => Promise<string>;
  deliverer: Deliverer;
  /** The DM channel with a person (dm-channels.ts). */
  dm: (userId: string) => Promise<string>;
  /** The workspace's Care Actions admins. */
  admins: () => string[];
}

export function createUncertainNotices(deps: UncertainNoticesDeps) {
  return {
    async tell(d: UncertainDelivery): Promise<void> {
      // A notice of this kind that is itself uncertain is not told again (it would never end).
      if (d.kind === UNCERTAIN_NOTICE_KIND) return;
      const team = await deps.teamId();
      const text = uncertainText(d);
      await Promise.all(
        deps
          .admins()
          .map((userId) =>
            deps.deliverer.deliver(
              { kind: UNCERTAIN_NOTICE_KIND, actionId: d.actionId, occurrence: String(d.id), recipient: `user:${team}/${userId}` },
              () => deps.dm(userId),
              { text },
            ),
          ),
      );
    },
  };
}
