/**
 * Per-workspace settings its admins set in Slack: time zone, the care web
 * link template and extra admins. A change names only what changes (one
 * statement, so two admins changing different settings at once keep both).
 */
import type { Ctx, Row } from './db.js';
import { num, str, strOrNull } from './db.js';
import { StoreError } from './errors.js';
import { isTimeZone } from './time-zone.js';
import type { WorkspaceSettings, WorkspaceSettingsPatch } from './workspace-types.js';

const COLUMNS = 'workspace_id, time_zone, care_web_url, admin_user_ids, retention_days, updated_by, updated_at';
/** retention_days as stored: -1 is 'off' (kept forever). */
const RETENTION_OFF = -1;
/** The longest retention an admin may set (ten years). */
export const MAX_RETENTION_DAYS = 3650;
const SLACK_USER = /^[UW][A-Z0-9]+$/;

function validate(patch: WorkspaceSettingsPatch): void {
  if (typeof patch.timeZone === 'string' && !isTimeZone(patch.timeZone)) {
    throw new StoreError('invalid-input', `"${patch.timeZone}" is not a known time zone; use an IANA name such as Europe/London.`);
  }
  if (typeof patch.careWebUrl === 'string' && !/^https?:\/\/\S+$/.test(patch.careWebUrl)) {
    throw new StoreError('invalid-input', 'The care web link must be an http(s) address, e.g. https://care.example/actions/{id}.');
  }
  const days = patch.retentionDays;
  if (typeof days === 'number' && !(Number.isInteger(days) && days >= 0 && days <= MAX_RETENTION_DAYS)) {
    throw new StoreError('invalid-input', `Retention is a whole number of days from 0 to ${MAX_RETENTION_DAYS}, or off.`);
  }
  const bad = (patch.adminUserIds ?? []).find((id) => !SLACK_USER.test(id));
  if (bad !== undefined) throw new StoreError('invalid-input', `"${bad}" is not a Slack user Id (U...).`);
}

function toSettings(row: Row): WorkspaceSettings {
  const admins = str(row.admin_user_ids);
  return {
    workspaceId: str(row.workspace_id),
    timeZone: strOrNull(row.time_zone),
    careWebUrl: strOrNull(row.care_web_url),
    adminUserIds: admins === '' ? [] : admins.split(','),
    retentionDays:
      row.retention_days === null || row.retention_days === undefined ? null : num(row.retention_days) === RETENTION_OFF ? 'off' : num(row.retention_days),
    updatedBy: strOrNull(row.updated_by),
    updatedAt: num(row.updated_at),
  };
}

export async function getWorkspaceSettings(ctx: Ctx, workspaceId: string): Promise<WorkspaceSettings | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM workspace_settings WHERE workspace_id = ?`, [workspaceId]);
  return row ? toSettings(row) : null;
}

/** Change some settings (a field left out keeps its value, null clears it); resolves to all of them. */
export async function setWorkspaceSettings(ctx: Ctx, workspaceId: string, patch: WorkspaceSettingsPatch, updatedBy: string | null): Promise<WorkspaceSettings> {
  validate(patch);
  const admins = patch.adminUserIds === undefined ? undefined : [...new Set(patch.adminUserIds)].join(',');
  const retention =
    patch.retentionDays === undefined || patch.retentionDays === null ? null : patch.retentionDays === 'off' ? RETENTION_OFF : patch.retentionDays;
  const row = await ctx.db.get(
    `INSERT INTO workspace_settings (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id) DO UPDATE SET
       time_zone = CASE WHEN ? THEN excluded.time_zone ELSE workspace_settings.time_zone END,
       care_web_url = CASE WHEN ? THEN excluded.care_web_url ELSE workspace_settings.care_web_url END,
       admin_user_ids = CASE WHEN ? THEN excluded.admin_user_ids ELSE workspace_settings.admin_user_ids END,
       retention_days = CASE WHEN ? THEN excluded.retention_days ELSE workspace_settings.retention_days END,
       updated_by = excluded.updated_by, updated_at = excluded.updated_at
     RETURNING ${COLUMNS}`,
    [
      workspaceId,
      patch.timeZone ?? null,
      patch.careWebUrl ?? null,
      admins ?? '',
      retention,
      updatedBy,
      ctx.now(),
      patch.timeZone !== undefined,
      patch.careWebUrl !== undefined,
      admins !== undefined,
      patch.retentionDays !== undefined,
    ],
  );
  return toSettings(row!);
}
