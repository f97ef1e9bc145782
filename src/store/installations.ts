/**
 * Slack installations, one per workspace (team) or per Enterprise Grid org
 * (org-wide install), as Bolt's OAuth InstallationStore stores, fetches and
 * deletes them. Installing again replaces the bot's token, ids and scopes and
 * keeps installed_at and the first installer (who counts as an admin): someone
 * else installing again changes neither them nor their own grant (user token,
 * webhook, metadata); the first installer installing again replaces theirs.
 * Tokens, refresh tokens and the incoming webhook are sealed (sealed.ts).
 */
import type { KeyRing } from '../crypto/key-ring.js';
import type { Ctx, Row } from './db.js';
import { bool, numOrNull, num, str, strOrNull } from './db.js';
import { StoreError } from './errors.js';
import { type Column, openValue, ringOf, sealValue } from './sealed.js';
import type { InstallationQuery, InstallationSaved, SlackInstallation, SlackInstallationInput } from './workspace-types.js';

export const INSTALLATIONS_TABLE = 'slack_installations';

/** The sealed columns of a row (re-encryption goes through the same list). */
export const INSTALLATION_SECRETS = ['bot_token', 'bot_refresh_token', 'user_token', 'user_refresh_token', 'incoming_webhook'] as const;

export const COLUMNS = [
  'installation_key',
  'enterprise_id',
  'enterprise_name',
  'enterprise_url',
  'team_id',
  'team_name',
  'is_enterprise_install',
  'app_id',
  'auth_version',
  'bot_token',
  'bot_refresh_token',
  'bot_token_expires_at',
  'bot_token_refreshed_at',
  'bot_id',
  'bot_user_id',
  'bot_scopes',
  'installer_user_id',
  'user_token',
  'user_refresh_token',
  'user_token_expires_at',
  'user_scopes',
  'incoming_webhook',
  'metadata',
  'installed_at',
  'updated_at',
] as const;

/** The installer's own columns: replaced only when the first installer installs again. */
const INSTALLER_OWN = new Set(['user_token', 'user_refresh_token', 'user_token_expires_at', 'user_scopes', 'incoming_webhook', 'metadata']);
/** Never replaced: the row's key, when it was first installed, and by whom. */
const KEPT = new Set(['installation_key', 'installed_at', 'installer_user_id']);

/** `enterprise:E1` for an org-wide install, `team:T1` otherwise; undefined when the query names neither. */
export function installationKey(q: InstallationQuery): string | undefined {
  if (q.isEnterpriseInstall) return q.enterpriseId ? `enterprise:${q.enterpriseId}` : undefined;
  return q.teamId ? `team:${q.teamId}` : undefined;
}

const list = (items: readonly string[] | null | undefined) => (items ? items.join(',') : null);
const unlist = (value: unknown) => (value === null || value === undefined ? null : str(value) === '' ? [] : str(value).split(','));

function validate(input: SlackInstallationInput): string {
  const key = installationKey(input);
  if (!key) {
    throw new StoreError(
      'invalid-input',
      input.isEnterpriseInstall ? 'An org-wide installation needs its enterprise Id.' : 'A workspace installation needs its team Id.',
    );
  }
  if (!input.user?.id) throw new StoreError('invalid-input', 'An installation needs the installing user’s Id.');
  if (input.bot && (!input.bot.token || !input.bot.id || !input.bot.userId)) {
    throw new StoreError('invalid-input', 'An installation’s bot needs its token, bot Id and bot user Id.');
  }
  for (const scope of [...(input.bot?.scopes ?? []), ...(input.user.scopes ?? [])]) {
    if (scope === '' || scope.includes(',')) throw new StoreError('invalid-input', `"${scope}" is not a Slack scope.`);
  }
  return key;
}

/** A row as the app reads it, its sealed columns opened. */
export function toInstallation(ring: KeyRing, row: Row): SlackInstallation {
  const key = str(row.installation_key);
  const secret = (column: string) => openValue(ring, { table: INSTALLATIONS_TABLE, column, row: key }, row[column]);
  const webhook = secret('incoming_webhook');
  const botToken = secret('bot_token');
  return {
    isEnterpriseInstall: bool(row.is_enterprise_install),
    teamId: strOrNull(row.team_id),
    teamName: strOrNull(row.team_name),
    enterpriseId: strOrNull(row.enterprise_id),
    enterpriseName: strOrNull(row.enterprise_name),
    enterpriseUrl: strOrNull(row.enterprise_url),
    appId: strOrNull(row.app_id),
    authVersion: str(row.auth_version) as 'v1' | 'v2',
    bot:
      botToken === null
        ? null
        : {
            token: botToken,
            refreshToken: secret('bot_refresh_token'),
            expiresAt: numOrNull(row.bot_token_expires_at),
            refreshedAt: numOrNull(row.bot_token_refreshed_at),
            scopes: unlist(row.bot_scopes) ?? [],
            id: str(row.bot_id),
            userId: str(row.bot_user_id),
          },
    user: {
      id: str(row.installer_user_id),
      token: secret('user_token'),
      refreshToken: secret('user_refresh_token'),
      expiresAt: numOrNull(row.user_token_expires_at),
      scopes: unlist(row.user_scopes),
    },
    incomingWebhook: webhook === null ? null : (JSON.parse(webhook) as SlackInstallation['incomingWebhook']),
    metadata: strOrNull(row.metadata),
    installedAt: num(row.installed_at),
    updatedAt: num(row.updated_at),
  };
}

/**
 * Save an installation (see the file comment for what installing again keeps); resolves to it as
 * stored and to who had installed it before. When none is stored, `installerIfNew` (who first installed
 * the app here, before it was uninstalled) is its installer, and the person installing now keeps no grant
 * of theirs in it. Throws StoreError('encryption-key-missing') without a key ring.
 */
export async function saveInstallation(ctx: Ctx, input: SlackInstallationInput, options: { installerIfNew?: string } = {}): Promise<InstallationSaved> {
  const ring = ringOf(ctx, 'Saving a Slack installation');
  const key = validate(input);
  const at = (column: string): Column => ({ table: INSTALLATIONS_TABLE, column, row: key });
  const hook = input.incomingWebhook;
  const now = ctx.now();
  const values = [
    key,
    input.enterpriseId ?? null,
    input.enterpriseName ?? null,
    input.enterpriseUrl ?? null,
    input.isEnterpriseInstall ? null : (input.teamId ?? null),
    input.isEnterpriseInstall ? null : (input.teamName ?? null),
    input.isEnterpriseInstall,
    input.appId ?? null,
    input.authVersion ?? 'v2',
    sealValue(ring, at('bot_token'), input.bot?.token),
    sealValue(ring, at('bot_refresh_token'), input.bot?.refreshToken),
    input.bot?.expiresAt ?? null,
    // Installing gives a new token: it was not refreshed (yet).
    null,
    input.bot?.id ?? null,
    input.bot?.userId ?? null,
    input.bot ? list(input.bot.scopes) : null,
    input.user.id,
    sealValue(ring, at('user_token'), input.user.token),
    sealValue(ring, at('user_refresh_token'), input.user.refreshToken),
    input.user.expiresAt ?? null,
    list(input.user.scopes),
    hook
      ? sealValue(
          ring,
          at('incoming_webhook'),
          JSON.stringify({ url: hook.url, channel: hook.channel ?? null, channelId: hook.channelId ?? null, configurationUrl: hook.configurationUrl ?? null }),
        )
      : null,
    input.metadata ?? null,
    now,
    now,
  ];
  const sameInstaller = `${INSTALLATIONS_TABLE}.installer_user_id = excluded.installer_user_id`;
  const replace = COLUMNS.filter((c) => !KEPT.has(c))
    .map((c) => (INSTALLER_OWN.has(c) ? `${c} = CASE WHEN ${sameInstaller} THEN excluded.${c} ELSE ${INSTALLATIONS_TABLE}.${c} END` : `${c} = excluded.${c}`))
    .join(', ');
  // One transaction: what was there before and what replaced it are seen together (SQLite: BEGIN IMMEDIATE;
  // PostgreSQL: the row is locked by the read, and a first install racing another meets ON CONFLICT).
  return ctx.db.transaction(async (tx) => {
    const previous = await tx.get(
      `SELECT installer_user_id, bot_scopes, updated_at FROM ${INSTALLATIONS_TABLE} WHERE installation_key = ?${tx.kind === 'postgres' ? ' FOR UPDATE' : ''}`,
      [key],
    );
    // None stored, but the app was installed here before by someone else (then uninstalled): they stay its installer.
    const adopted = !previous && options.installerIfNew && options.installerIfNew !== input.user.id ? options.installerIfNew : undefined;
    const asInstalledBy = (installer: string) =>
      values.map((value, i) => (COLUMNS[i] === 'installer_user_id' ? installer : INSTALLER_OWN.has(COLUMNS[i]!) ? null : value));
    const row = await tx.get(
      `INSERT INTO ${INSTALLATIONS_TABLE} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
       ON CONFLICT (installation_key) DO UPDATE SET ${replace}
       RETURNING ${COLUMNS.join(', ')}`,
      adopted ? asInstalledBy(adopted) : values,
    );
    return {
      installation: toInstallation(ring, row!),
      before: previous
        ? { installerUserId: str(previous.installer_user_id), botScopes: unlist(previous.bot_scopes), updatedAt: num(previous.updated_at) }
        : null,
    };
  });
}

/** The installation Bolt asks for: by enterprise for an org-wide install, else by team; null when there is none. */
export async function getInstallation(ctx: Ctx, query: InstallationQuery): Promise<SlackInstallation | null> {
  const key = installationKey(query);
  if (!key) return null;
  const ring = ringOf(ctx, 'Reading a Slack installation');
  const row = await ctx.db.get(`SELECT ${COLUMNS.join(', ')} FROM ${INSTALLATIONS_TABLE} WHERE installation_key = ?`, [key]);
  return row ? toInstallation(ring, row) : null;
}

/** Forget an installation and its tokens (uninstalled, tokens revoked); false when there was none. */
export async function deleteInstallation(ctx: Ctx, query: InstallationQuery): Promise<boolean> {
  const key = installationKey(query);
  if (!key) return false;
  return (await ctx.db.run(`DELETE FROM ${INSTALLATIONS_TABLE} WHERE installation_key = ?`, [key])) > 0;
}
