/**
 * The `/care` commands of a deployment serving many workspaces, which work
 * before the care system is connected: who the workspace's admins are, its
 * time zone and its care web link, each set by its admins in Slack.
 *
 *   /care admins                      who can set up this workspace
 *   /care admins add @person          make someone an admin here
 *   /care admins remove @person
 *   /care settings                    this workspace's time zone and web link
 *   /care settings timezone Europe/London
 *   /care settings web-link https://care.example/actions/{id} | off
 *   /care connect                     where to connect the care system
 */
import { careWebTemplateProblem } from '../../services/care-web-link.js';
import type { WorkspaceSettings, WorkspaceSetup } from '../../services/workspace-setup.js';
import { isValidTimeZone } from '../../time/zones.js';
import type { AdminReason } from '../../services/workspace-admins.js';

export type WorkspaceCommand =
  | { kind: 'admins' }
  | { kind: 'admins-add' | 'admins-remove'; userId: string }
  | { kind: 'settings' }
  | { kind: 'settings-timezone'; timeZone: string }
  | { kind: 'settings-web-link'; template: string | null }
  | { kind: 'connect' }
  | { kind: 'usage'; text: string };

const MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;

const ADMINS_USAGE = 'Usage: `/care admins`, `/care admins add @person` or `/care admins remove @person` (pick the person from the @ list).';
const SETTINGS_USAGE =
  'Usage: `/care settings`, `/care settings timezone Europe/London` or `/care settings web-link https://your-care-system/actions/{id}` (`off` to remove the link).';

/** Pure: a workspace command, or null when the text is another `/care` command. */
export function parseWorkspaceCommand(text: string): WorkspaceCommand | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const [first, second, ...rest] = words.map((w, i) => (i < 2 ? w.toLowerCase() : w));
  if (first === 'connect' || first === 'disconnect') return { kind: 'connect' };
  if (first === 'admins' || first === 'admin') {
    if (second === undefined) return { kind: 'admins' };
    if ((second === 'add' || second === 'remove') && rest.length === 1) {
      const userId = MENTION.exec(rest[0]!)?.[1];
      if (userId) return { kind: second === 'add' ? 'admins-add' : 'admins-remove', userId };
    }
    return { kind: 'usage', text: ADMINS_USAGE };
  }
  if (first === 'settings' || first === 'setting') {
    if (second === undefined) return { kind: 'settings' };
    const value = words.slice(2).join(' ');
    if ((second === 'timezone' || second === 'tz' || second === 'time-zone') && value) return { kind: 'settings-timezone', timeZone: value };
    if ((second === 'web-link' || second === 'weblink' || second === 'web-url') && value)
      return { kind: 'settings-web-link', template: value.toLowerCase() === 'off' ? null : value.replace(/^<([^|>]+)(?:\|[^>]*)?>$/, '$1') };
    return { kind: 'usage', text: SETTINGS_USAGE };
  }
  return null;
}

export interface WorkspaceCommandDeps {
  /** Reads and changes the workspace's settings, writing their audit rows (services/workspace-setup.ts). */
  setup: Pick<WorkspaceSetup, 'installer' | 'settings' | 'changeSettings'>;
  /** Why this person is an admin here, or null (workspace-admins.ts). */
  adminReason(userId: string): Promise<AdminReason | null>;
  /** The deployment's defaults, shown for a setting the workspace has not set. */
  defaults: { timezone: string; careWebUrl?: string | undefined };
  /** Told after settings changed (the workspace is built again with them). */
  onChanged(): Promise<void>;
}

const NOT_ADMIN =
  "Only this workspace's Care Actions admins can do that: whoever first installed the app, Slack workspace admins and owners, and people added with `/care admins add`. `/care admins` shows who they are.";

const WHY: Record<AdminReason, string> = {
  installer: 'first installed Care Actions',
  added: 'added with /care admins add',
  'slack-admin': 'Slack workspace admin or owner',
};

function settingsText(settings: WorkspaceSettings | null, defaults: WorkspaceCommandDeps['defaults']): string {
  const zone = settings?.timeZone ? `*${settings.timeZone}*` : `*${defaults.timezone}* (the default)`;
  const link = settings?.careWebUrl ?? defaults.careWebUrl;
  return [
    `Time zone: ${zone}. Change it with \`/care settings timezone Europe/London\`.`,
    link
      ? `Cards link to the care system at \`${link}\`${settings?.careWebUrl ? '' : ' (the default)'}. Change it with \`/care settings web-link <address with {id}>\`, or \`off\`.`
      : 'Cards have no link to the care system. Add one with `/care settings web-link https://your-care-system/actions/{id}`.',
  ].join('\n');
}

/** Run one workspace command for `userId`; resolves to the sentence to answer with (ephemeral). */
export async function runWorkspaceCommand(cmd: WorkspaceCommand, workspaceId: string, userId: string, deps: WorkspaceCommandDeps): Promise<string> {
  const { setup } = deps;
  switch (cmd.kind) {
    case 'usage':
      return cmd.text;
    case 'connect':
      return "Admins connect (or reconnect, or disconnect) the care system from Care Actions' *Home* tab: open the app in the sidebar, then Home.";
    case 'admins': {
      const [installer, settings] = await Promise.all([setup.installer(workspaceId), setup.settings(workspaceId)]);
      const lines = [
        installer ? `• <@${installer}> (first installed Care Actions)` : null,
        ...(settings?.adminUserIds ?? []).filter((id) => id !== installer).map((id) => `• <@${id}> (added with /care admins add)`),
      ].filter(Boolean);
      return [`Care Actions admins here:`, ...lines, '• and every Slack workspace admin and owner.', 'Admins add others with `/care admins add @person`.'].join(
        '\n',
      );
    }
    case 'settings':
      return settingsText(await setup.settings(workspaceId), deps.defaults);
    default:
      break;
  }
  if (!(await deps.adminReason(userId))) return NOT_ADMIN;
  const settings = await setup.settings(workspaceId);
  const admins = settings?.adminUserIds ?? [];
  const save = async (patch: Parameters<WorkspaceSetup['changeSettings']>[2], details: Record<string, unknown>) => {
    await setup.changeSettings(workspaceId, userId, patch, details);
    await deps.onChanged();
  };
  switch (cmd.kind) {
    case 'admins-add': {
      const already = await deps.adminReason(cmd.userId);
      if (already) return `<@${cmd.userId}> is already an admin here (${WHY[already]}).`;
      await save({ adminUserIds: [...admins, cmd.userId] }, { adminAdded: cmd.userId });
      return `<@${cmd.userId}> is now a Care Actions admin here: they can connect the care system, approve links and set up channels.`;
    }
    case 'admins-remove': {
      if (!admins.includes(cmd.userId)) {
        const reason = await deps.adminReason(cmd.userId);
        return reason
          ? `<@${cmd.userId}> is an admin as someone who ${reason === 'installer' ? 'first installed Care Actions' : 'is a Slack workspace admin or owner'}; that cannot be removed here.`
          : `<@${cmd.userId}> is not a Care Actions admin here.`;
      }
      await save({ adminUserIds: admins.filter((id) => id !== cmd.userId) }, { adminRemoved: cmd.userId });
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
  }
  return SETTINGS_USAGE;
}
