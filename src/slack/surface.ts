import type { BlockAction } from '@slack/bolt';

/** A conversation other people see too: any channel but a person's own DM with the app (`D…`). */
export function isSharedConversation(channelId: string | undefined): boolean {
  return Boolean(channelId) && !channelId!.startsWith('D');
}

/** A click on a message everyone in a channel sees: not an ephemeral answer, a DM with the app or a view (Home, modal). */
export function clickedOnSharedPost(body: BlockAction): boolean {
  if (body.container?.type !== 'message' || body.container.is_ephemeral) return false;
  return isSharedConversation(body.channel?.id ?? body.container.channel_id);
}

/** The message a button was clicked on (a channel post or a DM, not an ephemeral answer or a view): its listener redraws it there. */
export function clickedPostOf(body: BlockAction): { channel: string; ts: string } | undefined {
  if (body.container?.type !== 'message' || body.container.is_ephemeral) return undefined;
  const channel = body.channel?.id ?? body.container.channel_id;
  const ts = body.message?.ts ?? body.container.message_ts;
  return channel && ts ? { channel, ts } : undefined;
}
