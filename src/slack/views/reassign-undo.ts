/** A reassign result DM's Undo: the offer (until when), its progress, its result, and "expired". Pure. */
import type { types } from '@slack/bolt';
import type { ReassignOutcome, ReassignPlan, RotaPerson, UndoOffer } from '../../services/reassign/reassign.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds } from '../ids.js';
import { escapeMrkdwn } from '../text.js';
import { actions, button, confirmDialog, context, section } from './blocks.js';

/** Every block of the Undo's part of the message has a block_id starting so (it is replaced as a whole). */
export const UNDO_AREA = 'reassign_undo';
const NAMED = 30;
const HOURS = (ms: number) => Math.round(ms / 3_600_000);

const who = (p: RotaPerson) => (p.slackUserId ? `<@${p.slackUserId}>` : escapeMrkdwn(p.name));
const numbered = (a: { id: string; no: string | null }) => (a.no ? `#${a.no}` : `\`${a.id}\``);

/** "Undo moves these 26 back to @aisha … until 11 Mar at 09:00 (24 hours)." and the button. */
export function undoOfferBlocks(plan: ReassignPlan, moved: number, undo: UndoOffer, timezone: string): types.KnownBlock[] {
  const windowMs = undo.windowMs;
  const until = slackDate(new Date(undo.expiresAt), timezone);
  return [
    section(
      `Undo moves these ${moved} back to ${who(plan.from)}, and only these (${who(plan.to)}’s own work stays); once, until ${until} (${HOURS(windowMs)} hours). Any completed or given to someone else since are left as they are.`,
      { block_id: `${UNDO_AREA}_note` },
    ),
    actions(UNDO_AREA, [
      button(
        'Undo',
        ActionIds.reassignUndo,
        undo.runId,
        undefined,
        confirmDialog('Undo reassignment?', `Move the ${moved} actions this reassignment moved back where they were? Any changed since are left.`, 'Undo'),
      ),
    ]),
  ];
}

/** The Undo's part while it runs. */
export function undoProgressBlocks(done: number, total: number): types.KnownBlock[] {
  return [section(`:hourglass_flowing_sand: Undoing: moved back ${done} of ${total}…`, { block_id: `${UNDO_AREA}_note` })];
}

/** "Undone by @amelia: 25 moved back from @ben to @aisha; 1 left as it is: #1042 (completed since the reassignment)." */
export function undoResultText(by: string, from: RotaPerson, to: RotaPerson, outcome: ReassignOutcome): string {
  const head = `:leftwards_arrow_with_hook: Undone by <@${by}>: ${outcome.moved.length} moved back from ${who(to)} to ${who(from)}`;
  if (!outcome.failed.length) return `${head}.`;
  const named = outcome.failed.slice(0, NAMED).map((f) => `${numbered(f)} (${f.why})`);
  const more = outcome.failed.length > NAMED ? `, and ${outcome.failed.length - NAMED} more` : '';
  return `${head}; ${outcome.failed.length} left as ${outcome.failed.length === 1 ? 'it is' : 'they are'}: ${named.join(', ')}${more}.`;
}

export function undoResultBlocks(by: string, from: RotaPerson, to: RotaPerson, outcome: ReassignOutcome): types.KnownBlock[] {
  return [section(undoResultText(by, from, to, outcome), { block_id: `${UNDO_AREA}_note` })];
}

export function undoExpiredBlocks(windowMs: number): types.KnownBlock[] {
  return [context(`Undo expired: it worked for ${HOURS(windowMs)} hours after the reassignment.`)].map((b) => ({ ...b, block_id: `${UNDO_AREA}_note` }));
}

/** The message's blocks with the Undo's part replaced by `area`. */
export function withUndoArea(blocks: types.KnownBlock[], area: types.KnownBlock[]): types.KnownBlock[] {
  const kept = blocks.filter((b) => !(typeof b.block_id === 'string' && b.block_id.startsWith(UNDO_AREA)));
  return [...kept, ...area];
}
