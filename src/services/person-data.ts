/**
 * A person's data on request (data protection), for admins only: everything
 * the app holds about one Slack person, as a JSON document (an export), and
 * their erasure. Erasing deletes their own rows (links, link requests, summary
 * setting, the ledger rows of messages sent to them) and leaves what they did
 * for others (audit rows, digests and routes they set up, a link they made)
 * without their name: an anonymous token (`erased-<n>`) takes its place. The
 * erasure writes its own audit row, naming the admin and the counts, never the
 * person. The care system's own records are not the app's and are untouched.
 */
import type { Logger } from '../logging/logger.js';
import type { ErasedCounts, PersonRecords, WorkspaceStore } from '../store/index.js';
import { addressRecipient } from './completion-notices.js';
import { UserFacingError } from './errors.js';
import type { Actor, IdentityService } from './identity.js';
import type { SlackProfiles } from './slack-profiles.js';

export const ERASED_VERB = 'person.erased';
export const EXPORTED_VERB = 'person.exported';

export interface PersonExport {
  /** What the document is, for whoever opens the file. */
  about: string;
  slackUserId: string;
  workspace: string;
  exportedAt: string;
  /** The rows that name the person, table by table, as stored (times are epoch milliseconds). */
  tables: PersonRecords;
}

/** What an erasure will do, counted before it is asked for. */
export interface ErasurePreview {
  slackUserId: string;
  name: string;
  deletes: { links: number; linkRequests: number; summarySettings: number; deliveries: number };
  /** Rows kept without their name: audit rows, digests and routes they set up, links they made for others… */
  anonymises: number;
  /** They are an added admin of the workspace (taken off the list). */
  addedAdmin: boolean;
}

export interface PersonData {
  exportOf(actor: Actor, slackUserId: string): Promise<PersonExport>;
  preview(actor: Actor, slackUserId: string): Promise<ErasurePreview>;
  erase(actor: Actor, slackUserId: string): Promise<ErasedCounts>;
}

const ABOUT =
  'Everything Care Actions for Slack holds about one Slack person: each table of its database, the rows naming them. It holds no message text and no care record; those are in Slack and in the care system.';

export function createPersonData(deps: {
  store: Pick<WorkspaceStore, 'personRecords' | 'erasePerson' | 'appendAudit'>;
  identity: Pick<IdentityService, 'requireAdmin'>;
  profiles: Pick<SlackProfiles, 'get' | 'forget'>;
  now: () => Date;
  logger: Logger;
}): PersonData {
  const { store, identity } = deps;

  async function nameOf(slackUserId: string): Promise<{ name: string; email: string | null }> {
    const p = await deps.profiles.get(slackUserId).catch(() => null);
    return { name: p?.name || p?.handle || 'this person', email: p?.email ?? null };
  }

  function counted(slackUserId: string, records: PersonRecords, name: string): ErasurePreview {
    const rows = (table: string) => records[table] ?? [];
    const own = (table: string) => rows(table).filter((r) => r.slack_user_id === slackUserId).length;
    const deletes = {
      links: own('identity_links'),
      linkRequests: own('link_requests'),
      summarySettings: own('summary_settings'),
      deliveries: rows('deliveries').length,
    };
    const total = Object.values(records).reduce((n, r) => n + r.length, 0);
    const deleted = deletes.links + deletes.linkRequests + deletes.summarySettings + deletes.deliveries;
    return {
      slackUserId,
      name,
      deletes,
      anonymises: total - deleted,
      addedAdmin: rows('workspace_settings').some((r) =>
        String(r.admin_user_ids ?? '')
          .split(',')
          .includes(slackUserId),
      ),
    };
  }

  return {
    async exportOf(actor, slackUserId) {
      await identity.requireAdmin(actor);
      const tables = await store.personRecords(slackUserId);
      await store.appendAudit({ teamId: actor.teamId, userId: actor.userId, verb: EXPORTED_VERB, details: { slackUserId } });
      deps.logger.info('person data exported', { team: actor.teamId, by: actor.userId });
      return { about: ABOUT, slackUserId, workspace: actor.teamId, exportedAt: deps.now().toISOString(), tables };
    },

    async preview(actor, slackUserId) {
      await identity.requireAdmin(actor);
      if (slackUserId === actor.userId) throw new UserFacingError('You cannot erase yourself: ask another Care Actions admin to do it.', 'invalid');
      return counted(slackUserId, await store.personRecords(slackUserId), (await nameOf(slackUserId)).name);
    },

    async erase(actor, slackUserId) {
      await identity.requireAdmin(actor);
      if (slackUserId === actor.userId) throw new UserFacingError('You cannot erase yourself: ask another Care Actions admin to do it.', 'invalid');
      const { email } = await nameOf(slackUserId);
      // Completion notices sent to their email address are in the ledger under a hash of it.
      const extraRecipients = email ? [addressRecipient(actor.teamId, email)] : [];
      const counts = await store.erasePerson(slackUserId, { extraRecipients, audit: { teamId: actor.teamId, userId: actor.userId, verb: ERASED_VERB } });
      deps.profiles.forget(slackUserId);
      deps.logger.info('person erased', { team: actor.teamId, by: actor.userId, ...counts });
      return counts;
    },
  };
}
