/**
 * What the store keeps for a deployment serving many workspaces: Slack
 * installations, each workspace's care connection and settings. Tokens and
 * secrets are given and returned in clear; the store keeps them encrypted.
 * A workspace Id is a Slack team Id, or an enterprise Id for an org-wide
 * (Enterprise Grid) install.
 */

/** The bot of an installation, as Bolt's Installation.bot. */
export interface SlackBot {
  token: string;
  /** With token rotation on. */
  refreshToken?: string | null;
  /** As Bolt gives it (epoch seconds). */
  expiresAt?: number | null;
  scopes: string[];
  /** Bot Id (B...). */
  id: string;
  /** The bot's user Id (U...). */
  userId: string;
}

/** The person who installed (Bolt's Installation.user); a user token only when user scopes were asked for. */
export interface SlackInstaller {
  id: string;
  token?: string | null;
  refreshToken?: string | null;
  expiresAt?: number | null;
  scopes?: string[] | null;
}

export interface SlackIncomingWebhook {
  /** A secret: anyone with it can post. */
  url: string;
  channel?: string | null;
  channelId?: string | null;
  configurationUrl?: string | null;
}

/** One installation of the app, as Bolt's OAuth InstallationStore stores and fetches it. */
export interface SlackInstallationInput {
  /** True for an org-wide install on an Enterprise Grid org: keyed by enterpriseId, no team. */
  isEnterpriseInstall: boolean;
  /** Required unless isEnterpriseInstall. */
  teamId?: string | null;
  teamName?: string | null;
  /** Required when isEnterpriseInstall; also set for a workspace install inside an org. */
  enterpriseId?: string | null;
  enterpriseName?: string | null;
  enterpriseUrl?: string | null;
  appId?: string | null;
  /** Default v2. */
  authVersion?: 'v1' | 'v2';
  bot?: SlackBot | null;
  user: SlackInstaller;
  incomingWebhook?: SlackIncomingWebhook | null;
  /** What the app put in the OAuth state, if anything. */
  metadata?: string | null;
}

export interface SlackInstallation {
  isEnterpriseInstall: boolean;
  teamId: string | null;
  teamName: string | null;
  enterpriseId: string | null;
  enterpriseName: string | null;
  enterpriseUrl: string | null;
  appId: string | null;
  authVersion: 'v1' | 'v2';
  bot: {
    token: string;
    refreshToken: string | null;
    /** Epoch seconds, as Bolt keeps it; null without token rotation. */
    expiresAt: number | null;
    /** When the token was last refreshed (ms); null while it is the one the install gave (token rotation). */
    refreshedAt: number | null;
    scopes: string[];
    id: string;
    userId: string;
  } | null;
  /** The person who first installed the app here (installing it again does not change them), with their own grant. */
  user: { id: string; token: string | null; refreshToken: string | null; expiresAt: number | null; scopes: string[] | null };
  incomingWebhook: { url: string; channel: string | null; channelId: string | null; configurationUrl: string | null } | null;
  metadata: string | null;
  /** First installed (kept when the app is installed again). */
  installedAt: number;
  /** Last saved. */
  updatedAt: number;
}

/** What saving an installation did: the row as stored, and what it held before (null: the first install). */
export interface InstallationSaved {
  installation: SlackInstallation;
  /** No secrets: who had installed it and the bot's scopes then. */
  before: { installerUserId: string; botScopes: string[] | null; updatedAt: number } | null;
}

/** Which installation, as Bolt asks: an org install by enterprise, else a workspace install by team. */
export interface InstallationQuery {
  isEnterpriseInstall: boolean;
  teamId?: string | null;
  enterpriseId?: string | null;
}

/** A workspace's care account. */
export interface CareConnectionInput {
  workspaceId: string;
  /** The API address, e.g. https://api.carehq.co.uk/v1 (live), the vendor's sandbox, or another. */
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  /** Slack user Id of the admin who connected it. */
  connectedBy: string;
  /** Default: the store's clock. */
  connectedAt?: number;
}

export interface CareConnection {
  workspaceId: string;
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  connectedBy: string;
  connectedAt: number;
}

/** Per-workspace settings its admins set in Slack; null = not set (the deployment's default applies). */
export interface WorkspaceSettings {
  workspaceId: string;
  timeZone: string | null;
  /** The care system's web page of an action (`{id}`, `{no}`); checked by the caller (services/care-web-link.ts). */
  careWebUrl: string | null;
  /** Admins added with `/care admins add` (the installer, workspace admins and owners count anyway). */
  adminUserIds: string[];
  /**
   * Days after an action is completed that the app's own posts and DMs about it are edited down to a
   * neutral line: 0 at once, 'off' kept forever, null the deployment's default (RETENTION_DAYS).
   */
  retentionDays: number | 'off' | null;
  updatedBy: string | null;
  updatedAt: number;
}

/** A change of settings: a field left out keeps its value, null clears it. */
export interface WorkspaceSettingsPatch {
  timeZone?: string | null;
  careWebUrl?: string | null;
  adminUserIds?: string[];
  retentionDays?: number | 'off' | null;
}

/** One installed workspace and whether its care account is connected (no secrets). */
export interface WorkspaceSummary {
  workspaceId: string;
  isEnterpriseInstall: boolean;
  teamId: string | null;
  enterpriseId: string | null;
  /** The team's name, or the org's for an org install. */
  name: string | null;
  installedAt: number;
  /** When its installation row last changed (a new bot token), and its settings (null: none saved). */
  updatedAt: number;
  settingsUpdatedAt: number | null;
  care: { baseUrl: string; accountId: string; connectedAt: number } | null;
}

export interface ReencryptCounts {
  rows: number;
  /** Rows with a value under an older key, now all under the primary key. */
  rewritten: number;
  /** Rows already all under the primary key (or with nothing encrypted). */
  current: number;
  /** Rows someone changed while this ran: left as they are (run again). */
  changedMeanwhile: number;
  /** Rows with a value no key of the ring opens. */
  failed: number;
}

export interface ReencryptResult {
  /** The key every rewritten value is now under. */
  primaryKeyId: string;
  tables: { slack_installations: ReencryptCounts; care_connections: ReencryptCounts };
  /** Which rows could not be opened and why (no secret). */
  failures: { table: string; row: string; reason: string }[];
}

/** A refreshed bot token (token rotation): the new access token, its refresh token and its expiry (epoch seconds). */
export interface BotTokenRefresh {
  token: string;
  refreshToken: string;
  expiresAt: number;
}
