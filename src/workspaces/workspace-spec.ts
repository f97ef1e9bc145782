/**
 * What one workspace is composed from: what every workspace of the deployment shares (its store among them,
 * already bound to the workspace) and the workspace's own tokens, care account and settings.
 */
import type { AddressRule } from '../care/index.js';
import type { CarePools } from '../care/shared-pools.js';
import type { WorkspaceAdminNotices } from '../services/people/admin-changes.js';
import type { NamedAdmins } from '../services/people/admin-rule.js';
import type { ReadCacheSettings } from '../services/read-cache/read-caches.js';
import type { RetentionDays } from '../services/evidence/retention.js';
import type { SlackDeps } from '../slack/deps.js';
import type { SignedMetadata } from '../slack/sealed/signed-metadata.js';
import type { BotTokenSource } from '../slack/token-rotation/bot-token.js';
import type { WorkspaceStore } from '../store/index.js';
import type { SlackShared } from './workspace-slack.js';

/** What every workspace of a deployment shares. */
export interface WorkspaceShared extends SlackShared {
  /** This workspace's store (src/store/workspace-store.ts: scopedWorkspaceStore), bound to its team where it is composed (compose.ts for one workspace, compose-multi.ts for many). */
  store: WorkspaceStore;
  pollSeconds: number;
  overlapMs: number;
  signedMetadata: SignedMetadata;
  version: string;
  readCache?: ReadCacheSettings | undefined;
  lookupFailureTtlMs?: number | undefined;
  /** More for admins' Home tab (multi-workspace mode: this workspace's care connection card), bound to this workspace. */
  adminHomeExtra?: SlackDeps['adminHomeExtra'];
  /** Many workspaces: admins set this workspace up in Slack (bound to it). Unset: it comes from the spec (the deployment's configuration). */
  workspaceSetup?: SlackDeps['workspaceSetup'];
  /** Many workspaces: tells this workspace's admins when its admins change (an erasure by a Slack admin included); bound to it. */
  adminNotices?: WorkspaceAdminNotices | undefined;
}

/** One workspace: its tokens, its care account and its settings. */
export interface WorkspaceSpec {
  /** Its Slack team id: its one id everywhere (with one workspace too: learned at start-up, deployment/single-workspace.ts). */
  teamId: string;
  botToken: string;
  /** Token rotation (many workspaces): where every Slack call of this workspace gets its current bot token. */
  botTokens?: BotTokenSource | undefined;
  care: {
    baseUrl: string;
    accountId: string;
    apiKey: string;
    apiSecret: string;
    rateLimitPerSecond?: number | undefined;
    connections?: number | undefined;
    /** Connect only to addresses this allows (a workspace's admin typed the address: services/admin/care-hosts.ts). */
    allowAddress?: AddressRule | undefined;
    /** The instance's connections to the care API, shared by its workspaces' clients (care/shared-pools.ts). */
    pools?: CarePools | undefined;
  };
  timezone: string;
  careWebUrl?: string | undefined;
  /** Days after completion the app's messages about an action are edited down (0 at once, 'off' never; default 30). */
  retentionDays?: RetentionDays | undefined;
  /** Admins besides the workspace's own Slack admins and owners (one workspace: ADMIN_SLACK_USER_IDS; many: the installer and those added). */
  admins: NamedAdmins;
}
