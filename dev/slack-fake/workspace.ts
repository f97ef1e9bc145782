import { tzName, tzOffset } from '@date-fns/tz';
import type { AppDistribution } from './app-distribution.js';
import type { FakeBot, FakeChannel, FakeTeam, SlackUser } from './types.js';
import { BOT_SCOPES } from '../../src/slack/install/oauth-settings.js';

/** A person in the fake workspace (the fake fills in the rest of Slack's user object). */
export interface WorkspaceUser {
  id: string;
  /** Handle, e.g. "alice". */
  name: string;
  realName: string;
  /** The name Slack shows after @ (profile.display_name); default: the handle. */
  displayName?: string;
  email: string;
  /** IANA time zone, e.g. "Europe/London". */
  tz: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  deleted?: boolean;
}

export interface WorkspaceChannel {
  id: string;
  /** Without "#". */
  name: string;
  isPrivate?: boolean;
  /** User ids; include the bot's user id when the bot is a member. */
  members: string[];
  topic?: string;
  purpose?: string;
  archived?: boolean;
}

export interface Workspace {
  team: FakeTeam;
  bot: { userId: string; botId: string; appId: string; name: string; scopes: string[] };
  users: WorkspaceUser[];
  channels: WorkspaceChannel[];
  /**
   * How the app is distributed to this workspace (default `internal`): `distributed` (commercially distributed, not
   * Marketplace-approved) limits conversations.history and .replies to 1 call a minute and 15 per page.
   */
  appDistribution?: AppDistribution;
  /**
   * The workspace is part of an Enterprise Grid org and whoever installs picks the whole org: the OAuth exchange
   * answers an org-wide install (`is_enterprise_install: true`, this `enterprise`, `team: null`), as Slack does.
   */
  orgWideInstall?: OrgWideInstall;
}

/** The Enterprise Grid org an org-wide install is for. */
export interface OrgWideInstall {
  enterprise: { id: string; name: string };
}

/** The bot scopes a typical install of our app has: the app's own (no chat:write.public). */
export const DEFAULT_BOT_SCOPES: string[] = [...BOT_SCOPES];

/**
 * A small care team: an admin/owner and staff in three time zones, #general and
 * #care-team (public, bot is a member), #care-leads (private, bot is a member),
 * #random (public, bot is not a member) and #hr (private, bot is not a member).
 */
export function demoWorkspace(overrides: { scopes?: string[] } = {}): Workspace {
  const bot = 'U0BOT';
  return {
    team: { id: 'T0CARE', name: 'Care Team Demo', domain: 'care-demo' },
    bot: { userId: bot, botId: 'B0BOT', appId: 'A0CAREAPP', name: 'careactions', scopes: overrides.scopes ?? DEFAULT_BOT_SCOPES },
    users: [
      { id: 'U0ALICE', name: 'alice', realName: 'Alice Admin', email: 'alice@example.org', tz: 'Europe/London', isAdmin: true, isOwner: true },
      { id: 'U0BOB', name: 'bob', realName: 'Bob Carer', email: 'bob@example.org', tz: 'Europe/London' },
      { id: 'U0CAROL', name: 'carol', realName: 'Carol Nurse', email: 'carol@example.org', tz: 'America/New_York' },
      { id: 'U0DAN', name: 'dan', realName: 'Dan Night', email: 'dan@example.org', tz: 'Australia/Sydney' },
    ],
    channels: [
      { id: 'C0GENERAL', name: 'general', members: ['U0ALICE', 'U0BOB', 'U0CAROL', 'U0DAN', bot], purpose: 'Everyone' },
      { id: 'C0CARE', name: 'care-team', members: ['U0ALICE', 'U0BOB', 'U0CAROL', bot], purpose: 'Care actions' },
      { id: 'C0LEADS', name: 'care-leads', isPrivate: true, members: ['U0ALICE', 'U0BOB', bot], purpose: 'Leads only' },
      { id: 'C0RANDOM', name: 'random', members: ['U0ALICE', 'U0BOB', 'U0CAROL', 'U0DAN'] },
      { id: 'C0HR', name: 'hr', isPrivate: true, members: ['U0ALICE'] },
    ],
  };
}

/**
 * A second care provider's workspace (the same app installed again): team `T0SUN`, bot `U0SUNBOT`,
 * Erin (admin and owner, Europe/Dublin) and Frank (Europe/Dublin); `#general` and `#care-team`
 * (public, bot is a member). Its ids and handles differ from `demoWorkspace()`'s.
 */
export function secondDemoWorkspace(overrides: { scopes?: string[] } = {}): Workspace {
  const bot = 'U0SUNBOT';
  return {
    team: { id: 'T0SUN', name: 'Sunrise Care', domain: 'sunrise-care' },
    bot: { userId: bot, botId: 'B0SUNBOT', appId: 'A0CAREAPP', name: 'careactions', scopes: overrides.scopes ?? DEFAULT_BOT_SCOPES },
    users: [
      { id: 'U0ERIN', name: 'erin', realName: 'Erin Owner', email: 'erin@sunrise.example', tz: 'Europe/Dublin', isAdmin: true, isOwner: true },
      { id: 'U0FRANK', name: 'frank', realName: 'Frank Carer', email: 'frank@sunrise.example', tz: 'Europe/Dublin' },
    ],
    channels: [
      { id: 'C0SUNGEN', name: 'general', members: ['U0ERIN', 'U0FRANK', bot] },
      { id: 'C0SUNCARE', name: 'care-team', members: ['U0ERIN', 'U0FRANK', bot] },
    ],
  };
}

/** Slack's user object for a workspace person at a given instant (tz_offset follows DST). */
export function toSlackUser(user: WorkspaceUser, team: FakeTeam, nowMs: number): SlackUser {
  const at = new Date(nowMs);
  return {
    id: user.id,
    team_id: team.id,
    name: user.name,
    deleted: user.deleted ?? false,
    real_name: user.realName,
    tz: user.tz,
    tz_label: tzName(user.tz, at, 'long'),
    tz_offset: tzOffset(user.tz, at) * 60,
    is_admin: user.isAdmin ?? false,
    is_owner: user.isOwner ?? false,
    is_primary_owner: user.isOwner ?? false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: false,
    is_app_user: false,
    updated: Math.floor(nowMs / 1000),
    profile: {
      email: user.email,
      real_name: user.realName,
      display_name: user.displayName ?? user.name,
      real_name_normalized: user.realName,
      display_name_normalized: user.displayName ?? user.name,
      team: team.id,
    },
  };
}

/** The bot's own user object (users.list includes it, like Slack). */
export function botSlackUser(bot: FakeBot, team: FakeTeam, nowMs: number): SlackUser {
  return {
    id: bot.userId,
    team_id: team.id,
    name: bot.name,
    deleted: false,
    real_name: bot.name,
    tz: 'America/Los_Angeles',
    tz_label: tzName('America/Los_Angeles', new Date(nowMs), 'long'),
    tz_offset: tzOffset('America/Los_Angeles', new Date(nowMs)) * 60,
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: true,
    is_app_user: false,
    updated: Math.floor(nowMs / 1000),
    profile: {
      real_name: bot.name,
      display_name: bot.name,
      real_name_normalized: bot.name,
      display_name_normalized: bot.name,
      bot_id: bot.botId,
      team: team.id,
    },
  };
}

export function toFakeChannel(channel: WorkspaceChannel, creator: string, nowMs: number): FakeChannel {
  return {
    id: channel.id,
    name: channel.name,
    is_private: channel.isPrivate ?? false,
    is_im: false,
    is_mpim: false,
    members: [...channel.members],
    created: Math.floor(nowMs / 1000),
    creator,
    topic: channel.topic ?? '',
    purpose: channel.purpose ?? '',
    is_archived: channel.archived ?? false,
  };
}
