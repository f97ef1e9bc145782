/** What admins see on their Home tab after their own list: the Team and Status sections (or why one could not be read). */
import type { RenderContext } from '../../services/action-model.js';
import type { StatusReport } from '../../services/admin/status.js';
import type { TeamView } from '../../services/admin/team-view.js';
import { divider, header, section, type Block } from './blocks.js';
import { statusSectionBlocks } from './status-section.js';
import { teamSectionBlocks } from './team-section.js';

export interface AdminHome {
  team: TeamView | { error: string };
  status: StatusReport | { error: string };
  /** Blocks after both sections (the care connection card of a multi-workspace deployment); kept within the bound. */
  extra?: Block[];
}

/** The most blocks the admin sections take (the rest of the Home tab's 100 is the person's own list). */
export const ADMIN_HOME_MAX_BLOCKS = 30;

/** Both sections, each in a fixed number of blocks; an error stands in for a section that could not be read. */
export function adminHomeBlocks(admin: AdminHome, ctx: RenderContext): Block[] {
  const team = 'error' in admin.team ? [header('Team'), section(`:warning: ${admin.team.error}`)] : teamSectionBlocks(admin.team, ctx);
  const status = 'error' in admin.status ? [header('Status'), section(`:warning: ${admin.status.error}`)] : statusSectionBlocks(admin.status, ctx.timezone);
  const extra = admin.extra?.length ? [divider(), ...admin.extra] : [];
  return [...[divider(), ...team, divider(), ...status].slice(0, ADMIN_HOME_MAX_BLOCKS - extra.length), ...extra];
}
