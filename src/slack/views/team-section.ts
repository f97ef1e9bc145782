/** The admins' "Team" section of the Home tab: a fixed, small number of blocks whatever the numbers. */
import type { RenderContext } from '../../services/action-model.js';
import type { CarerLoad, ChannelPlan, TeamView } from '../../services/admin/team-view.js';
import { slackDate } from '../../time/slack-date.js';
import { zonedToUtc } from '../../time/zones.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { actionLine } from './action-card.js';
import { button, context, header, section, type Block } from './blocks.js';
import { describeSummarySchedule } from './summary-setting.js';

/** Carers shown with their own "Reassign work" button (one block each); the rest share one section. */
const CARERS_WITH_BUTTONS = 8;

/** Section text stays well inside Slack's 3,000 characters, with room for the "more" line. */
const TEXT_BUDGET = 2_800;

/** Lines under a heading, cut to fit one section, with how many were left out. */
export function linesWithin(heading: string, lines: string[], more: (n: number) => string, budget = TEXT_BUDGET): string {
  let text = heading;
  let shown = 0;
  for (const line of lines) {
    if (text.length + 1 + line.length > budget - 60) break;
    text += `\n${line}`;
    shown++;
  }
  return shown < lines.length ? `${text}\n${more(lines.length - shown)}` : text;
}

const who = (c: CarerLoad) => (c.slackUserId ? `<@${c.slackUserId}>` : c.name ? userText(c.name, 80) : 'someone not linked to Slack');

function carerLine(c: CarerLoad): string {
  const parts = [c.overdue ? `*${c.overdue}* overdue` : '', c.today ? `*${c.today}* due today` : ''].filter(Boolean);
  return `${c.overdue ? ':warning:' : ':calendar:'} ${who(c)}: ${parts.join(' · ')}`;
}

function scopeText(d: NonNullable<ChannelPlan['digest']>): string {
  const f = d.filters;
  const scope = [
    f.urgentOnly ? 'urgent only' : '',
    f.mineOnly ? `<@${d.setUpBy}>’s` : '',
    ...(f.slackUserIds ?? []).map((u) => `<@${u}>`),
    f.locationName ? userText(String(f.locationName), 80) : '',
    f.residentId ? `resident \`${userText(String(f.residentId), 30)}\`` : '',
  ].filter(Boolean);
  return scope.length ? ` (${scope.join(', ')})` : '';
}

function channelLine(p: ChannelPlan): string {
  const parts: string[] = [];
  if (p.digest) {
    parts.push(
      `digest${scopeText(p.digest)} ${describeSummarySchedule(p.digest)}, next ${p.digest.next ? slackDate(p.digest.next, p.digest.timezone) : 'none'}${p.digest.urgentAlerts ? ', and urgent alerts as they happen' : ''}`,
    );
  }
  if (p.routes.length) parts.push(`completions of ${p.routes.map((r) => `_${userText(r, 80)}_`).join(', ')} as they happen`);
  return `<#${p.channelId}>: ${parts.join('; ')}`;
}

/** The Team section: counts per carer, the unassigned queue (first rows with Take it), channels and their next posts. */
export function teamSectionBlocks(view: TeamView, ctx: RenderContext): Block[] {
  const through = slackDate(zonedToUtc(view.through, '12:00', view.timezone), view.timezone, '{date_short_pretty}');
  const blocks: Block[] = [
    header('Team'),
    context(
      `Open actions due by ${through} (${view.timezone}): *${view.overdue}* overdue · *${view.today}* due today · *${view.unassigned.count}* unassigned` +
        (view.partial ? ` · counted from the first ${view.read} (the rest was not read)` : ''),
    ),
  ];
  if (!view.carers.length) blocks.push(section('*By carer*: nobody has anything overdue or due today.'));
  else {
    // The first few carers each with "Reassign work" (sickness, a shift swap); the rest as lines, within the block budget.
    const withButtons = view.carers.slice(0, CARERS_WITH_BUTTONS);
    const rest = view.carers.slice(CARERS_WITH_BUTTONS);
    blocks.push(section('*By carer*, overdue and due today'));
    for (const c of withButtons)
      blocks.push(
        section(carerLine(c), { block_id: BlockIds.teamCarer(c.careUserId), accessory: button('Reassign work', ActionIds.reassignWork, c.careUserId) }),
      );
    if (rest.length)
      blocks.push(
        section(
          linesWithin('*More carers*', rest.map(carerLine), (n) => `…and ${n} more carers.`) +
            '\nTo move anyone’s work: `/care reassign &lt;person&gt; to &lt;person&gt; [overdue|today|all]`',
        ),
      );
  }

  const u = view.unassigned;
  if (u.count === 0) blocks.push(section(`*Unassigned*: none due by ${through}.`));
  else {
    const split = [u.overdue ? `${u.overdue} overdue` : '', u.today ? `${u.today} due today` : ''].filter(Boolean).join(', ');
    blocks.push(section(`*Unassigned*: *${u.count}* due by ${through}${split ? ` (${split})` : ''}. Urgent first, then the longest overdue:`));
    for (const a of u.first) {
      blocks.push(section(actionLine(a, ctx), { block_id: BlockIds.teamUnassigned(a.id), accessory: button('Take it', ActionIds.takeIt, a.id) }));
    }
    if (u.count > u.first.length) blocks.push(context(`…and ${u.count - u.first.length} more unassigned.`));
  }

  blocks.push(
    section(
      view.channels.length
        ? linesWithin('*Channels*', view.channels.map(channelLine), (n) => `…and ${n} more channels: \`/care digest list\`, \`/care routes\`.`)
        : '*Channels*: none gets digests or routed notices yet. `/care digest here` in a channel sets one up.',
    ),
  );
  return blocks;
}
