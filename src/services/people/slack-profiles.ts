import type { WebClient } from '@slack/web-api';
import type { SlackUserFlags } from './slack-admin.js';
import { isSlackUserId } from '../slack-user-id.js';

export interface SlackProfile {
  id: string;
  name: string;
  /** What Slack shows after @: the display name, else the handle. */
  handle: string;
  tz: string;
  email: string | null;
  /** What Slack says of the person's home and role (slack-admin.ts reads it). */
  flags: SlackUserFlags;
  isBot: boolean;
}

export interface SlackProfiles {
  get(userId: string): Promise<SlackProfile>;
  /** The person's IANA time zone; the app's zone when Slack cannot say. Never throws. */
  tz(userId: string): Promise<string>;
  lookupByEmail(email: string): Promise<string | null>;
  forget(userId: string): void;
}

/** users.info with a short cache (time zones and admin flags change rarely). */
export function createSlackProfiles(deps: {
  slack: WebClient;
  defaultTz: string;
  ttlMs?: number;
  /** How long a failed email lookup, or a person Slack does not know, is answered from memory (default 30 s). */
  failureTtlMs?: number;
  now?: () => number;
}): SlackProfiles {
  const ttl = deps.ttlMs ?? 10 * 60_000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { at: number; profile: Promise<SlackProfile>; notFound?: boolean }>();
  const emails = new Map<string, { at: number; id: Promise<string | null>; failed?: boolean }>();
  const failureTtl = deps.failureTtlMs ?? 30_000;

  const fetchProfile = async (userId: string): Promise<SlackProfile> => {
    const res = await deps.slack.users.info({ user: userId });
    const u = res.user ?? {};
    return {
      id: userId,
      name: u.real_name || u.name || userId,
      handle: u.profile?.display_name || u.name || userId,
      tz: u.tz || deps.defaultTz,
      email: u.profile?.email ?? null,
      flags: {
        team_id: u.team_id,
        deleted: u.deleted,
        is_bot: u.is_bot,
        is_admin: u.is_admin,
        is_owner: u.is_owner,
        is_primary_owner: u.is_primary_owner,
        is_restricted: u.is_restricted,
        is_ultra_restricted: u.is_ultra_restricted,
        enterprise_user: u.enterprise_user,
      },
      isBot: Boolean(u.is_bot),
    };
  };

  const profiles: SlackProfiles = {
    get(userId) {
      // Not a Slack user id at all (a caller's mistake, a forged value): Slack is not asked.
      if (!isSlackUserId(userId)) return Promise.reject(Object.assign(new Error('user_not_found: not a Slack user id'), { data: { error: 'user_not_found' } }));
      const hit = cache.get(userId);
      if (hit && now() - hit.at < (hit.notFound ? failureTtl : ttl)) return hit.profile;
      const entry: { at: number; profile: Promise<SlackProfile>; notFound?: boolean } = { at: now(), profile: fetchProfile(userId) };
      cache.set(userId, entry);
      entry.profile.catch((err: { data?: { error?: string } }) => {
        // Slack knows no such person: answered from memory for a while (a Slack id is never given to someone
        // later), so a wrong id asked again does not spend the workspace's users.info minute. Other failures are
        // asked again at once.
        if (err?.data?.error === 'user_not_found') {
          entry.notFound = true;
          entry.at = now();
        } else if (cache.get(userId) === entry) cache.delete(userId);
      });
      return entry.profile;
    },
    tz(userId) {
      return profiles.get(userId).then(
        (p) => p.tz,
        () => deps.defaultTz,
      );
    },
    lookupByEmail(email) {
      const key = email.toLowerCase();
      const hit = emails.get(key);
      if (hit && now() - hit.at < (hit.failed ? failureTtl : ttl)) return hit.id;
      const entry: { at: number; id: Promise<string | null>; failed?: boolean } = { at: now(), id: Promise.resolve(null) };
      entry.id = deps.slack.users
        .lookupByEmail({ email })
        .then((r) => r.user?.id ?? null)
        .catch((err: { data?: { error?: string } }) => {
          if (err?.data?.error === 'users_not_found') return null;
          // A failing lookup is remembered briefly, so retries of many notices do not each ask Slack again.
          entry.failed = true;
          entry.at = now();
          throw err;
        });
      emails.set(key, entry);
      return entry.id;
    },
    forget(userId) {
      cache.delete(userId);
    },
  };
  return profiles;
}
