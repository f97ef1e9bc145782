/** The installed workspaces and whether each has its care account connected (no secrets, no key ring needed). */
import type { Ctx, Row } from './db.js';
import { bool, num, str, strOrNull } from './db.js';
import type { WorkspaceSummary } from './workspace-types.js';

function toSummary(row: Row): WorkspaceSummary {
  const teamId = strOrNull(row.team_id);
  const enterpriseId = strOrNull(row.enterprise_id);
  return {
    workspaceId: (teamId ?? enterpriseId) as string,
    isEnterpriseInstall: bool(row.is_enterprise_install),
    teamId,
    enterpriseId,
    name: strOrNull(row.team_name) ?? strOrNull(row.enterprise_name),
    installedAt: num(row.installed_at),
    updatedAt: num(row.updated_at),
    settingsUpdatedAt: row.settings_updated_at === null || row.settings_updated_at === undefined ? null : num(row.settings_updated_at),
    care:
      row.account_id === null || row.account_id === undefined
        ? null
        : { baseUrl: str(row.base_url), accountId: str(row.account_id), connectedAt: num(row.connected_at) },
  };
}

/** Every installation (a workspace, or an org for an org-wide install), by workspace Id. */
export async function listWorkspaces(ctx: Ctx): Promise<WorkspaceSummary[]> {
  const rows = await ctx.db.all(
    `SELECT i.team_id, i.enterprise_id, i.is_enterprise_install, i.team_name, i.enterprise_name, i.installed_at, i.updated_at,
            c.base_url, c.account_id, c.connected_at, s.updated_at AS settings_updated_at
       FROM slack_installations i
       LEFT JOIN care_connections c ON c.workspace_id = COALESCE(i.team_id, i.enterprise_id)
       LEFT JOIN workspace_settings s ON s.workspace_id = COALESCE(i.team_id, i.enterprise_id)
      ORDER BY COALESCE(i.team_id, i.enterprise_id)`,
  );
  return rows.map(toSummary);
}
