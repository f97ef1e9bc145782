/**
 * Installing the app in a workspace ("Add to Slack"), and installing it again.
 *
 * Whoever first installed the app counts as one of its admins
 * (workspace-admins.ts), and in many workspaces any member may
 * install an approved app. So installing again changes no admin: the store
 * keeps the first installer and replaces the bot's token and scopes only.
 * When someone other than the first installer does it, this service writes an
 * audit row (who, when, which scopes changed) and tells the workspace's admins
 * (the first installer and the admins added with `/care admins add`) by DM,
 * each exactly once through the delivery ledger, keyed by that audit row. The
 * first install gets the installer's "what next" DM, once, the same way.
 *
 * Uninstalling deletes everything of the workspace but its anonymous audit
 * (uninstall.ts), so installing afresh after that is a first install:
 * whoever installs it is its installer. (An uninstall audited before that change
 * named the first installer: installing afresh after one of those keeps them.)
 *
 * Bolt also stores refreshed tokens through here (token rotation): that is the
 * first installer's installation saved again, so nobody is told anything.
 */
import type { Logger } from '../logging/logger.js';
import type { InstallationSaved, SlackInstallationInput, Store } from '../store/index.js';
import { slackDate } from '../time/slack-date.js';
import type { Deliverer } from '../services/notices/delivery.js';

/** How a workspace's bot DMs people: its delivery ledger and its DM channels (made with the token just stored). */
export interface WorkspaceMessenger {
  deliverer: Deliverer;
  dm(userId: string): Promise<string>;
}

export interface InstallsDeps {
  store: Pick<Store, 'saveInstallation' | 'appendAudit' | 'getWorkspaceSettings' | 'listAudit'>;
  messenger(workspaceId: string, botToken: string): WorkspaceMessenger;
  /** Someone else installed again: what was built from the old token is built again. */
  onReinstalled(workspaceId: string): Promise<void>;
  /** The zone of a date's fallback text when the workspace has not set its own. */
  timezone: string;
  logger: Logger;
}

export type InstallOutcome =
  | { kind: 'installed' }
  /** By the first installer, or Bolt storing refreshed tokens. */
  | { kind: 'installed-again' }
  | { kind: 'installed-again-by-someone-else'; by: string; installer: string; scopesAdded: string[]; scopesRemoved: string[]; auditId: number };

export interface InstallResult extends InstallationSaved {
  outcome: InstallOutcome;
  /** Settles when the DMs this install sends are done (they go on after `save` resolves). */
  told: Promise<void>;
}

export interface Installs {
  save(input: SlackInstallationInput): Promise<InstallResult>;
}

export const INSTALLED_TEXT =
  "Care Actions is installed. Next, connect your care system: open the app's *Home* tab and choose *Connect your care system* (you need the care account's API address, account Id, API key and secret). Until then, `/care` says it is waiting for an admin.";

/** Pure: the admins' DM when someone else installed the app again. */
export function reinstalledText(o: {
  by: string;
  installer: string;
  when: string;
  scopesAdded: string[];
  scopesRemoved: string[];
  afterUninstall?: boolean;
}): string {
  const changed = [
    o.scopesAdded.length ? `permissions added: ${o.scopesAdded.map((s) => `\`${s}\``).join(', ')}` : null,
    o.scopesRemoved.length ? `permissions removed: ${o.scopesRemoved.map((s) => `\`${s}\``).join(', ')}` : null,
  ].filter(Boolean);
  const what = o.afterUninstall
    ? 'It had been uninstalled: its care connection has to be made again by an admin.'
    : `Its token was renewed; ${changed.length ? `${changed.join('; ')}.` : 'its permissions are the same.'}`;
  return [
    `:warning: <@${o.by}> installed Care Actions again in this workspace (${o.when}). ${what}`,
    `This did not make them a Care Actions admin: the admins are still <@${o.installer}> (who first installed it), Slack workspace admins and owners, and people added with \`/care admins add\`. It is in the audit log; if nobody expected it, ask them why.`,
  ].join('\n');
}

export const REINSTALLER_TEXT =
  'You installed Care Actions again here: its token and permissions are renewed. Who administers it did not change (whoever first installed it, Slack workspace admins and owners, and people they added; `/care admins` shows who), and they have been told.';

/** Its team (org-wide installs are refused before they are stored). */
const workspaceOf = (i: { teamId?: string | null | undefined }) => i.teamId ?? '';

/** The audit verb of an uninstall; only those written before uninstalls were anonymous name the first installer (`installer`). */
export const UNINSTALLED_VERB = 'workspace.uninstalled';

export function createInstalls(deps: InstallsDeps): Installs {
  const { store, logger } = deps;

  /** One DM per person, each exactly once (the ledger key names the install event). */
  async function tell(workspaceId: string, botToken: string, kind: string, occurrence: string, texts: [userId: string, text: string][]) {
    const { deliverer, dm } = deps.messenger(workspaceId, botToken);
    const results = await Promise.all(
      texts.map(([userId, text]) =>
        deliverer.deliver({ kind, actionId: '-', occurrence, recipient: `user:${workspaceId}/${userId}` }, () => dm(userId), { text }),
      ),
    );
    if (results.includes('failed')) logger.warn('an install DM could not be sent', { team: workspaceId, kind });
  }
  const inBackground = (work: Promise<void>) =>
    work.catch((error: unknown) => logger.warn('install DMs could not be sent', { error: error instanceof Error ? error.message : String(error) }));

  return {
    async save(input) {
      // Who first installed it here, if it was uninstalled since (the newest uninstall that knew).
      const uninstalls = await store.listAudit({ teamId: workspaceOf(input), verb: UNINSTALLED_VERB, limit: 20 });
      const earlier = uninstalls.map((e) => e.details.installer).find((id): id is string => typeof id === 'string');
      const saved = await store.saveInstallation(input, earlier ? { installerIfNew: earlier } : {});
      const { installation, before } = saved;
      const workspaceId = workspaceOf(installation);
      const botToken = installation.bot?.token;
      const by = input.user.id;
      const installer = installation.user.id;

      if (installer === by) {
        const first = before === null;
        const told =
          first && botToken
            ? inBackground(tell(workspaceId, botToken, 'workspace-installed', String(installation.installedAt), [[by, INSTALLED_TEXT]]))
            : Promise.resolve();
        return { ...saved, outcome: { kind: first ? 'installed' : 'installed-again' }, told };
      }

      // Someone else installed again: the tokens and scopes changed, no admin did.
      const old = new Set(before?.botScopes ?? []);
      const now = new Set(installation.bot?.scopes ?? []);
      const scopesAdded = [...now].filter((s) => !old.has(s));
      const scopesRemoved = [...old].filter((s) => !now.has(s));
      const audit = await store.appendAudit({
        teamId: workspaceId,
        userId: by,
        verb: 'workspace.reinstalled',
        details: { installer, scopesAdded, scopesRemoved, ...(before ? {} : { afterUninstall: true }) },
      });
      logger.info('the app was installed again by someone other than its first installer: tokens renewed, no admin changed', { team: workspaceId });
      await deps.onReinstalled(workspaceId);
      const outcome: InstallOutcome = { kind: 'installed-again-by-someone-else', by, installer, scopesAdded, scopesRemoved, auditId: audit.id };
      if (!botToken) return { ...saved, outcome, told: Promise.resolve() };

      const told = inBackground(
        (async () => {
          const settings = await store.getWorkspaceSettings(workspaceId);
          const when = slackDate(new Date(audit.at), settings?.timeZone ?? deps.timezone);
          const admins = [...new Set([installer, ...(settings?.adminUserIds ?? [])])].filter((id) => id !== by);
          const text = reinstalledText({ by, installer, when, scopesAdded, scopesRemoved, afterUninstall: before === null });
          await Promise.all([
            tell(
              workspaceId,
              botToken,
              'workspace-reinstalled',
              String(audit.id),
              admins.map((id) => [id, text]),
            ),
            tell(workspaceId, botToken, 'workspace-reinstaller', String(audit.id), [[by, REINSTALLER_TEXT]]),
          ]);
        })(),
      );
      return { ...saved, outcome, told };
    },
  };
}
