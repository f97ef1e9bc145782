import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { ActionsService } from '../services/actions.js';
import type { ChannelPolicy } from '../services/channel-policy.js';
import type { DirectoryService } from '../services/directory.js';
import type { IdentityService } from '../services/identity.js';
import type { SlackProfiles } from '../services/slack-profiles.js';
import type { Store } from '../store/index.js';
import type { Command } from './commands/parse.js';

/** Admin commands added by the jobs layer (digests, routes), kept out of the core listeners. */
/** Handles the parsed commands it knows (returns true), leaves the rest (false). */
export type AdminCommandHandler = (ctx: CommandContext, cmd: Command) => Promise<boolean>;

export interface CommandContext {
  teamId: string;
  userId: string;
  channelId: string;
  triggerId: string;
  reply(message: { text: string; blocks?: unknown[] }): Promise<void>;
}

/** One person's Home tab publishes: the newest render wins, one publish at a time. */
export interface HomeQueue {
  generation: number;
  tail: Promise<void>;
}

/** Everything the Slack listeners need, built once in main.ts and passed in. */
export interface SlackDeps {
  actions: ActionsService;
  identity: IdentityService;
  directory: DirectoryService;
  profiles: SlackProfiles;
  channels: ChannelPolicy;
  store: Store;
  /** The WebClient services use (same token and API URL as Bolt's). */
  slack: WebClient;
  logger: Logger;
  now: () => Date;
  /** APP_TIMEZONE: fallback zone for date text and people without one. */
  timezone: string;
  /** Extra /care subcommands (digest, route...) registered by later layers. */
  adminCommands?: AdminCommandHandler[];
  /** Per-person Home tab publish queues of this app instance (see slack/home.ts). */
  homeQueues: Map<string, HomeQueue>;
}
