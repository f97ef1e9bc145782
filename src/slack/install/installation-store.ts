/**
 * Bolt's OAuth InstallationStore over our Store: Bolt stores what the OAuth
 * redirect gave it, fetches by enterprise for an org-wide (Enterprise Grid)
 * install and by team otherwise, and deletes on uninstall. The store keeps
 * every token encrypted; this file never logs one (only the installation's
 * key, e.g. `team:T123`).
 *
 * Token rotation: Bolt's own refresh (@slack/oauth 4, InstallProvider.authorize)
 * refreshes a token with less than 2 hours left (`EXPIRY_WINDOW = 7200`) on
 * every request that fetches it, by the machine's clock, with no lock across
 * requests or instances, and stores what it got. With Slack's 12-hour tokens
 * that is a refresh per request for the last 2 hours; with two instances, two
 * refreshes of one refresh token, one of them refused. So Bolt never refreshes
 * here: with `freshBotToken`, a fetched installation carries the token our
 * rotation keeps fresh (token-rotation/, once across instances) and neither
 * the refresh token nor the expiry, which is how Bolt knows not to.
 */
import type { Installation, InstallationQuery, InstallationStore, Logger } from '@slack/bolt';
import type { InstallationQuery as StoreQuery, SlackInstallation, SlackInstallationInput, Store } from '../../store/index.js';

export interface InstallationStoreOptions {
  /**
   * The app's clock (ms). Bolt stamps a new token's expiry (epoch seconds) with the machine's clock; it is kept on
   * this one (the same, but in tests and demos that move the app's clock). Default: left as Bolt gives it.
   */
  now?: (() => number) | undefined;
  /** Token rotation: the bot token Bolt is to use for this installation (refreshed first when due); null: the stored one. */
  freshBotToken?: ((installation: SlackInstallation) => Promise<string | null>) | undefined;
}

/**
 * Where installations are kept: the store's reads and deletes, and a save that may do more than store
 * (deployment/installs.ts audits someone else's re-install and tells the workspace's admins).
 */
export type InstallationRows = Pick<Store, 'getInstallation' | 'deleteInstallation'> & {
  saveInstallation(input: SlackInstallationInput): Promise<{ installation: SlackInstallation }>;
};

/** Why an installation was not stored or not found; the message names the team or org, never a token. */
export class InstallationStoreError extends Error {
  override readonly name = 'InstallationStoreError';
}

const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

function describe(q: StoreQuery): string {
  return q.isEnterpriseInstall ? `org ${q.enterpriseId ?? '(no enterprise Id)'}` : `workspace ${q.teamId ?? '(no team Id)'}`;
}

/** Bolt's installation as the store takes it. Refuses one without a bot token: this app only acts as its bot. */
export function toStoreInput(installation: Installation): SlackInstallationInput {
  const isEnterpriseInstall = installation.isEnterpriseInstall === true;
  const query: StoreQuery = { isEnterpriseInstall, teamId: installation.team?.id, enterpriseId: installation.enterprise?.id };
  if (!installation.bot?.token) {
    // A user-token-only grant (user scopes alone) would replace the bot's row and leave the workspace without a bot.
    throw new InstallationStoreError(`The installation for ${describe(query)} has no bot token; this app needs its bot (install it with the bot scopes).`);
  }
  const { bot, user, incomingWebhook: hook } = installation;
  return {
    isEnterpriseInstall,
    teamId: installation.team?.id ?? null,
    teamName: installation.team?.name ?? null,
    enterpriseId: installation.enterprise?.id ?? null,
    enterpriseName: installation.enterprise?.name ?? null,
    enterpriseUrl: installation.enterpriseUrl ?? null,
    appId: installation.appId ?? null,
    authVersion: installation.authVersion ?? 'v2',
    bot: {
      token: bot.token,
      refreshToken: bot.refreshToken ?? null,
      expiresAt: bot.expiresAt ?? null,
      scopes: bot.scopes ?? [],
      id: bot.id,
      userId: bot.userId,
    },
    user: {
      id: user.id,
      token: user.token ?? null,
      refreshToken: user.refreshToken ?? null,
      expiresAt: user.expiresAt ?? null,
      scopes: user.scopes ?? null,
    },
    incomingWebhook: hook
      ? { url: hook.url, channel: hook.channel ?? null, channelId: hook.channelId ?? null, configurationUrl: hook.configurationUrl ?? null }
      : null,
    metadata: installation.metadata ?? null,
  };
}

/** A stored installation as Bolt reads it (absent fields left out, as Bolt's own stores do). */
export function toBoltInstallation(row: SlackInstallation): Installation<'v1' | 'v2', boolean> {
  const installation: Installation<'v2', boolean> = {
    team: row.isEnterpriseInstall || row.teamId === null ? undefined : { id: row.teamId, name: orUndefined(row.teamName) },
    enterprise: row.enterpriseId === null ? undefined : { id: row.enterpriseId, name: orUndefined(row.enterpriseName) },
    user: {
      id: row.user.id,
      token: orUndefined(row.user.token),
      refreshToken: orUndefined(row.user.refreshToken),
      expiresAt: orUndefined(row.user.expiresAt),
      scopes: orUndefined(row.user.scopes),
    },
    isEnterpriseInstall: row.isEnterpriseInstall,
    authVersion: 'v2',
    appId: orUndefined(row.appId),
    enterpriseUrl: orUndefined(row.enterpriseUrl),
    metadata: orUndefined(row.metadata),
  };
  if (row.bot) {
    installation.tokenType = 'bot';
    installation.bot = {
      token: row.bot.token,
      refreshToken: orUndefined(row.bot.refreshToken),
      expiresAt: orUndefined(row.bot.expiresAt),
      scopes: row.bot.scopes,
      id: row.bot.id,
      userId: row.bot.userId,
    };
  }
  if (row.incomingWebhook) {
    installation.incomingWebhook = {
      url: row.incomingWebhook.url,
      channel: orUndefined(row.incomingWebhook.channel),
      channelId: orUndefined(row.incomingWebhook.channelId),
      configurationUrl: orUndefined(row.incomingWebhook.configurationUrl),
    };
  }
  if (row.authVersion === 'v1') return { ...installation, authVersion: 'v1' } as unknown as Installation<'v1', boolean>;
  return installation;
}

const storeQuery = (q: InstallationQuery<boolean>): StoreQuery => ({
  isEnterpriseInstall: q.isEnterpriseInstall === true,
  teamId: q.teamId ?? null,
  enterpriseId: q.enterpriseId ?? null,
});

/**
 * The InstallationStore to give Bolt (`installationStore`). Fetching an
 * installation that is not there throws (Bolt's authorize turns any throw into
 * an AuthorizationError and the request is refused), as @slack/oauth's own
 * stores do for a query that names nothing.
 */
export function installationStore(rows: InstallationRows, options: InstallationStoreOptions = {}): InstallationStore {
  const { now, freshBotToken } = options;
  return {
    async storeInstallation(installation, logger?: Logger) {
      const input = toStoreInput(installation as Installation);
      const expiresAt = input.bot?.expiresAt;
      // Bolt's expiry is its clock's now + expires_in: the same time left, on the app's clock (rounded down).
      if (now && input.bot && typeof expiresAt === 'number') input.bot.expiresAt = Math.floor((now() + (expiresAt * 1000 - Date.now())) / 1000);
      const { installation: saved } = await rows.saveInstallation(input);
      logger?.debug(`Stored the Slack installation for ${describe(saved)}`);
    },
    async fetchInstallation(query, logger?: Logger) {
      const q = storeQuery(query);
      const row = await rows.getInstallation(q);
      if (!row) throw new InstallationStoreError(`No Slack installation for ${describe(q)}: the app is not installed there (or was uninstalled).`);
      logger?.debug(`Fetched the Slack installation for ${describe(q)}`);
      if (!freshBotToken || !row.bot?.refreshToken) return toBoltInstallation(row);
      const token = (await freshBotToken(row)) ?? row.bot.token;
      return toBoltInstallation({ ...row, bot: { ...row.bot, token, refreshToken: null, expiresAt: null } });
    },
    async deleteInstallation(query, logger?: Logger) {
      const q = storeQuery(query);
      const deleted = await rows.deleteInstallation(q);
      logger?.debug(`${deleted ? 'Deleted' : 'There was no'} Slack installation for ${describe(q)}`);
    },
  };
}
