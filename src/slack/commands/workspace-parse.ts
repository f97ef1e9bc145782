/**
 * The `/care` words that set a workspace up (pure): who its admins are, its
 * time zone and care web link, and where the care system is connected. Part
 * of the one `/care` table (parse.ts); each deployment answers them its own way
 * (listeners/commands/workspace.ts).
 *
 *   /care admins                      who can set up this workspace
 *   /care admins add @person          make someone an admin here
 *   /care admins remove @person
 *   /care settings                    this workspace's time zone and web link
 *   /care settings timezone Europe/London
 *   /care settings web-link https://care.example/actions/{id} | off
 *   /care settings retention 30 | 0 | off   days after completion the app's messages are edited down (0 at once, off never)
 *   /care connect                     where to connect the care system
 */
import { cut } from '../cut.js';
export type WorkspaceCommand =
  | { kind: 'admins' }
  | { kind: 'admins-add' | 'admins-remove'; userId: string }
  | { kind: 'settings' }
  | { kind: 'settings-timezone'; timeZone: string }
  | { kind: 'settings-web-link'; template: string | null }
  | { kind: 'settings-retention'; days: number | 'off' }
  | { kind: 'connect' }
  | { kind: 'usage'; text: string };

const MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;

export const ADMINS_USAGE = 'Usage: `/care admins`, `/care admins add @person` or `/care admins remove @person` (pick the person from the @ list).';
export const SETTINGS_USAGE =
  'Usage: `/care settings`, `/care settings timezone Europe/London`, `/care settings web-link https://your-care-system/actions/{id}` (`off` to remove the link) or `/care settings retention 30` (days; `0` at once, `off` to keep messages).';
/** The longest retention an admin may type (ten years; the store refuses more). */
export const MAX_RETENTION_DAYS = 3650;
export const RETENTION_USAGE = `Retention is a whole number of days from 0 to ${MAX_RETENTION_DAYS} after an action is completed (0: at once), or \`off\` to keep messages: e.g. \`/care settings retention 30\`.`;

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
    if (second === 'retention') {
      const word = value.toLowerCase().replace(/\s*days?$/, '');
      if (word === 'off' || word === 'never' || word === 'keep') return { kind: 'settings-retention', days: 'off' };
      if (/^\d{1,4}$/.test(word) && Number(word) <= MAX_RETENTION_DAYS) return { kind: 'settings-retention', days: Number(word) };
      return { kind: 'usage', text: value ? `"${cut(value, 40, { ellipsis: '', mrkdwn: false })}" is not a retention. ${RETENTION_USAGE}` : RETENTION_USAGE };
    }
    return { kind: 'usage', text: SETTINGS_USAGE };
  }
  return null;
}
