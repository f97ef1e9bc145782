import type { RenderContext } from '../../services/action-model.js';
import type { DigestCarer, DigestContent, RenderedDigest } from '../../services/renderers.js';
import { userText } from '../text.js';
import { sharedRow } from './action-list.js';
import { context, divider, header, section, type Block } from './blocks.js';
import { digestThread, THREAD_ROWS_PER_SECTION } from './digest-thread.js';
import { count, lineBlocks } from './digest-text.js';

/** Carers named one per line in the channel message (the most overdue); the rest share one line. */
const CARER_LINES = 10;

export interface DigestRenderOptions {
  postWhenEmpty: boolean;
  /** Rows listed per thread section before "…and N more" (default THREAD_ROWS_PER_SECTION). */
  rowsPerSection?: number;
}

function who(c: DigestCarer): string {
  if (c.assignee.slackUserId) return `<@${c.assignee.slackUserId}>`;
  return c.assignee.name ? userText(c.assignee.name, 80) : 'someone not linked to Slack';
}

function carerLine(c: DigestCarer, staleDays: number): string {
  const stale = c.stale ? ` (${count(c.stale)} over ${staleDays} days)` : '';
  return `• ${who(c)} · *${count(c.overdue)}* overdue${stale} · *${count(c.today)}* due today`;
}

/** "By carer": one line each, most overdue first; beyond CARER_LINES, the others together. */
function carerBlocks(c: DigestContent): Block[] {
  if (c.carers.length === 0) return [];
  const lines = c.carers.slice(0, CARER_LINES).map((x) => carerLine(x, c.staleDays));
  const others = c.carers.slice(CARER_LINES);
  if (others.length) {
    const sum = (k: 'overdue' | 'today') => others.reduce((n, x) => n + x[k], 0);
    lines.push(`• …and ${count(others.length)} more carers · *${count(sum('overdue'))}* overdue · *${count(sum('today'))}* due today between them`);
  }
  return lineBlocks('*By carer*', lines);
}

/**
 * The channel digest: the date, the counts (overdue, due today, urgent, unassigned), a line per carer,
 * and the ten actions that matter most; the rest goes to the thread, one message per section
 * (see digest-thread.ts). Every message stays inside Block Kit's limits for any number of actions.
 */
export function renderDigest(c: DigestContent, ctx: RenderContext, options: DigestRenderOptions): RenderedDigest | null {
  const counts = `*${count(c.overdue)}* overdue · *${count(c.today)}* due today · *${count(c.urgent)}* urgent · *${count(c.unassigned)}* unassigned`;
  const head: Block[] = [
    header(`Care actions · ${c.title}`),
    context(`${counts}${c.filterText ? ` · ${c.filterText}` : ''}${ctx.showTask ? '' : ' · task text hidden in this channel: *View* shows it to you alone'}`),
  ];
  const text = `Care actions for ${c.title}: ${c.overdue} overdue, ${c.today} due today, ${c.urgent} urgent, ${c.unassigned} unassigned`;
  const thread = digestThread(c, ctx, options.rowsPerSection ?? THREAD_ROWS_PER_SECTION);
  if (c.top.length === 0 && thread.messages.length === 0) {
    if (!options.postWhenEmpty) return null;
    return { main: { text: `Nothing due for ${c.title}`, blocks: [...head, section(':sunny: Nothing overdue or due today.')] }, thread: [] };
  }

  const total = c.top.length + thread.accounted;
  const blocks: Block[] = [...head, ...carerBlocks(c), divider()];
  if (c.top.length) {
    blocks.push(section(thread.accounted ? `*Most pressing* (${c.top.length} of ${count(total)})` : `*All ${count(total)}*`));
    for (const a of c.top) blocks.push(sharedRow(a, ctx));
  }
  if (thread.messages.length) blocks.push(context(`:thread: In the thread, besides the ones above: ${thread.summary}.`));
  return { main: { text, blocks }, thread: thread.messages };
}
