import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import type { ActionGroup, RenderContext } from '../../services/action-model.js';
import type { ShiftsNow } from '../../services/home-shifts.js';
import type { SummaryStatus } from '../../services/summary-settings.js';
import { renderActionGroups } from './action-list.js';
import { type AdminHome, adminHomeBlocks } from './admin-home.js';
import { actions, button, context, divider, header, section, type Block } from './blocks.js';
import { shiftNowLine } from './shifts.js';
import { summaryHomeBlocks } from './summary-setting.js';

export interface HomeState {
  linked: boolean;
  careUserName?: string;
  groups: ActionGroup[];
  /** How many actions (across groups) to show on this page. */
  limit: number;
  /** How many actions (across groups, in order) come before this page; default 0. */
  offset?: number;
  error?: string;
  /** The person's morning summary setting (shown with Change / Turn off), when it could be read. */
  summary?: SummaryStatus;
  /** Admins only: the Team and Status sections, shown after the person's own list. */
  admin?: AdminHome;
  /** The care home's shift on now and the next change, when it could be read. */
  shift?: ShiftsNow;
  /** Not linked, with a link request waiting: when it was sent and the admins it was sent to (none: not known). */
  pendingRequest?: { requestedAt: Date; admins: string[] };
}

/** What someone who is not linked reads: how to link, or that their request is with an admin. */
function notLinkedText(state: HomeState, ctx: RenderContext): string {
  const pending = state.pendingRequest;
  if (!pending) return ':grey_question: Your Slack account is not linked to the care system. Type `/care link` in any channel to link it.';
  const asked = pending.admins.length ? ` (asked: ${pending.admins.map((a) => `<@${a}>`).join(', ')})` : '';
  return `:hourglass_flowing_sand: Your request to link your care account, sent ${slackDate(pending.requestedAt, ctx.timezone)}, is waiting for an admin${asked}. You will get a message when it is decided; nothing more to do meanwhile.`;
}

export const HOME_PAGE_SIZE = 20;

/** The App Home: link status, a New button, your actions within Slack's 100-block limit. */
export function homeView(state: HomeState, ctx: RenderContext): { type: 'home'; blocks: Block[] } {
  const blocks: Block[] = [header('Care actions')];
  if (state.shift) blocks.push(context(`:clock3: ${shiftNowLine(state.shift)}`));
  // Rendered first so the person's own list knows how many blocks are left for it.
  const admin = state.admin ? adminHomeBlocks(state.admin, ctx) : [];
  if (!state.linked) {
    blocks.push(section(notLinkedText(state, ctx)));
    return { type: 'home', blocks: [...blocks, ...admin] };
  }
  blocks.push(
    context(`:link: Linked${state.careUserName ? ` as *${userText(state.careUserName, 100)}*` : ''}`),
    actions(BlockIds.homeTop, [button('New action', ActionIds.newAction, 'new', 'primary')]),
    ...(state.summary ? summaryHomeBlocks(state.summary) : []),
    divider(),
  );
  if (state.error) {
    blocks.push(section(`:warning: ${state.error}`));
    return { type: 'home', blocks: [...blocks, ...admin] };
  }
  const offset = Math.max(0, Math.floor(state.offset ?? 0));
  let skip = offset;
  let remaining = state.limit;
  const limited: ActionGroup[] = state.groups.map((g) => {
    const from = Math.min(skip, g.actions.length);
    skip -= from;
    const take = g.actions.slice(from, from + Math.max(0, remaining));
    remaining -= take.length;
    return { label: g.label, actions: take };
  });
  const total = state.groups.reduce((n, g) => n + g.actions.length, 0);
  const list = renderActionGroups(limited, ctx, {
    maxBlocks: 100 - blocks.length - 2 - admin.length,
    buttons: 'full',
    emptyText: ':tada: Nothing open for you. Well done.',
  });
  blocks.push(...list.blocks.filter((b) => !(b.type === 'context')));
  // Pages, not a growing list: a growing list stops at the 100-block limit and "Show more" would then show nothing new.
  const after = Math.max(0, total - offset - list.shown);
  if (after > 0) blocks.push(actions(BlockIds.homeMore, [button(`Show more (${after} more)`, ActionIds.homeMore, String(offset + list.shown))]));
  if (offset > 0) blocks.push(actions(BlockIds.homeFirst, [button('Back to the top', ActionIds.homeMore, '0')]));
  blocks.push(...admin);
  return { type: 'home', blocks: blocks.slice(0, 100) };
}
