import type { RenderContext } from '../../services/action-model.js';
import type { OutgoingMessage } from '../../services/notices/delivery.js';
import type { DigestContent, DigestSection, StaleSummary } from '../../services/renderers.js';
import { userText } from '../text.js';
import { sharedRow } from './action-list.js';
import { context, section, type Block } from './blocks.js';
import { count, lineBlocks } from './digest-text.js';

const MESSAGE_BLOCKS = 50;

/**
 * Rows listed per thread section; beyond it, one "…and N more" line. A thread message holds 49 rows,
 * so a section takes at most two messages and a thread at most about nine, for any number of actions.
 */
export const THREAD_ROWS_PER_SECTION = 90;

const NAMES: Record<DigestSection['kind'], string> = {
  overdue: 'Overdue',
  today: 'Due today',
  urgent: 'Urgent, due this week',
  unassigned: 'Unassigned',
};

/** Where to read what the thread does not list. */
const MORE: Record<DigestSection['kind'], string> = {
  overdue: 'each carer’s own list: `/care due overdue @name`',
  today: 'each carer’s own list: `/care due today @name`',
  urgent: 'each carer’s own list: `/care due week @name`',
  unassigned: 'the care system lists them all',
};

/** A summary row: linked carers get the command that lists theirs; the care system lists the others'. */
function staleLine(s: StaleSummary, days: number): string {
  const n = `*${count(s.count)}* older than ${days} days${s.urgent ? ` (${count(s.urgent)} urgent)` : ''}`;
  if (!s.assignee) return `• ${n}, unassigned: the care system lists them`;
  if (s.assignee.slackUserId) return `• <@${s.assignee.slackUserId}>: ${n}: /care due overdue <@${s.assignee.slackUserId}>`;
  return `• ${s.assignee.name ? userText(s.assignee.name, 80) : 'Someone not linked to Slack'}: ${n}`;
}

const sectionTotal = (s: DigestSection) => s.actions.length + s.stale.reduce((n, x) => n + x.count, 0);

/** One section as thread messages: its stale summaries, its rows, a "more" line; continued in the next message when full. */
function sectionMessages(title: string, s: DigestSection, ctx: RenderContext, cap: number, staleDays: number): OutgoingMessage[] {
  // The oldest first: those past `staleDays` as one line per carer, then the rows, then what did not fit.
  const stale = s.stale.map((x) => staleLine(x, staleDays));
  const items: Block[] = stale.length
    ? lineBlocks(
        s.kind === 'unassigned'
          ? `*Older than ${staleDays} days*`
          : `*Older than ${staleDays} days*, one line per carer (the care system lists those of people not in Slack)`,
        stale,
      )
    : [];
  items.push(...s.actions.slice(0, cap).map((a) => sharedRow(a, ctx)));
  const more = s.actions.length - Math.min(cap, s.actions.length);
  if (more > 0) items.push(context(`…and ${count(more)} more not listed here: ${MORE[s.kind]}`));
  if (items.length === 0) return [];

  const heading = (continued: boolean) => section(continued ? `*${s.label}* (continued)` : `*${s.label}* (${count(sectionTotal(s))})`);
  const pages: Block[][] = [[heading(false)]];
  for (const item of items) {
    if (pages.at(-1)!.length >= MESSAGE_BLOCKS) pages.push([heading(true)]);
    pages.at(-1)!.push(item);
  }
  return pages.map((blocks, i) => ({ text: `${title}: ${NAMES[s.kind]}${i ? ' (continued)' : ''}`, blocks }));
}

export interface DigestThread {
  messages: OutgoingMessage[];
  /** Actions the thread accounts for: listed, counted in a "more" line, or in a summary row. */
  accounted: number;
  /** What the thread holds, for the channel message ("*Overdue* (104) · *Unassigned* (12)"). */
  summary: string;
}

/** The thread of a digest: one message per non-empty section (two when it is long), in the order of the content. */
export function digestThread(c: DigestContent, ctx: RenderContext, cap: number): DigestThread {
  const present = c.sections.filter((s) => sectionTotal(s) > 0);
  const stale = present.some((s) => s.stale.length > 0);
  return {
    messages: present.flatMap((s) => sectionMessages(c.title, s, ctx, cap, c.staleDays)),
    accounted: present.reduce((n, s) => n + sectionTotal(s), 0),
    summary:
      present.map((s) => `*${NAMES[s.kind]}* (${count(sectionTotal(s))})`).join(' · ') +
      (stale ? ` · those older than ${c.staleDays} days as one line per carer` : ''),
  };
}
