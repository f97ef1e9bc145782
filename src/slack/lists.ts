import type { ActionGroup, ActionView } from '../services/action-model.js';
import { UserFacingError } from '../services/errors.js';
import type { Actor } from '../services/people/identity.js';
import type { ListWhere } from '../services/actions/list-where.js';
import type { SlackDeps } from './deps.js';
import { encodeListSource, type ListSource } from './ids.js';
import { myGroups, renderActionGroups } from './views/action-list.js';
import { section, type Block } from './views/blocks.js';
import { userText } from './text.js';
import type { DueWindowName } from '../time/due-windows.js';
import { cutId } from './cut.js';

const WINDOW_TITLES = { today: 'Due today', tomorrow: 'Due tomorrow', week: 'Due in the next 7 days', overdue: 'Overdue' } as const;

/** Where else to look when a window is empty. */
function otherWindows(window: DueWindowName): string {
  const others = (['today', 'week', 'overdue'] as const).filter((w) => w !== window).slice(0, 2);
  return `Try ${others.map((w) => `\`/care due ${w}\``).join(' or ')}.`;
}

/** " at Rose House" / " for resident `…`": what a narrowed list shows (a location's name as the care system has it). */
export function whereText(where: ListWhere | undefined): string {
  if (!where) return '';
  return where.type === 'location' ? ` at ${userText(where.name, 80)}` : ` for resident \`${where.id}\``;
}

/**
 * No search result: what the search covers (the care API's filters-q: one
 * piece of text in task text or action numbers) and how to widen it.
 */
export function noMatchText(words: string): string {
  const list = words.split(/\s+/).filter(Boolean);
  const longest = [...list].sort((a, b) => b.length - a.length)[0] ?? words;
  const widen =
    list.length > 1
      ? `the words are searched as one phrase: try one of them (\`/care find ${userText(longest, 60)}\`)`
      : longest.length > 4
        ? `try part of the word (\`/care find ${userText(cutId(longest, 4), 60)}\`) or another word`
        : 'try another word, or the action number';
  return `No actions match “${userText(words, 100)}”. The search looks for exactly these letters in task text and action numbers, open and complete: ${widen}. \`/care mine\` lists yours.`;
}

/**
 * The answer to `/care mine`, `/care due …` or `/care find …` for `actor`, in
 * their zone. `changed` (an action just completed or reopened from this list)
 * is kept on top when the list no longer includes it, so it can be undone.
 */
export async function renderCommandList(
  deps: SlackDeps,
  actor: Actor,
  source: ListSource,
  tz: string,
  changed?: ActionView,
): Promise<{ text: string; blocks: Block[] }> {
  const now = deps.now();
  const render = { now, timezone: tz, showTask: true };
  const suffix = encodeListSource(source);
  const withChanged = (groups: ActionGroup[]): ActionGroup[] =>
    changed && !groups.some((g) => g.actions.some((a) => a.id === changed.id))
      ? [{ label: changed.completed ? ':white_check_mark: Just completed' : ':arrows_counterclockwise: Just reopened', actions: [changed] }, ...groups]
      : groups;
  const opts = (maxBlocks: number, buttons: 'full' | 'complete', emptyText: string) => ({
    maxBlocks,
    buttons,
    emptyText,
    ...(suffix ? { blockIdSuffix: suffix } : {}),
  });

  if (source.kind === 'mine') {
    const link = await deps.identity.requireLink(actor);
    const groups = myGroups(await deps.actions.mine(link.careUserId, now, tz, source.where));
    const at = whereText(source.where);
    const list = renderActionGroups(
      withChanged(groups),
      render,
      opts(
        49,
        'full',
        source.where
          ? `Nothing open for you${at} in the next 7 days. \`/care mine\` alone shows all of yours.`
          : ':tada: Nothing open for you in the next 7 days. Later ones: `/care find &lt;words&gt;`; a new one: `/care new`.',
      ),
    );
    return { text: `Your open actions${at}`, blocks: [section(`*Your open actions${at}*`), ...list.blocks] };
  }
  if (source.kind === 'due') {
    const whoId = source.slackUserId;
    const link = await deps.identity.getLink({ userId: whoId });
    if (!link) {
      throw new UserFacingError(
        whoId === actor.userId
          ? 'Link your care account first: `/care link`.'
          : `<@${whoId}> has not linked a care account, so I cannot tell what is theirs. They can type \`/care link\`, or an admin can link them.`,
        'not-linked',
      );
    }
    const views = await deps.actions.due(link.careUserId, source.window, now, tz, source.where);
    const who = `${whoId === actor.userId ? 'you' : `<@${whoId}>`}${whereText(source.where)}`;
    const title = WINDOW_TITLES[source.window];
    const list = renderActionGroups(
      withChanged([{ label: `${title} for ${who}`, actions: views }]),
      render,
      opts(50, 'full', `Nothing open ${source.window === 'overdue' ? 'is overdue' : title.toLowerCase()} for ${who}. ${otherWindows(source.window)}`),
    );
    return { text: `${title} for ${who}`, blocks: list.blocks };
  }
  const views = await deps.actions.find(source.words);
  const list = renderActionGroups(
    withChanged([
      { label: 'Open', actions: views.filter((v) => !v.completed) },
      { label: 'Complete', actions: views.filter((v) => v.completed) },
    ]),
    render,
    opts(50, 'complete', noMatchText(source.words)),
  );
  return { text: 'Search results', blocks: list.blocks };
}
