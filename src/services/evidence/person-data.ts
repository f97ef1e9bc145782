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
import type { Logger } from '../../logging/logger.js';
import { adminStandingIn, type AdminStanding, type ErasedCounts, isStoreError, type PersonRecords, type WorkspaceStore } from '../../store/index.js';
import { ADMIN_REMOVED_VERB, type WorkspaceAdminNotices } from '../people/admin-changes.js';
import { addressRecipient } from '../notices/completion-notices.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { SlackProfiles } from '../people/slack-profiles.js';
import { isSlackUserId } from '../slack-user-id.js';

export const ERASED_VERB = 'person.erased';
export const EXPORTED_VERB = 'person.exported';

/** A whole Slack user Id as Slack writes one (U… or, in Enterprise Grid, W…): nothing less is ever erased. */

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
  /** `notes`: the notes they wrote on actions (issue 33), when any. */
  deletes: { links: number; linkRequests: number; summarySettings: number; deliveries: number; notes?: number };
  /** Rows kept without their name: audit rows, digests and routes they set up, links they made for others… */
  anonymises: number;
  /** They are an added admin of the workspace (taken off the list). */
  addedAdmin: boolean;
  /** They are a Care Actions admin and lose it (only a Slack workspace admin or owner gets this far): why they are one. */
  admin: AdminStanding | null;
}

export interface PersonData {
  exportOf(actor: Actor, slackUserId: string): Promise<PersonExport>;
  preview(actor: Actor, slackUserId: string): Promise<ErasurePreview>;
  erase(actor: Actor, slackUserId: string): Promise<ErasedCounts>;
}

const ABOUT =
  'Everything Care Actions for Slack holds about one Slack person: each table of its database, the rows naming them, with the notes they wrote on actions (action_notes). It holds no message text and no care record; those are in Slack and in the care system.';

const NOT_A_PERSON = 'That is not a Slack person: pick them with @ from Slack’s list, `/care forget @person`. Nothing was changed.';

/** Pure: why an admin who is not a Slack workspace admin or owner may not forget this admin. */
export function adminRefusal(slackUserId: string, standing: AdminStanding): string {
  return standing === 'installer'
    ? `<@${slackUserId}> is an admin as someone who first installed Care Actions; that cannot be removed here, so they cannot be forgotten here either. Only a Slack workspace admin or owner can forget them. Nothing was changed.`
    : `<@${slackUserId}> is a Care Actions admin here: remove them as an admin first (\`/care admins remove @person\`), then forget them. Nothing was changed.`;
}

export function createPersonData(deps: {
  store: Pick<WorkspaceStore, 'personRecords' | 'erasePerson' | 'appendAudit'>;
  identity: Pick<IdentityService, 'requireAdmin' | 'isSlackAdmin'>;
  profiles: Pick<SlackProfiles, 'get' | 'forget'>;
  /** The first installer is an admin (a deployment of many); in one of one, admins are configured and erasure changes none. */
  installerIsAdmin: boolean;
  /** Tells this workspace's admins when an erasure took someone's admin rights away (bound to it: deployment/admin-notices.ts). */
  adminNotices?: WorkspaceAdminNotices | undefined;
  now: () => Date;
  logger: Logger;
  /** The workspace whose people it exports and erases (bound at composition). */
  teamId: () => Promise<string>;
}): PersonData {
  const { store, identity } = deps;

  async function nameOf(slackUserId: string): Promise<{ name: string; email: string | null }> {
    const p = await deps.profiles.get(slackUserId).catch(() => null);
    return { name: p?.name || p?.handle || 'this person', email: p?.email ?? null };
  }

  /**
   * Who may be erased, checked before anything is read or changed: a whole Slack user Id (a forged button value is
   * refused), not the admin themselves, someone the app holds something about in this workspace, and no admin
   * unless a Slack workspace admin or owner asks (the admin list is not to be changed by the side door).
   */
  async function erasable(actor: Actor, slackUserId: string): Promise<{ records: PersonRecords; standing: AdminStanding | null }> {
    await identity.requireAdmin(actor);
    if (!isSlackUserId(slackUserId)) throw new UserFacingError(NOT_A_PERSON, 'invalid');
    if (slackUserId === actor.userId) throw new UserFacingError('You cannot erase yourself: ask another Care Actions admin to do it.', 'invalid');
    const records = await store.personRecords(slackUserId);
    if (!Object.values(records).some((rows) => rows.length > 0))
      throw new UserFacingError(`Care Actions holds nothing about <@${slackUserId}> in this workspace: there is nothing to forget.`, 'not-found');
    const standing = adminStandingIn(records, slackUserId, deps.installerIsAdmin);
    if (standing && !(await identity.isSlackAdmin(actor))) throw new UserFacingError(adminRefusal(slackUserId, standing), 'forbidden');
    return { records, standing };
  }

  function counted(slackUserId: string, records: PersonRecords, name: string, standing: AdminStanding | null): ErasurePreview {
    const rows = (table: string) => records[table] ?? [];
    const own = (table: string) => rows(table).filter((r) => r.slack_user_id === slackUserId).length;
    const deletes = {
      links: own('identity_links'),
      linkRequests: own('link_requests'),
      summarySettings: own('summary_settings'),
      deliveries: rows('deliveries').length,
      notes: own('action_notes'),
    };
    const total = Object.values(records).reduce((n, r) => n + r.length, 0);
    const deleted = deletes.links + deletes.linkRequests + deletes.summarySettings + deletes.deliveries + deletes.notes;
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
      admin: standing,
    };
  }

  return {
    async exportOf(actor, slackUserId) {
      await identity.requireAdmin(actor);
      const tables = await store.personRecords(slackUserId);
      await store.appendAudit({ userId: actor.userId, verb: EXPORTED_VERB, details: { slackUserId } });
      const team = await deps.teamId();
      deps.logger.info('person data exported', { team, by: actor.userId });
      return { about: ABOUT, slackUserId, workspace: team, exportedAt: deps.now().toISOString(), tables };
    },

    async preview(actor, slackUserId) {
      const { records, standing } = await erasable(actor, slackUserId);
      return counted(slackUserId, records, (await nameOf(slackUserId)).name, standing);
    },

    async erase(actor, slackUserId) {
      const { standing } = await erasable(actor, slackUserId);
      const { email } = await nameOf(slackUserId);
      // Completion notices sent to their email address are in the ledger under a hash of it.
      const team = await deps.teamId();
      const extraRecipients = email ? [addressRecipient(team, email)] : [];
      let counts: ErasedCounts;
      try {
        counts = await store.erasePerson(slackUserId, {
          extraRecipients,
          audit: { userId: actor.userId, verb: ERASED_VERB },
          // Checked again in the erasure's transaction: someone made an admin since is refused, not demoted.
          admins: { installerIsAdmin: deps.installerIsAdmin, remove: standing !== null, verb: ADMIN_REMOVED_VERB },
        });
      } catch (err) {
        if (isStoreError(err, 'person-is-admin'))
          throw new UserFacingError(
            `<@${slackUserId}> was made a Care Actions admin meanwhile: nothing was changed. Ask again if they should still be forgotten.`,
            'forbidden',
          );
        throw err;
      }
      deps.profiles.forget(slackUserId);
      deps.logger.info('person erased', { team, by: actor.userId, ...counts, adminRemoved: counts.adminRemoved?.was });
      const removed = counts.adminRemoved;
      if (removed) {
        deps.logger.info('an erasure took away Care Actions admin rights', { team, by: actor.userId, was: removed.was });
        // In the background: the answer does not wait for the DMs (each is sent once, through the ledger).
        void deps.adminNotices?.announce({
          kind: 'removed',
          person: removed.token,
          by: actor.userId,
          through: 'forget',
          was: removed.was,
          auditId: removed.auditId,
        });
      }
      return counts;
    },
  };
}
