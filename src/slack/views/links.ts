import type { types } from '@slack/bolt';
import type { LinkRow } from '../../services/people/identity.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, confirmDialog, context, section, type Block } from './blocks.js';

const METHODS: Record<string, string> = { email: 'email match', admin: 'linked', request: 'request approved' };

/** The care user by name and email; the Id only when the care system would not tell the name. */
function careUser(r: LinkRow): string {
  if (!r.careUserName) return `care user \`${r.careUserId}\` (name unknown: I may not read care users)`;
  return `*${userText(r.careUserName, 100)}*${r.careUserEmail ? ` (${userText(r.careUserEmail, 120)})` : ''}`;
}

/** Asked before Unlink: who loses what, in plain text (a dialog shows no markup). */
export function confirmUnlink(r: LinkRow): types.ConfirmationDialog {
  const who = r.slackName ? `${r.slackName}'s` : 'This person’s';
  const care = r.careUserName ? `${r.careUserName}${r.careUserEmail ? ` (${r.careUserEmail})` : ''}` : r.careUserId;
  return {
    ...confirmDialog(
      `Unlink ${r.slackName ?? 'this person'}?`,
      `${who} Slack account will no longer be linked to care user ${care}. Until it is linked again, they cannot see or change care actions in Slack.`,
      'Unlink',
    ),
    style: 'danger',
  };
}

export function linksBlocks(rows: LinkRow[]): Block[] {
  if (!rows.length) return [section('No Slack accounts are linked yet.')];
  const blocks: Block[] = [section(`*Linked accounts* (${rows.length})`)];
  const shared = new Set(rows.filter((r) => r.alsoLinked?.length).map((r) => r.careUserId));
  if (shared.size) {
    blocks.push(
      section(
        `:warning: *${shared.size === 1 ? '1 care user has' : `${shared.size} care users have`} more than one Slack person* (linked before this was refused). Each of them sees that care user's actions as their own: unlink whoever it is not.`,
      ),
    );
  }
  for (const r of rows.slice(0, 45)) {
    const also = r.alsoLinked?.length ? `\n:warning: Also linked to this care user: ${r.alsoLinked.map((u) => `<@${u}>`).join(', ')}` : '';
    blocks.push(
      section(`<@${r.slackUserId}> → ${careUser(r)} · ${METHODS[r.method] ?? userText(r.method, 40)}${r.createdBy ? ` by <@${r.createdBy}>` : ''}${also}`, {
        block_id: BlockIds.link(r.slackUserId),
        accessory: button('Unlink', ActionIds.unlink, r.slackUserId, 'danger', confirmUnlink(r)),
      }),
    );
  }
  if (rows.length > 45) blocks.push(context(`…and ${rows.length - 45} more.`));
  return blocks;
}

/** The request in an admin's DM: who asks (Slack name and email), with Approve / Reject. */
export function linkRequestBlocks(
  requestId: string,
  requester: { slackUserId: string; name?: string; email?: string | null },
  candidate?: { id: string; name?: string },
): Block[] {
  const who = [requester.name ? `*${userText(requester.name, 100)}*` : '', `<@${requester.slackUserId}>`, requester.email ? userText(requester.email, 120) : '']
    .filter(Boolean)
    .join(' · ');
  return [
    section(
      `${who} asks to link their Slack account to the care system.${
        candidate ? ` They named care user *${userText(candidate.name ?? candidate.id, 100)}*.` : ' Approve lets you pick their care user by name or email.'
      }`,
    ),
    actions(BlockIds.linkRequest(requestId), [
      button('Approve', ActionIds.approveLink, requestId, 'primary'),
      button('Reject', ActionIds.rejectLink, requestId, 'danger'),
    ]),
  ];
}

/** The care account a person was just linked to, as they are told it (name and email) and who linked them. */
export interface LinkedTo {
  careUserId: string;
  careUserName?: string | undefined;
  careUserEmail?: string | null | undefined;
  /** The admin who linked them. */
  by: string;
}

/** The care user by name and email, for a sentence; the Id when the name is unknown. */
export function careAccountText(to: Omit<LinkedTo, 'by'>): string {
  if (!to.careUserName) return `care user \`${to.careUserId}\``;
  return `*${userText(to.careUserName, 100)}*${to.careUserEmail ? ` (${userText(to.careUserEmail, 120)})` : ''}`;
}

/** The DM to a person an admin linked: whose care account it is, and what to do if it is not theirs. */
export function linkedNotice(to: LinkedTo): string {
  return `:link: <@${to.by}> linked your Slack account to the care account of ${careAccountText(to)}. In Slack you now see and change that person's care actions. If that is not you, tell an admin at once (\`/care unlink\` undoes it). Type \`/care mine\` to see your actions.`;
}
