import type { SlackInstallation, Store } from '../store/index.js';

/** The installation serving a workspace: its own, or its org's (an org-wide Enterprise Grid install, keyed E…). */
export async function installationOf(store: Pick<Store, 'getInstallation'>, workspaceId: string): Promise<SlackInstallation | null> {
  return (
    (await store.getInstallation({ isEnterpriseInstall: false, teamId: workspaceId })) ??
    (workspaceId.startsWith('E') ? await store.getInstallation({ isEnterpriseInstall: true, enterpriseId: workspaceId }) : null)
  );
}
