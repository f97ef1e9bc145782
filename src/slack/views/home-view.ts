import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import type { types } from '@slack/bolt';
import type { ActionGroup, ActionView, RenderContext } from '../../services/action-model.js';
import type { ShiftsNow } from '../../services/shift-work/home-shifts.js';
import type { ListWhere } from '../../services/actions/list-where.js';
import type { SummaryStatus } from '../../services/shift-work/summary-settings.js';
import { actionLine } from './action-card.js';
import { renderActionGroups } from './action-list.js';
import { type AdminHome, adminHomeBlocks } from './admin-home.js';
import { actions, button, context, divider, header, section, staticSelect, type Block } from './blocks.js';
import { lineBlocks } from './digest-text.js';
import { shiftNowLine } from './shifts.js';
import { onCallHomeBlocks } from './on-call.js';
import type { OnCallNow } from '../../services/urgent/on-call.js';
import { summaryHomeBlocks } from './summary-setting.js';

/** A carer's own part of the latest handover, while it is fresh (the first hours of a shift). */
export interface HomeHandover {
  /** The shift that handed over, and the one on now. */
  outgoing: string;
  incoming: string;
  /** Their own open actions from it, most pressing first. */
  actions: ActionView[];
}

/** Lines of your handover listed on the Home tab; the rest are in your list below. */
const HANDOVER_LINES = 5;

function handoverBlocks(h: HomeHandover, ctx: RenderContext): Block[] {
  const n = h.actions.length;
  if (n === 0) return [section(`:clipboard: *Your handover:* nothing of yours open from the ${userText(h.outgoing, 40)} shift.`), divider()];
  const lines = h.actions.slice(0, HANDOVER_LINES).map((a) => `• ${actionLine(a, ctx)}`);
  const rest = n > HANDOVER_LINES ? [context(`…and ${n - HANDOVER_LINES} more in your list below.`)] : [];
  return [
    section(`:clipboard: *Your handover: ${n} of yours open from the last shift* (${userText(h.outgoing, 40)} → ${userText(h.incoming, 40)})`),
    ...lineBlocks('', lines),
    ...rest,
    divider(),
  ];
}

export interface HomeState {
  /** Their own part of the handover, first, during the first hours of a shift. */
  handover?: HomeHandover;
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
  /** The locations to filter by (a menu beside New action), and the one chosen, if any. */
  locations?: { id: string; name: string }[];
  where?: ListWhere;
  /** Who's on now and the open urgent actions (services/urgent/on-call.ts), when it could be read. */
  onCall?: OnCallNow;
}

/** The Home tab's location menu: "All locations", then each location; the chosen one shown. */
function locationMenu(locations: { id: string; name: string }[], where: ListWhere | undefined): types.StaticSelect {
  const menu = staticSelect(ActionIds.homeLocation, 'Filter by location', [
    { text: 'All locations', value: 'all' },
    ...locations.slice(0, 99).map((l) => ({ text: l.name, value: l.id })),
  ]);
  const chosen = where?.type === 'location' ? menu.options?.find((o) => o.value === where.id) : undefined;
  return chosen ? { ...menu, initial_option: chosen } : menu;
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
  if (state.linked && state.handover && !state.error && !state.offset) blocks.push(...handoverBlocks(state.handover, ctx));
  // Rendered first so the person's own list knows how many blocks are left for it.
  const admin = state.admin ? adminHomeBlocks(state.admin, ctx) : [];
  if (!state.linked) {
    blocks.push(section(notLinkedText(state, ctx)));
    return { type: 'home', blocks: [...blocks, ...admin] };
  }
  blocks.push(
    context(`:link: Linked${state.careUserName ? ` as *${userText(state.careUserName, 100)}*` : ''}`),
    actions(BlockIds.homeTop, [
      button('New action', ActionIds.newAction, 'new', 'primary'),
      ...(state.locations?.length ? [locationMenu(state.locations, state.where)] : []),
    ]),
    ...(state.summary ? summaryHomeBlocks(state.summary) : []),
    divider(),
    ...(state.onCall && !state.offset ? [...onCallHomeBlocks(state.onCall, ctx), divider()] : []),
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
    emptyText: state.where?.type === 'location' ? `Nothing open for you at ${userText(state.where.name, 80)}.` : ':tada: Nothing open for you. Well done.',
  });
  blocks.push(...list.blocks.filter((b) => !(b.type === 'context')));
  // Pages, not a growing list: a growing list stops at the 100-block limit and "Show more" would then show nothing new.
  const after = Math.max(0, total - offset - list.shown);
  if (after > 0) blocks.push(actions(BlockIds.homeMore, [button(`Show more (${after} more)`, ActionIds.homeMore, String(offset + list.shown))]));
  if (offset > 0) blocks.push(actions(BlockIds.homeFirst, [button('Back to the top', ActionIds.homeMore, '0')]));
  blocks.push(...admin);
  return { type: 'home', blocks: blocks.slice(0, 100) };
}
