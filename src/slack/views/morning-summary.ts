import type { RenderContext } from '../../services/action-model.js';
import type { OutgoingMessage } from '../../services/notices/delivery.js';
import type { SummaryContent } from '../../services/renderers.js';
import { renderActionGroups } from './action-list.js';
import { context, header, section, type Block } from './blocks.js';
import { describeSummarySchedule } from './summary-setting.js';

const MESSAGE_BLOCKS = 50;

/**
 * A person's morning summary DM: counts, then their overdue, due-today and
 * urgent actions (task text shown: it is their own DM) with Complete buttons;
 * a short "nothing due" when there is nothing, so they can trust it ran.
 */
export function renderMorningSummary(c: SummaryContent, ctx: RenderContext): OutgoingMessage {
  const total = c.groups.reduce((n, g) => n + g.actions.length, 0);
  const footer = context(
    `Your morning summary: ${describeSummarySchedule(c.schedule)} · \`/care summary off\` stops it · \`/care mine\` shows the next 7 days`,
  );
  const head: Block[] = [header(`Your care actions · ${c.title}`)];
  if (total === 0) {
    return {
      text: `Nothing overdue or due today (${c.title})`,
      blocks: [...head, section(':sunny: Nothing overdue or due today, and nothing urgent this week.'), footer],
    };
  }
  head.push(context(`*${c.overdue}* overdue · *${c.today}* due today · *${c.urgent}* urgent`));
  const list = renderActionGroups(c.groups, ctx, { maxBlocks: MESSAGE_BLOCKS - head.length - 1, buttons: 'complete' });
  return {
    text: `Your care actions for ${c.title}: ${c.overdue} overdue, ${c.today} due today, ${c.urgent} urgent`,
    blocks: [...head, ...list.blocks, footer],
  };
}
