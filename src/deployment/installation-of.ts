import type { SlackInstallation, Store } from '../store/index.js';

/** The installation serving a workspace: its own (org-wide installs are refused before they are stored). */
export async function installationOf(store: Pick<Store, 'getInstallation'>, workspaceId: string): Promise<SlackInstallation | null> {
  return store.getInstallation({ isEnterpriseInstall: false, teamId: workspaceId });
}
