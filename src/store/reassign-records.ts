/**
 * A person's erasure and a bulk reassignment's records (`reassign:<run>` cursors: a plan while it is asked
 * and run, then what its Undo needs until the window ends): a record that names the person as either side,
 * by their whole Slack user Id, is deleted (it exists only to answer that run).
 */
import type { Db, Param } from './db.js';
import { str } from './db.js';
import { nameTeamWhere } from './recipient-team.js';

const PREFIX = 'reassign:';

/** The Slack user Ids a record names (a plan's or an Undo's two sides). */
function slackIdsOf(raw: string): string[] {
  try {
    const v = JSON.parse(raw) as {
      from?: { slackUserId?: unknown };
      to?: { slackUserId?: unknown };
      plan?: { from?: { slackUserId?: unknown }; to?: { slackUserId?: unknown } };
    };
    return [v.from, v.to, v.plan?.from, v.plan?.to].map((s) => s?.slackUserId).filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}

/** Delete the reassign records naming `slackUserId` (of `teamId` only, when given); resolves to how many. */
export async function eraseReassignRecords(db: Db, slackUserId: string, teamId: string | undefined): Promise<number> {
  const team = teamId === undefined ? null : nameTeamWhere(db.kind, 'name', teamId);
  const rows = await db.all(`SELECT name, value FROM job_cursors WHERE substr(name, 1, ?) = ?${team ? ` AND ${team.sql}` : ''}`, [
    PREFIX.length,
    PREFIX,
    ...((team?.params ?? []) as Param[]),
  ]);
  let n = 0;
  for (const row of rows) {
    if (slackIdsOf(str(row.value)).includes(slackUserId)) n += await db.run('DELETE FROM job_cursors WHERE name = ?', [str(row.name)]);
  }
  return n;
}
