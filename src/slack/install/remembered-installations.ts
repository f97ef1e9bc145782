/**
 * Bolt's installation store, with a memory of the installations it last
 * fetched, so a workspace's requests are still authorised while the database
 * cannot answer (a PostgreSQL outage): the last installation read for that
 * workspace on this instance is used instead. What the store says is always
 * taken when it answers: an installation it does not have is refused, and an
 * uninstall or a new install is forgotten here at once.
 */
import type { Installation, InstallationQuery, InstallationStore, Logger } from '@slack/bolt';
import { InstallationStoreError } from './installation-store.js';

const keyOf = (q: InstallationQuery<boolean>) => (q.isEnterpriseInstall ? `org:${q.enterpriseId ?? ''}` : `team:${q.teamId ?? ''}`);

export function rememberingInstallations(inner: InstallationStore): InstallationStore {
  const last = new Map<string, Installation>();
  return {
    async storeInstallation(installation, logger?: Logger) {
      await inner.storeInstallation(installation, logger);
      last.clear(); // the next fetch reads what the store now holds
    },
    async fetchInstallation(query, logger?: Logger) {
      const key = keyOf(query);
      try {
        const found = await inner.fetchInstallation(query, logger);
        last.set(key, found);
        return found;
      } catch (error) {
        // The store answered "not installed" (uninstalled meanwhile, perhaps): that holds, and is remembered.
        if (error instanceof InstallationStoreError) {
          last.delete(key);
          throw error;
        }
        // It could not answer: use what it said last, if it ever did.
        const remembered = last.get(key);
        if (!remembered) throw error;
        logger?.warn(`The database did not answer; using the Slack installation last read for ${key}`);
        return remembered;
      }
    },
    async deleteInstallation(query, logger?: Logger) {
      last.delete(keyOf(query));
      await inner.deleteInstallation?.(query, logger);
    },
  };
}
