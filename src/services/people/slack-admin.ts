/**
 * Whether Slack says a person administers a workspace: one rule for the
 * set-up commands, the connect form and every admin-only thing a workspace's
 * services do. Slack's `users.info` flags (`is_admin`, `is_owner`,
 * `is_primary_owner`) describe the person in their own home workspace, so a
 * Slack Connect user (whose `team_id` is another organisation's) or a guest
 * (`is_restricted`, `is_ultra_restricted`) is never taken for an admin here,
 * whatever their flags say.
 */

/** The parts of Slack's user object the rule reads. */
export interface SlackUserFlags {
  team_id?: string | undefined;
  deleted?: boolean | undefined;
  is_bot?: boolean | undefined;
  is_admin?: boolean | undefined;
  is_owner?: boolean | undefined;
  is_primary_owner?: boolean | undefined;
  is_restricted?: boolean | undefined;
  is_ultra_restricted?: boolean | undefined;
  /** Enterprise Grid: the org and the workspaces of the org the person is in. */
  enterprise_user?:
    | { enterprise_id?: string | undefined; teams?: string[] | undefined; is_admin?: boolean | undefined; is_owner?: boolean | undefined }
    | undefined;
}

/**
 * Pure: whether this person is a full member of the workspace: no guest, no outsider. An Enterprise Grid member
 * (a `W…` user, whose `team_id` may be the org's) is one when the workspace is among their org's `teams`.
 */
export function isMemberOf(user: SlackUserFlags, workspaceId: string): boolean {
  if (user.deleted || user.is_bot || user.is_restricted || user.is_ultra_restricted) return false;
  return user.team_id === workspaceId || (user.enterprise_user?.teams ?? []).includes(workspaceId);
}

/** Pure: whether Slack reports this person as an admin or owner of that workspace. */
export function isSlackAdminOf(user: SlackUserFlags, workspaceId: string): boolean {
  if (!isMemberOf(user, workspaceId)) return false;
  return Boolean(user.is_admin || user.is_owner || user.is_primary_owner);
}
