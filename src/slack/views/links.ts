import type { types } from '@slack/bolt';
import type { LinkRow } from '../../services/identity.js';
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
  for (const r of rows.slice(0, 45)) {
    blocks.push(
      section(`<@${r.slackUserId}> → ${careUser(r)} · ${METHODS[r.method] ?? userText(r.method, 40)}${r.createdBy ? ` by <@${r.createdBy}>` : ''}`, {
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
