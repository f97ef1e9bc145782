/**
 * A handover post (what the outgoing shift completed and who, what is still
 * open from it, what is new, with Accept handover), the same post once
 * accepted, and the managers' notice when nobody accepted it in time. Pure
 * Block Kit; counts and the top few of each part, so any shift fits a message.
 * Its lines carry no buttons: a handover is read and accepted here, the work is
 * done from the Home tab, digests and DMs (so no click re-draws a line with task
 * text the channel's handover rule hides).
 */
import type { ActionView, RenderContext } from '../../services/action-model.js';
import type { OutgoingMessage } from '../../services/notices/delivery.js';
import type { HandoverCompleted, HandoverContent } from '../../services/shift-work/handover-content.js';
import type { AcceptRefusal } from '../../services/shift-work/handover-acceptance.js';
import type { HandoverRef } from '../../services/shift-work/handovers.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds, handoverRefValue, handoverUndoValue } from '../ids.js';
import { actionLine } from './action-card.js';
import { actions, type Block, button, confirmDialog, context, divider, header, section } from './blocks.js';
import { count, lineBlocks } from './digest-text.js';

/** A time as each reader sees it in their own zone (the fallback in the care home's). */
const readerTime = (at: Date, tz: string) => slackDate(at, tz, '{time}');

const more = (total: number, shown: number, what: string) => (total > shown ? [context(`…and ${count(total - shown)} more ${what}`)] : []);

function completedLine(c: HandoverCompleted, ctx: RenderContext): string {
  const by = c.by ? `completed by <@${c.by}>` : 'completed in the care system (web app)';
  return `• ${actionLine(c.action, ctx)}\n   _${by}_`;
}

const newLine = (a: ActionView, ctx: RenderContext) => `• ${actionLine(a, ctx)}`;

export function renderHandover(c: HandoverContent, ctx: RenderContext, ref: HandoverRef): OutgoingMessage {
  const { outgoing, incoming } = c.shifts;
  const title = `Handover: ${outgoing.name} → ${incoming.name} shift`;
  const open = c.open;
  const counts = [
    `*${count(c.completed.total)}* completed`,
    `*${count(open.total)}* still open (${count(open.overdue)} overdue · ${count(open.urgent)} urgent · ${count(open.unassigned)} unassigned · ${count(open.nextShift)} due this shift)`,
    `*${count(c.created.total)}* new`,
  ].join(' · ');
  const blocks: Block[] = [
    header(title),
    context(
      `${incoming.name} from ${slackDate(incoming.startsAt, ctx.timezone, '{time}')} · ${counts}${ctx.showTask ? '' : ' · task text hidden in this channel: `/care show <no>` shows it to you alone'}`,
    ),
    divider(),
  ];
  blocks.push(section(`:white_check_mark: *Completed this ${outgoing.name} shift*`));
  if (c.completed.top.length)
    blocks.push(
      ...lineBlocks(
        '',
        c.completed.top.map((x) => completedLine(x, ctx)),
      ),
      ...more(c.completed.total, c.completed.top.length, 'completed'),
    );
  else blocks.push(context('Nothing was completed.'));
  blocks.push(section(`:hourglass_flowing_sand: *Still open from the ${outgoing.name} shift*`));
  if (open.top.length)
    blocks.push(
      ...lineBlocks(
        '',
        open.top.map((a) => newLine(a, ctx)),
      ),
      ...more(open.total, open.top.length, 'open'),
    );
  else blocks.push(context('Nothing overdue, urgent or due this shift.'));
  blocks.push(section(':sparkles: *New since the last handover*'));
  if (c.created.top.length)
    blocks.push(
      ...lineBlocks(
        '',
        c.created.top.map((a) => newLine(a, ctx)),
      ),
      ...more(c.created.total, c.created.top.length, 'new'),
    );
  else blocks.push(context('No new actions.'));
  blocks.push(divider(), acceptBlock(ref, incoming.name));
  const text = `Handover to the ${incoming.name} shift: ${c.completed.total} completed, ${open.total} still open, ${c.created.total} new`;
  return { text, blocks: blocks.slice(0, 50) };
}

/** The Accept handover button (it asks first), in the block an acceptance later takes the place of. */
export function acceptBlock(ref: HandoverRef, shiftName: string): Block {
  return actions(BlockIds.handoverAccept, [
    button(
      'Accept handover',
      ActionIds.handoverAccept,
      handoverRefValue(ref),
      'primary',
      confirmDialog(`Accept the ${shiftName} handover?`, 'Everyone in this channel will see that you accepted it.', 'Accept'),
    ),
  ]);
}

const replaceBlock = (blocks: Block[], blockId: string, next: Block) =>
  blocks.map((b) => ((b as { block_id?: string }).block_id === blockId ? { ...next, block_id: blockId } : b));

/**
 * The post once accepted: the Accept button gives way to who accepted and when (in each reader's zone), with
 * Undo for the accepter while `undo` is given (the round it undoes); the rest of the post stays as it was.
 */
export function acceptedBlocks(blocks: Block[], by: string, at: Date, tz: string, undo?: { ref: HandoverRef; round: number }): Block[] {
  const text = `:ballot_box_with_check: Accepted by <@${by}> at ${readerTime(at, tz)}`;
  const line: Block = undo ? section(text, { accessory: button('Undo', ActionIds.handoverUndo, handoverUndoValue(undo.ref, undo.round)) }) : context(text);
  return replaceBlock(blocks, BlockIds.handoverAccept, line);
}

/** The post after an Undo of its acceptance: the Accept button is back, and a line says who undid it and when. */
export function undoneBlocks(blocks: Block[], ref: HandoverRef, by: string, at: Date, tz: string): Block[] {
  const line = {
    ...context(`:leftwards_arrow_with_hook: <@${by}> undid their acceptance at ${readerTime(at, tz)}: not accepted yet`),
    block_id: BlockIds.handoverUndone,
  };
  const shiftName = ref.occurrence.slice(ref.occurrence.indexOf('/') + 1);
  const rest = replaceBlock(
    blocks.filter((b) => (b as { block_id?: string }).block_id !== BlockIds.handoverUndone),
    BlockIds.handoverAccept,
    acceptBlock(ref, shiftName),
  );
  const where = rest.findIndex((b) => (b as { block_id?: string }).block_id === BlockIds.handoverAccept);
  return where < 0 ? rest : [...rest.slice(0, where), line, ...rest.slice(where)];
}

/** The accepted line without its Undo (the window has passed): who and when stay. */
export function withoutUndo(blocks: Block[]): Block[] {
  return blocks.map((b) => {
    const block = b as { block_id?: string; type: string; text?: { text: string } };
    return block.block_id === BlockIds.handoverAccept && block.type === 'section' && block.text
      ? { ...context(block.text.text), block_id: BlockIds.handoverAccept }
      : b;
  });
}

export function acceptedAnswer(by: string | null, at: Date | null, tz: string): string {
  if (!by) return 'This handover has already been accepted.';
  return `This handover was already accepted by <@${by}>${at ? ` at ${readerTime(at, tz)}` : ''}.`;
}

/** Why this person may not accept the handover (told to them alone; the post is unchanged). */
export function refusedAnswer(refusal: AcceptRefusal): string {
  if (refusal.reason === 'not-linked')
    return 'Only people with a linked care account can accept a handover: type `/care link` to link yours. The handover is unchanged.';
  const seniors = refusal.seniors.map((id) => `<@${id}>`).join(', ');
  return `Only the seniors named for the ${refusal.shiftName} shift (${seniors}) or an admin can accept this handover. The handover is unchanged.`;
}

export function renderNotAccepted(info: { channelId: string; shiftName: string; startsAt: Date; minutes: number }, ctx: RenderContext): OutgoingMessage {
  const text = `Nobody has accepted the ${info.shiftName} handover in <#${info.channelId}> yet (${info.minutes} minutes after it was posted).`;
  return {
    text,
    blocks: [
      section(`:warning: ${text}`),
      context(`The ${info.shiftName} shift started ${slackDate(info.startsAt, ctx.timezone, '{time}')}. Check the incoming senior has it.`),
    ],
  };
}
