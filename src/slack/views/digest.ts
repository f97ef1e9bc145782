import { renderActionGroups, type ActionGroup } from './action-list.js';
import { context, header, section, type Block } from './blocks.js';
import type { RenderContext } from './model.js';

export interface DigestContent {
  title: string; // e.g. "Monday 23 November"
  filterText: string; // e.g. "urgent only", "for @Sophie", "" for all
  overdue: number;
  today: number;
  urgent: number;
  groups: ActionGroup[];
}

export interface RenderedDigest {
  /** The channel message. */
  main: { text: string; blocks: Block[] };
  /** Thread replies with the full list when it does not fit one message. */
  thread: { text: string; blocks: Block[] }[];
}

const MESSAGE_BLOCKS = 50;

function counts(c: DigestContent): string {
  return `*${c.overdue}* overdue · *${c.today}* due today · *${c.urgent}* urgent`;
}

/** A digest as one message, or a summary plus the full list in thread replies (never over Block Kit limits). */
export function renderDigest(c: DigestContent, ctx: RenderContext, options: { postWhenEmpty: boolean }): RenderedDigest | null {
  const total = c.groups.reduce((n, g) => n + g.actions.length, 0);
  const head: Block[] = [header(`Care actions · ${c.title}`), context(`${counts(c)}${c.filterText ? ` · ${c.filterText}` : ''}${ctx.showTask ? '' : ' · task text hidden in this channel'}`)];
  const text = `Care actions for ${c.title}: ${c.overdue} overdue, ${c.today} due today, ${c.urgent} urgent`;
  if (total === 0) {
    if (!options.postWhenEmpty) return null;
    return { main: { text: `Nothing due for ${c.title}`, blocks: [...head, section(':sunny: Nothing overdue or due today.')] }, thread: [] };
  }
  const whole = renderActionGroups(c.groups, ctx, { maxBlocks: MESSAGE_BLOCKS - head.length, buttons: 'complete' });
  if (whole.hidden === 0) return { main: { text, blocks: [...head, ...whole.blocks] }, thread: [] };

  // Too long for one message: summary in the channel, the full list in the thread, in parts.
  const thread: RenderedDigest['thread'] = [];
  let remaining = c.groups.map((g) => ({ ...g, actions: [...g.actions] }));
  let part = 1;
  while (remaining.some((g) => g.actions.length)) {
    const chunk = renderActionGroups(remaining, ctx, { maxBlocks: MESSAGE_BLOCKS - 1, buttons: 'complete' });
    const shown = new Set<string>();
    for (const b of chunk.blocks) if ('block_id' in b && typeof b.block_id === 'string' && b.block_id.startsWith('line_')) shown.add(b.block_id.slice(5));
    if (shown.size === 0) break;
    thread.push({ text: `${c.title}: part ${part}`, blocks: [context(`Part ${part}`), ...chunk.blocks.filter((b) => b.type !== 'context')] });
    remaining = remaining.map((g) => ({ ...g, actions: g.actions.filter((a) => !shown.has(a.id)) }));
    part++;
  }
  return { main: { text, blocks: [...head, section(`:thread: ${total} actions: the full list is in the thread.`)] }, thread };
}
