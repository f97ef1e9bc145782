import { ActionIds } from '../ids.js';
import { renderActionGroups, type ActionGroup } from './action-list.js';
import { actions, button, context, divider, header, section, type Block } from './blocks.js';
import type { RenderContext } from './model.js';

export interface HomeState {
  linked: boolean;
  careUserName?: string;
  groups: ActionGroup[];
  /** How many actions (across groups) to show; "More" raises it. */
  limit: number;
  error?: string;
}

export const HOME_PAGE_SIZE = 20;

/** The App Home: link status, a New button, your actions within Slack's 100-block limit. */
export function homeView(state: HomeState, ctx: RenderContext): { type: 'home'; blocks: Block[] } {
  const blocks: Block[] = [header('Care actions')];
  if (!state.linked) {
    blocks.push(section(':grey_question: Your Slack account is not linked to the care system. Type `/care link` in any channel to link it.'));
    return { type: 'home', blocks };
  }
  blocks.push(
    context(`:link: Linked${state.careUserName ? ` as *${state.careUserName}*` : ''}`),
    actions('home_top', [button('New action', ActionIds.newAction, 'new', 'primary')]),
    divider(),
  );
  if (state.error) {
    blocks.push(section(`:warning: ${state.error}`));
    return { type: 'home', blocks };
  }
  let remaining = state.limit;
  const limited: ActionGroup[] = state.groups.map((g) => {
    const take = g.actions.slice(0, Math.max(0, remaining));
    remaining -= take.length;
    return { label: g.label, actions: take };
  });
  const total = state.groups.reduce((n, g) => n + g.actions.length, 0);
  const list = renderActionGroups(limited, ctx, { maxBlocks: 100 - blocks.length - 2, buttons: 'full', emptyText: ':tada: Nothing open for you. Well done.' });
  blocks.push(...list.blocks.filter((b) => !(b.type === 'context')));
  const shown = list.shown;
  if (shown < total) {
    blocks.push(actions('home_more', [button(`Show more (${total - shown} not shown)`, ActionIds.homeMore, String(shown + HOME_PAGE_SIZE))]));
  }
  return { type: 'home', blocks: blocks.slice(0, 100) };
}
