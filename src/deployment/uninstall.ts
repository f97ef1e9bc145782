/**
 * The app uninstalled from a workspace (Slack's `app_uninstalled`, or the bot's tokens revoked): everything
 * the app held of that workspace is deleted, but its audit, which is kept anonymous (no Slack user Id in it)
 * as evidence of what was done through Slack and when, for AUDIT_RETENTION (docs/data-protection.md). The
 * uninstall writes its own anonymous audit row: why, and how many rows of each table were deleted.
 *
 * Many workspaces: the workspace's rows. A deployment of one workspace: every row of its database.
 */
import type { ForgottenCounts, Store } from '../store/index.js';

export const UNINSTALLED_AUDIT_VERB = 'workspace.uninstalled';

/** How long the anonymous audit of an uninstalled workspace is kept (see docs/data-protection.md, *Retention*). */
export const AUDIT_RETENTION = '6 years after the uninstall, unless the provider’s contract with the deployer says otherwise';

export async function forgetUninstalled(
  store: Pick<Store, 'forgetWorkspace' | 'appendAudit'>,
  workspace: { id: string; all: boolean },
  why: string,
): Promise<ForgottenCounts> {
  const counts = await store.forgetWorkspace(workspace.all ? undefined : workspace.id);
  const deleted = Object.fromEntries(Object.entries(counts.deleted).filter(([, n]) => n > 0));
  await store.appendAudit({
    teamId: workspace.id,
    userId: '',
    verb: UNINSTALLED_AUDIT_VERB,
    details: { why, deleted, auditAnonymised: counts.auditAnonymised },
  });
  return counts;
}
