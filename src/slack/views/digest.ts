import type { ActionGroup, RenderContext } from '../../services/action-model.js';
import type { DigestContent, RenderedDigest } from '../../services/renderers.js';
import { renderActionGroups } from './action-list.js';
import { context, header, section, type Block } from './blocks.js';

const MESSAGE_BLOCKS = 50;

function counts(c: DigestContent): string {
  return `*${c.overdue}* overdue · *${c.today}* due today · *${c.urgent}* urgent`;
}

/** A digest as one message, or a summary plus the full list in thread replies (never over Block Kit limits). */
export function renderDigest(c: DigestContent, ctx: RenderContext, options: { postWhenEmpty: boolean }): RenderedDigest | null {
  const total = c.groups.reduce((n, g) => n + g.actions.length, 0);
  const head: Block[] = [
    header(`Care actions · ${c.title}`),
    context(`${counts(c)}${c.filterText ? ` · ${c.filterText}` : ''}${ctx.showTask ? '' : ' · task text hidden in this channel'}`),
  ];
  const text = `Care actions for ${c.title}: ${c.overdue} overdue, ${c.today} due today, ${c.urgent} urgent`;
  if (total === 0) {
    if (!options.postWhenEmpty) return null;
    return { main: { text: `Nothing due for ${c.title}`, blocks: [...head, section(':sunny: Nothing overdue or due today.')] }, thread: [] };
  }
  const whole = renderActionGroups(c.groups, ctx, { maxBlocks: MESSAGE_BLOCKS - head.length, buttons: 'complete' });
  if (whole.hidden === 0) return { main: { text, blocks: [...head, ...whole.blocks] }, thread: [] };

  // Too long for one message: summary in the channel, the full list in the thread, in parts.
  // Each part gets a slice of the groups that fits (one block per line, one per group heading), so
  // every action is rendered once, in order, exactly once across the parts.
  const thread: RenderedDigest['thread'] = [];
  const budget = MESSAGE_BLOCKS - 2; // the "Part n" context, and the list's room for a note it will not need
  let gi = 0;
  let ai = 0;
  for (let part = 1; gi < c.groups.length; part++) {
    const slice: ActionGroup[] = [];
    let used = 0;
    while (gi < c.groups.length && used + 2 <= budget) {
      const g = c.groups[gi]!;
      const take = Math.min(g.actions.length - ai, budget - used - 1);
      if (take > 0) {
        slice.push({ label: ai > 0 ? `${g.label} (continued)` : g.label, actions: g.actions.slice(ai, ai + take) });
        used += 1 + take;
        ai += take;
      }
      if (ai >= g.actions.length) {
        gi++;
        ai = 0;
      }
    }
    if (slice.length === 0) break;
    const chunk = renderActionGroups(slice, ctx, { maxBlocks: MESSAGE_BLOCKS - 1, buttons: 'complete' });
    thread.push({ text: `${c.title}: part ${part}`, blocks: [context(`Part ${part}`), ...chunk.blocks.filter((b) => b.type !== 'context')] });
  }
  return { main: { text, blocks: [...head, section(`:thread: ${total} actions: the full list is in the thread.`)] }, thread };
}
