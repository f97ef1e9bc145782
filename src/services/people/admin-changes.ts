/**
 * A change of who administers Care Actions in a workspace, by any path (`/care admins add`, `/care admins
 * remove`, a Slack admin's `/care forget` of an admin): each has its own audit row (`admin.added`,
 * `admin.removed`, naming the person and who did it) and the workspace's admins are told by DM, each
 * exactly once across instances: the ledger key names the audit row.
 *
 * Who is told: whoever first installed the app and the admins added with `/care admins add` (as stored
 * after the change), and the person added or removed, but never whoever made the change, and never an
 * erased person (the ledger would name them again). Pure: the deployment sends them
 * (deployment/admin-notices.ts), through the port a workspace is given bound to it.
 */

export const ADMIN_ADDED_VERB = 'admin.added';
export const ADMIN_REMOVED_VERB = 'admin.removed';
/** The ledger kind of the DMs that tell admins about a change. */
export const ADMIN_CHANGED_KIND = 'admin-changed';
/** The anonymous token an erasure leaves in place of a person (store/person-data.ts). */
const ERASED = /^erased-\d+$/;

export interface AdminChange {
  workspaceId: string;
  kind: 'added' | 'removed';
  /** The person, or the erasure's token (`erased-<n>`) when they were forgotten. */
  person: string;
  by: string;
  /** How: the command, or an erasure by a Slack workspace admin or owner. */
  through: 'admins-add' | 'admins-remove' | 'forget';
  /** Why they were an admin (a removal). */
  was?: 'installer' | 'added' | undefined;
  /** The change's audit row: the key of its DMs. */
  auditId: number;
}

/** Pure: the DM that tells an admin about a change. */
export function adminChangeText(c: AdminChange): string {
  const log = 'It is in the audit log; `/care admins` shows who the admins are now.';
  if (c.through === 'forget') {
    const why = c.was === 'installer' ? 'they first installed Care Actions' : 'they had been added with `/care admins add`';
    return `:key: <@${c.by}>, a Slack workspace admin, erased a person’s data here with \`/care forget\`. That person was a Care Actions admin (${why}) and no longer is. ${log} The audit keeps the change without their name.`;
  }
  return c.kind === 'added'
    ? `:key: <@${c.by}> made <@${c.person}> a Care Actions admin here (\`/care admins add\`). ${log}`
    : `:key: <@${c.by}> removed <@${c.person}> as a Care Actions admin here (\`/care admins remove\`). ${log}`;
}

/** Pure: who is told about a change (see the top of this file). */
export function adminChangeRecipients(c: AdminChange, installer: string | null, added: readonly string[]): string[] {
  const everyone = [installer, ...added, c.through === 'forget' ? null : c.person];
  return [...new Set(everyone)].filter((id): id is string => !!id && id !== c.by && !ERASED.test(id));
}

/** One workspace's admins told about a change made there: bound to that workspace when it is built (deployment/admin-notices.ts). */
export interface WorkspaceAdminNotices {
  announce(change: Omit<AdminChange, 'workspaceId'>): Promise<void>;
}
