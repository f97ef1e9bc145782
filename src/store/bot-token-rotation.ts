/**
 * Token rotation in the store: a refreshed bot token replaces the one it was
 * refreshed from, and only that one (compare-and-set). The caller read the
 * installation, asked Slack for a new token with its refresh token, and now
 * stores the answer only if the stored refresh token is still the one it used:
 * had another instance refreshed meanwhile, or the app been installed again,
 * nothing changes and the caller reads what is stored instead. The tokens are
 * sealed like every other (installations.ts); `updated_at` (the last install)
 * is left alone, so a refresh is not taken for a new install.
 */
import type { Ctx } from './db.js';
import { INSTALLATIONS_TABLE, COLUMNS, installationKey, toInstallation } from './installations.js';
import { type Column, openValue, ringOf, sealValue } from './sealed.js';
import type { BotTokenRefresh, InstallationQuery, SlackInstallation } from './workspace-types.js';

/** Store `next` if the installation's bot refresh token is still `expected.refreshToken`; resolves to the installation as stored then, or null. */
export async function rotateBotToken(
  ctx: Ctx,
  query: InstallationQuery,
  expected: { refreshToken: string },
  next: BotTokenRefresh,
): Promise<SlackInstallation | null> {
  const ring = ringOf(ctx, 'Storing a refreshed Slack token');
  const key = installationKey(query);
  if (!key) return null;
  const at = (column: string): Column => ({ table: INSTALLATIONS_TABLE, column, row: key });
  // One transaction: the read (locked on PostgreSQL; SQLite's BEGIN IMMEDIATE holds every writer) and the write.
  return ctx.db.transaction(async (tx) => {
    const row = await tx.get(`SELECT bot_refresh_token FROM ${INSTALLATIONS_TABLE} WHERE installation_key = ?${tx.kind === 'postgres' ? ' FOR UPDATE' : ''}`, [
      key,
    ]);
    if (!row || openValue(ring, at('bot_refresh_token'), row.bot_refresh_token) !== expected.refreshToken) return null;
    const updated = await tx.get(
      `UPDATE ${INSTALLATIONS_TABLE}
       SET bot_token = ?, bot_refresh_token = ?, bot_token_expires_at = ?, bot_token_refreshed_at = ?
       WHERE installation_key = ?
       RETURNING ${COLUMNS.join(', ')}`,
      [sealValue(ring, at('bot_token'), next.token), sealValue(ring, at('bot_refresh_token'), next.refreshToken), next.expiresAt, ctx.now(), key],
    );
    return updated ? toInstallation(ring, updated) : null;
  });
}
