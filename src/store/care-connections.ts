/**
 * Each workspace's care account: the API address, account Id, API key and
 * secret (the key and secret sealed), who connected it and when. One per
 * workspace; connecting again replaces it.
 */
import type { KeyRing } from '../crypto/key-ring.js';
import type { Ctx, Row } from './db.js';
import { num, str } from './db.js';
import { StoreError } from './errors.js';
import { openValue, ringOf, sealValue } from './sealed.js';
import type { CareConnection, CareConnectionInput } from './workspace-types.js';

export const CARE_CONNECTIONS_TABLE = 'care_connections';
export const CARE_CONNECTION_SECRETS = ['api_key', 'api_secret'] as const;

const COLUMNS = 'workspace_id, base_url, account_id, api_key, api_secret, connected_by, connected_at';

function validate(input: CareConnectionInput): void {
  let url: URL | undefined;
  try {
    url = new URL(input.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new StoreError('invalid-input', 'The care API address must be an http(s) URL, e.g. https://api.carehq.co.uk/v1.');
  }
  for (const [field, value] of [
    ['workspace Id', input.workspaceId],
    ['account Id', input.accountId],
    ['API key', input.apiKey],
    ['API secret', input.apiSecret],
    ['connected by', input.connectedBy],
  ] as const) {
    if (typeof value !== 'string' || value.trim() === '') throw new StoreError('invalid-input', `A care connection needs its ${field}.`);
  }
}

function toConnection(ring: KeyRing, row: Row): CareConnection {
  const workspaceId = str(row.workspace_id);
  const secret = (column: string) => openValue(ring, { table: CARE_CONNECTIONS_TABLE, column, row: workspaceId }, row[column]) as string;
  return {
    workspaceId,
    baseUrl: str(row.base_url),
    accountId: str(row.account_id),
    apiKey: secret('api_key'),
    apiSecret: secret('api_secret'),
    connectedBy: str(row.connected_by),
    connectedAt: num(row.connected_at),
  };
}

/** Connect (or reconnect) a workspace's care account. */
export async function setCareConnection(ctx: Ctx, input: CareConnectionInput): Promise<CareConnection> {
  const ring = ringOf(ctx, 'Saving a care connection');
  validate(input);
  const at = (column: string) => ({ table: CARE_CONNECTIONS_TABLE, column, row: input.workspaceId });
  const row = await ctx.db.get(
    `INSERT INTO ${CARE_CONNECTIONS_TABLE} (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id) DO UPDATE SET
       base_url = excluded.base_url, account_id = excluded.account_id, api_key = excluded.api_key,
       api_secret = excluded.api_secret, connected_by = excluded.connected_by, connected_at = excluded.connected_at
     RETURNING ${COLUMNS}`,
    [
      input.workspaceId,
      input.baseUrl.trim(),
      input.accountId.trim(),
      sealValue(ring, at('api_key'), input.apiKey),
      sealValue(ring, at('api_secret'), input.apiSecret),
      input.connectedBy,
      input.connectedAt ?? ctx.now(),
    ],
  );
  return toConnection(ring, row!);
}

export async function getCareConnection(ctx: Ctx, workspaceId: string): Promise<CareConnection | null> {
  const ring = ringOf(ctx, 'Reading a care connection');
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM ${CARE_CONNECTIONS_TABLE} WHERE workspace_id = ?`, [workspaceId]);
  return row ? toConnection(ring, row) : null;
}

/** Disconnect; false when the workspace had no connection. */
export async function deleteCareConnection(ctx: Ctx, workspaceId: string): Promise<boolean> {
  return (await ctx.db.run(`DELETE FROM ${CARE_CONNECTIONS_TABLE} WHERE workspace_id = ?`, [workspaceId])) > 0;
}
