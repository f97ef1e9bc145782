import type { WebClient } from '@slack/web-api';

/**
 * Opens (once) and remembers the DM channel with each person: the channel a
 * delivery to `user:<team>/<id>` posts in. Called inside a delivery's claim, so
 * a failure to open it is recorded in the ledger and retried like a failed post.
 */
export function createDmChannels(slack: WebClient): (userId: string) => Promise<string> {
  const channels = new Map<string, string>();
  return async (userId) => {
    const hit = channels.get(userId);
    if (hit) return hit;
    const res = await slack.conversations.open({ users: userId });
    const id = res.channel?.id;
    if (!id) throw new Error('conversations.open gave no channel');
    channels.set(userId, id);
    return id;
  };
}
