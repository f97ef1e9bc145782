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
import type { OutgoingMessage } from '../../services/delivery.js';
import type { HandoverCompleted, HandoverContent } from '../../services/handover-content.js';
import type { HandoverRef } from '../../services/handovers.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds, handoverRefValue } from '../ids.js';
import { actionLine } from './action-card.js';
import { actions, type Block, button, confirmDialog, context, divider, header, section } from './blocks.js';
import { count, lineBlocks } from './digest-text.js';

/** "19:00" in the care home's zone (plain text: headers take no date tokens). */
export function localTime(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

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
  blocks.push(
    divider(),
    actions(BlockIds.handoverAccept, [
      button(
        'Accept handover',
        ActionIds.handoverAccept,
        handoverRefValue(ref),
        'primary',
        confirmDialog(`Accept the ${incoming.name} handover?`, 'Everyone in this channel will see that you accepted it.', 'Accept'),
      ),
    ]),
  );
  const text = `Handover to the ${incoming.name} shift: ${c.completed.total} completed, ${open.total} still open, ${c.created.total} new`;
  return { text, blocks: blocks.slice(0, 50) };
}

/** The post once accepted: the Accept button gives way to who accepted and when. */
export function acceptedBlocks(blocks: Block[], by: string, at: Date, tz: string): Block[] {
  const line = context(`:ballot_box_with_check: Accepted by <@${by}> at ${localTime(at, tz)}`);
  const out = blocks.map((b) => ((b as { block_id?: string }).block_id === BlockIds.handoverAccept ? { ...line, block_id: BlockIds.handoverAccept } : b));
  return out;
}

export function acceptedAnswer(by: string | null, at: Date | null, tz: string): string {
  if (!by) return 'This handover has already been accepted.';
  return `This handover was already accepted by <@${by}>${at ? ` at ${localTime(at, tz)}` : ''}.`;
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
