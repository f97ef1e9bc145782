import type { WebClient } from '@slack/web-api';
import type { WorkspaceStore } from '../store/index.js';

export interface ChannelInfo {
  id: string;
  name: string;
  isPrivate: boolean;
  isDirect: boolean;
  /** Whether the app is in the channel (it can only post where it is). */
  isMember: boolean;
}

export interface ChannelPolicy {
  info(channelId: string): Promise<ChannelInfo>;
  /**
   * Whether task text may appear in a channel: always in DMs and private
   * channels; in a public channel only when an admin confirmed it there (the
   * second step after --show-tasks). An opt-in given while the channel was
   * private does not carry over once it is public.
   */
  showTasksIn(channelId: string): Promise<boolean>;
}

export function createChannelPolicy(deps: { slack: WebClient; store: WorkspaceStore; ttlMs?: number; now?: () => number }): ChannelPolicy {
  const ttl = deps.ttlMs ?? 10 * 60_000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { at: number; info: ChannelInfo }>();

  const policy: ChannelPolicy = {
    async info(channelId) {
      const hit = cache.get(channelId);
      if (hit && now() - hit.at < ttl) return hit.info;
      if (channelId.startsWith('D')) return { id: channelId, name: 'direct message', isPrivate: true, isDirect: true, isMember: true };
      const res = await deps.slack.conversations.info({ channel: channelId });
      const c = res.channel ?? {};
      const info = {
        id: channelId,
        name: c.name ?? channelId,
        isPrivate: Boolean(c.is_private || c.is_im || c.is_mpim),
        isDirect: Boolean(c.is_im),
        isMember: Boolean(c.is_member || c.is_im),
      };
      cache.set(channelId, { at: now(), info });
      return info;
    },

    async showTasksIn(channelId) {
      if (channelId.startsWith('D')) return true;
      try {
        if ((await policy.info(channelId)).isPrivate) return true;
      } catch {
        return false; // unknown privacy: hide
      }
      const sub = await deps.store.getSubscription(channelId);
      return Boolean(sub?.showTaskText && !sub.channelPrivate);
    },
  };
  return policy;
}
