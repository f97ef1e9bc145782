/**
 * The one rule for who is a Care Actions admin of a workspace, in a
 * deployment serving one workspace or many:
 *
 *   admin = someone the deployment names
 *             (one workspace: ADMIN_SLACK_USER_IDS; many: whoever first
 *             installed the app there, and people added with `/care admins add`)
 *        OR a Slack admin or owner of this workspace, as Slack reports them
 *             (no guest, no Slack Connect user of another organisation:
 *             slack-admin.ts).
 *
 * The rule reads nothing itself: the named ids are given, and Slack's answer
 * about the person is asked for only when they are not named. Slack failing
 * to answer counts as "not an admin" (the safe side).
 */
import { isSlackAdminOf, type SlackUserFlags } from './slack-admin.js';

/** Why someone is an admin: `configured` (ADMIN_SLACK_USER_IDS), `installer`, `added` (`/care admins add`), `slack-admin`. */
export type AdminReason = 'configured' | 'installer' | 'added' | 'slack-admin';

/** The people a deployment names as admins of one workspace. */
export interface NamedAdmins {
  /** One workspace: ADMIN_SLACK_USER_IDS. */
  configured?: readonly string[] | undefined;
  /** Many workspaces: whoever first installed the app there. */
  installer?: string | null | undefined;
  /** Many workspaces: the people added with `/care admins add`. */
  added?: readonly string[] | undefined;
}

/** Pure: why the deployment names this person an admin, or null (Slack not asked). */
export function namedAdminReason(userId: string, named: NamedAdmins): AdminReason | null {
  if (named.configured?.includes(userId)) return 'configured';
  if (named.installer && named.installer === userId) return 'installer';
  if (named.added?.includes(userId)) return 'added';
  return null;
}

/** Pure: every person the deployment names, each once, with their reason (in that order). */
export function namedAdmins(named: NamedAdmins): { userId: string; reason: AdminReason }[] {
  const out = new Map<string, AdminReason>();
  for (const id of named.configured ?? []) if (!out.has(id)) out.set(id, 'configured');
  if (named.installer && !out.has(named.installer)) out.set(named.installer, 'installer');
  for (const id of named.added ?? []) if (!out.has(id)) out.set(id, 'added');
  return [...out].map(([userId, reason]) => ({ userId, reason }));
}

/**
 * Why this person is an admin of `workspaceId`, or null. `slackUser` is asked
 * only when the deployment does not name them; its failing (or null) is "not".
 */
export async function adminReasonBy(
  userId: string,
  workspaceId: string,
  named: NamedAdmins,
  slackUser: () => Promise<SlackUserFlags | null | undefined>,
): Promise<AdminReason | null> {
  const reason = namedAdminReason(userId, named);
  if (reason) return reason;
  try {
    const user = await slackUser();
    return user && isSlackAdminOf(user, workspaceId) ? 'slack-admin' : null;
  } catch {
    return null;
  }
}
