/** What an admin sees of a person's data on request: the erasure's question and answer, the export's DM. Pure. */
import type { ErasedCounts } from '../../store/index.js';
import type { ErasurePreview, PersonExport } from '../../services/evidence/person-data.js';
import { ActionIds } from '../ids.js';
import { userText } from '../text.js';
import { actions, type Block, button, section } from './blocks.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The question `/care forget @person` asks first: what will be deleted and what kept without their name. */
export function forgetQuestion(p: ErasurePreview): { text: string; blocks: Block[] } {
  const name = userText(p.name, 60);
  const d = p.deletes;
  const deleted = [
    plural(d.links, 'link to a care account', 'links to a care account'),
    plural(d.linkRequests, 'link request'),
    plural(d.summarySettings, 'morning summary setting'),
    plural(d.deliveries, 'record of a message sent to them', 'records of messages sent to them'),
    ...(d.notes ? [plural(d.notes, 'note they wrote on an action', 'notes they wrote on actions')] : []),
  ].join(', ');
  const lines = [
    `*Forget <@${p.slackUserId}> (${name})?* This deletes what Care Actions holds about them: ${deleted}.`,
    p.anonymises > 0
      ? `${plural(p.anonymises, 'other row')} (the audit of what they did, digests or routes they set up${p.addedAdmin ? ', the admin list' : ''}) will be kept without their name.`
      : 'Nothing else names them.',
    p.admin
      ? `They are a Care Actions admin (${p.admin === 'installer' ? 'they first installed it' : 'added with /care admins add'}): forgetting them takes that away too, and the admins will be told.`
      : null,
    'It cannot be undone. Slack’s own messages and the care system’s records are not changed.',
  ].filter((line): line is string => line !== null);
  return {
    text: 'Forget a person? Confirm or cancel.',
    blocks: [
      section(lines.join('\n')),
      actions('care_forget', [
        button(`Forget ${name}`, ActionIds.forgetPerson, p.slackUserId, 'danger'),
        button('Cancel', ActionIds.forgetCancel, p.slackUserId),
      ]),
    ],
  };
}

export function forgottenText(slackUserId: string, c: ErasedCounts): string {
  return `Done: Care Actions no longer holds anything naming <@${slackUserId}>. Deleted ${plural(c.links, 'link')}, ${plural(c.linkRequests, 'link request')}, ${plural(c.summarySettings, 'summary setting')}, ${plural(c.remembered, 'remembered choice')}${c.notes ? `, ${plural(c.notes, 'note')}` : ''} and ${plural(c.deliveries, 'message record')}; ${plural(c.anonymised, 'row')} kept without their name. The audit records that you did it, not whom.`;
}

export const FORGET_CANCELLED = 'Cancelled: nothing was deleted.';

/** The export's file name: the person's Slack Id and the date. */
export const exportFileName = (e: PersonExport) => `care-actions-data-${e.slackUserId}-${e.exportedAt.slice(0, 10)}.json`;

/** The DM's lock-screen text: nothing of the data itself. */
export const EXPORT_DM_TEXT = 'The data export you asked for is ready.';
