/**
 * Answers the `/care` set-up words (commands/workspace-parse.ts) in either
 * deployment, with one sentence for the person (ephemeral):
 * - many workspaces (`self-service`): each workspace's admins name more admins
 *   and change its time zone and care web link in Slack; the care system is
 *   connected from the Home tab. The tenancy middleware answers with this
 *   before a workspace's care account is connected; the `/care` table after.
 * - one workspace (`configured`): admins, time zone, web link and care account
 *   come from the deployment's configuration; `/care admins` and `/care
 *   settings` show them, and a change is answered with the setting to change.
 */
import { careWebTemplateProblem } from '../../../services/care-web-link.js';
import type { WorkspaceSettings, WorkspaceSettingsPatch } from '../../../store/index.js';
import { isValidTimeZone } from '../../../time/zones.js';
import type { AdminReason } from '../../../services/people/admin-rule.js';
import { describeRetention, type RetentionDays } from '../../../services/evidence/retention.js';
import { SETTINGS_USAGE, type WorkspaceCommand } from '../../commands/workspace-parse.js';

/** One workspace: its admins and settings are the deployment's configuration. */
export interface ConfiguredSetup {
  mode: 'configured';
  /** ADMIN_SLACK_USER_IDS. */
  adminSlackUserIds: readonly string[];
  /** APP_TIMEZONE. */
  timezone: string;
  /** CARE_WEB_URL. */
  careWebUrl?: string | undefined;
  /** RETENTION_DAYS. */
  retentionDays: RetentionDays;
}

/** How this deployment answers the set-up commands. */
export type WorkspaceCommandDeps = SelfServiceSetup | ConfiguredSetup;

/**
 * One workspace's set-up as its commands may use it: bound to that workspace when it is built
 * (deployment/workspace-setup.ts: workspaceSetupOf), so nothing here can name another workspace.
 */
export interface OwnWorkspaceSetup {
  /** Who first installed the app here (they stay an admin), or null. */
  installer(): Promise<string | null>;
  settings(): Promise<WorkspaceSettings | null>;
  /** Change the settings (time zone, web link, retention) and write what changed to the audit. */
  changeSettings(userId: string, patch: WorkspaceSettingsPatch, details: Record<string, unknown>): Promise<void>;
  /** Add or remove an added admin, with its audit row; the admins are told once. */
  changeAdmin(userId: string, change: { kind: 'added' | 'removed'; person: string }): Promise<unknown>;
}

/**
 * Many workspaces: each workspace's admins set it up in Slack (the tenancy
 * middleware answers these before a care account is connected, the table after).
 */
export interface SelfServiceSetup {
  mode: 'self-service';
  /** Reads and changes this workspace's settings, writing their audit rows (deployment/workspace-setup.ts), bound to it. */
  setup: OwnWorkspaceSetup;
  /** Why this person is an admin here, or null (deployment/workspace-admins.ts). */
  adminReason(userId: string): Promise<AdminReason | null>;
  /** The deployment's defaults, shown for a setting the workspace has not set. */
  defaults: { timezone: string; careWebUrl?: string | undefined; retentionDays: RetentionDays };
  /** Told after settings changed (the workspace is built again with them). */
  onChanged(): Promise<void>;
}

const NOT_ADMIN =
  "Only this workspace's Care Actions admins can do that: whoever first installed the app, Slack workspace admins and owners, and people added with `/care admins add`. `/care admins` shows who they are.";

const WHY: Record<AdminReason, string> = {
  configured: 'named in ADMIN_SLACK_USER_IDS',
  installer: 'first installed Care Actions',
  added: 'added with /care admins add',
  'slack-admin': 'Slack workspace admin or owner',
};

function settingsText(settings: WorkspaceSettings | null, defaults: SelfServiceSetup['defaults']): string {
  const zone = settings?.timeZone ? `*${settings.timeZone}*` : `*${defaults.timezone}* (the default)`;
  const link = settings?.careWebUrl ?? defaults.careWebUrl;
  return [
    `Time zone: ${zone}. Change it with \`/care settings timezone Europe/London\`.`,
    link
      ? `Cards link to the care system at \`${link}\`${settings?.careWebUrl ? '' : ' (the default)'}. Change it with \`/care settings web-link <address with {id}>\`, or \`off\`.`
      : 'Cards have no link to the care system. Add one with `/care settings web-link https://your-care-system/actions/{id}`.',
    `The app's own posts and DMs about an action are ${describeRetention(settings?.retentionDays ?? defaults.retentionDays)}${
      settings?.retentionDays != null ? '' : ' (the default)'
    }. Change it with \`/care settings retention 30\` (days; \`0\` at once, \`off\` to keep them).`,
  ].join('\n');
}

/** Run one workspace command for `userId` where admins set up their workspace in Slack; resolves to the sentence to answer with. */
async function selfService(cmd: WorkspaceCommand, userId: string, deps: SelfServiceSetup): Promise<string> {
  const { setup } = deps;
  switch (cmd.kind) {
    case 'usage':
      return cmd.text;
    case 'connect':
      return "Admins connect (or reconnect, or disconnect) the care system from Care Actions' *Home* tab: open the app in the sidebar, then Home.";
    case 'admins': {
      const [installer, settings] = await Promise.all([setup.installer(), setup.settings()]);
      const lines = [
        // An installer forgotten by a Slack admin is an anonymous token: nobody to name.
        installer && !/^erased-\d+$/.test(installer) ? `• <@${installer}> (first installed Care Actions)` : null,
        ...(settings?.adminUserIds ?? []).filter((id) => id !== installer).map((id) => `• <@${id}> (added with /care admins add)`),
      ].filter(Boolean);
      return [`Care Actions admins here:`, ...lines, '• and every Slack workspace admin and owner.', 'Admins add others with `/care admins add @person`.'].join(
        '\n',
      );
    }
    case 'settings':
      return settingsText(await setup.settings(), deps.defaults);
    default:
      break;
  }
  if (!(await deps.adminReason(userId))) return NOT_ADMIN;
  const settings = await setup.settings();
  const admins = settings?.adminUserIds ?? [];
  const save = async (patch: WorkspaceSettingsPatch, details: Record<string, unknown>) => {
    await setup.changeSettings(userId, patch, details);
    await deps.onChanged();
  };
  switch (cmd.kind) {
    case 'admins-add': {
      const already = await deps.adminReason(cmd.userId);
      if (already) return `<@${cmd.userId}> is already an admin here (${WHY[already]}).`;
      await setup.changeAdmin(userId, { kind: 'added', person: cmd.userId });
      await deps.onChanged();
      return `<@${cmd.userId}> is now a Care Actions admin here: they can connect the care system, approve links and set up channels.`;
    }
    case 'admins-remove': {
      if (!admins.includes(cmd.userId)) {
        const reason = await deps.adminReason(cmd.userId);
        return reason
          ? `<@${cmd.userId}> is an admin as someone who ${reason === 'installer' ? 'first installed Care Actions' : reason === 'configured' ? 'is named in ADMIN_SLACK_USER_IDS' : 'is a Slack workspace admin or owner'}; that cannot be removed here.`
          : `<@${cmd.userId}> is not a Care Actions admin here.`;
      }
      await setup.changeAdmin(userId, { kind: 'removed', person: cmd.userId });
      await deps.onChanged();
      return `<@${cmd.userId}> is no longer a Care Actions admin here.`;
    }
    case 'settings-timezone': {
      if (!isValidTimeZone(cmd.timeZone))
        return `"${cmd.timeZone}" is not a time zone I know. Use a name like Europe/London or America/New_York (the IANA list).`;
      await save({ timeZone: cmd.timeZone }, { timeZone: cmd.timeZone });
      return `This workspace's time zone is now *${cmd.timeZone}*: dates, digests and "today" follow it (people's own Slack time zones still apply to their own summaries).`;
    }
    case 'settings-web-link': {
      const problem = cmd.template === null ? null : careWebTemplateProblem(cmd.template);
      if (problem) return `That link cannot be used: ${problem}. For example: \`/care settings web-link https://your-care-system/actions/{id}\`.`;
      await save({ careWebUrl: cmd.template }, { careWebUrl: cmd.template !== null });
      return cmd.template ? `Cards now link to the care system at \`${cmd.template}\`.` : 'Cards no longer link to the care system.';
    }
    case 'settings-retention': {
      await save({ retentionDays: cmd.days }, { retentionDays: cmd.days });
      return `The app's own posts and DMs about an action are now ${describeRetention(cmd.days)}.`;
    }
  }
  return SETTINGS_USAGE;
}

const FROM_CONFIGURATION = 'whoever runs Care Actions changes it in its configuration and restarts it. Nothing was changed.';

function configured(cmd: WorkspaceCommand, deps: ConfiguredSetup): string {
  switch (cmd.kind) {
    case 'usage':
      return cmd.text;
    case 'connect':
      return `In this deployment the care system is connected by its configuration (CARE_API_BASE_URL, CARE_ACCOUNT_ID, CARE_API_KEY and CARE_API_SECRET): ${FROM_CONFIGURATION}`;
    case 'admins': {
      const lines = deps.adminSlackUserIds.map((id) => `• <@${id}> (${WHY.configured})`);
      return [
        'Care Actions admins here:',
        ...lines,
        '• and every Slack workspace admin and owner.',
        'In this deployment admins are named in its configuration (ADMIN_SLACK_USER_IDS), not with `/care admins add`.',
      ].join('\n');
    }
    case 'admins-add':
    case 'admins-remove':
      return `In this deployment Care Actions admins are named in its configuration (ADMIN_SLACK_USER_IDS), besides Slack workspace admins and owners: ${FROM_CONFIGURATION}`;
    case 'settings':
      return [
        `Time zone: *${deps.timezone}* (APP_TIMEZONE).`,
        deps.careWebUrl
          ? `Cards link to the care system at \`${deps.careWebUrl}\` (CARE_WEB_URL).`
          : 'Cards have no link to the care system (CARE_WEB_URL is not set).',
        `The app's own posts and DMs about an action are ${describeRetention(deps.retentionDays)} (RETENTION_DAYS).`,
        'In this deployment these come from its configuration, not from Slack.',
      ].join('\n');
    case 'settings-timezone':
      return `In this deployment the time zone (now *${deps.timezone}*) comes from its configuration, APP_TIMEZONE: ${FROM_CONFIGURATION}`;
    case 'settings-web-link':
      return `In this deployment the link to the care system comes from its configuration, CARE_WEB_URL: ${FROM_CONFIGURATION}`;
    case 'settings-retention':
      return `In this deployment how long the app's messages are kept (now: ${describeRetention(deps.retentionDays)}) comes from its configuration, RETENTION_DAYS: ${FROM_CONFIGURATION}`;
  }
}

/** Answer one set-up command of `userId` in the workspace `deps` are bound to, as this deployment does; resolves to the sentence to answer with (ephemeral). */
export function answerWorkspaceCommand(cmd: WorkspaceCommand, userId: string, deps: WorkspaceCommandDeps): Promise<string> {
  return deps.mode === 'configured' ? Promise.resolve(configured(cmd, deps)) : selfService(cmd, userId, deps);
}
