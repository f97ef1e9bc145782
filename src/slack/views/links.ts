import type { LinkRow } from '../../services/identity.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, context, section, type Block } from './blocks.js';

export function linksBlocks(rows: LinkRow[]): Block[] {
  if (!rows.length) return [section('No Slack accounts are linked yet.')];
  const blocks: Block[] = [section(`*Linked accounts* (${rows.length})`)];
  for (const r of rows.slice(0, 45)) {
    blocks.push(
      section(
        `<@${r.slackUserId}> → ${r.careUserName ? `*${userText(r.careUserName, 100)}* ` : ''}\`${r.careUserId}\` · ${r.method}${r.createdBy ? ` by <@${r.createdBy}>` : ''}`,
        { block_id: BlockIds.link(r.slackUserId), accessory: button('Unlink', ActionIds.unlink, r.slackUserId, 'danger') },
      ),
    );
  }
  if (rows.length > 45) blocks.push(context(`…and ${rows.length - 45} more.`));
  return blocks;
}

export function linkRequestBlocks(requestId: string, requester: string, candidate?: { id: string; name?: string }): Block[] {
  return [
    section(
      `<@${requester}> asks to link their Slack account to the care system.${candidate ? ` Suggested care user: *${userText(candidate.name ?? candidate.id, 100)}* (\`${candidate.id}\`).` : ' Approve asks you for their care user Id.'}`,
    ),
    actions(BlockIds.linkRequest(requestId), [
      button('Approve', ActionIds.approveLink, requestId, 'primary'),
      button('Reject', ActionIds.rejectLink, requestId, 'danger'),
    ]),
  ];
}
