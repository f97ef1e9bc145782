/** Notification-group routes: a care notification group -> one Slack channel per workspace. */
import type { Ctx, Row } from './db.js';
import { num, str } from './db.js';
import type { GroupRoute, GroupRouteInput } from './types.js';

const COLUMNS = 'team_id, group_id, group_name, channel_id, set_up_by, set_up_at';

function toRoute(row: Row): GroupRoute {
  return {
    teamId: str(row.team_id),
    groupId: str(row.group_id),
    groupName: str(row.group_name),
    channelId: str(row.channel_id),
    setUpBy: str(row.set_up_by),
    setUpAt: num(row.set_up_at),
  };
}

/** Route a group to a channel, replacing the group's earlier channel in that workspace. */
export async function upsertRoute(ctx: Ctx, input: GroupRouteInput): Promise<GroupRoute> {
  const row = await ctx.db.get(
    `INSERT INTO group_routes (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, group_id) DO UPDATE SET
       group_name = excluded.group_name, channel_id = excluded.channel_id,
       set_up_by = excluded.set_up_by, set_up_at = excluded.set_up_at
     RETURNING ${COLUMNS}`,
    [input.teamId, input.groupId, input.groupName, input.channelId, input.setUpBy, input.setUpAt ?? ctx.now()],
  );
  return toRoute(row!);
}

export async function listRoutes(ctx: Ctx, teamId?: string): Promise<GroupRoute[]> {
  const rows =
    teamId === undefined
      ? await ctx.db.all(`SELECT ${COLUMNS} FROM group_routes ORDER BY team_id, group_name, group_id`)
      : await ctx.db.all(`SELECT ${COLUMNS} FROM group_routes WHERE team_id = ? ORDER BY group_name, group_id`, [teamId]);
  return rows.map(toRoute);
}

/** The routes of any of these groups (e.g. an action's notify_on_complete), in every workspace or only teamId's. */
export async function routesForGroups(ctx: Ctx, groupIds: readonly string[], teamId?: string): Promise<GroupRoute[]> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return [];
  const out: GroupRoute[] = [];
  // Chunks keep the parameter count well inside both databases' limits.
  for (let i = 0; i < unique.length; i += 200) {
    const chunk = unique.slice(i, i + 200);
    const inTeam = teamId === undefined ? '' : ' AND team_id = ?';
    const rows = await ctx.db.all(
      `SELECT ${COLUMNS} FROM group_routes WHERE group_id IN (${chunk.map(() => '?').join(', ')})${inTeam} ORDER BY team_id, group_id`,
      teamId === undefined ? chunk : [...chunk, teamId],
    );
    out.push(...rows.map(toRoute));
  }
  return out;
}

export async function deleteRoute(ctx: Ctx, teamId: string, groupId: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM group_routes WHERE team_id = ? AND group_id = ?', [teamId, groupId])) > 0;
}
