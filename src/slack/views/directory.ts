import type { LiteratureView, LocationView } from '../../services/people/directory.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { button, context, section, type Block } from './blocks.js';

const MAX = 20;

export function locationsBlocks(items: LocationView[], words: string): Block[] {
  if (!items.length)
    return [
      section(
        words
          ? `No locations match “${userText(words, 100)}”. Try part of the name, or \`/care locations\` alone for all of them.`
          : 'The care system has no locations this app may read.',
      ),
    ];
  const blocks: Block[] = items.slice(0, MAX).map((l) =>
    section(
      [
        `*${userText(l.name ?? 'Unnamed', 200)}*${l.ref ? ` (${userText(l.ref, 50)})` : ''}`,
        [l.town, l.phone]
          .filter(Boolean)
          .map((v) => userText(v!, 100))
          .join(' · '),
      ]
        .filter(Boolean)
        .join('\n'),
    ),
  );
  if (items.length > MAX) blocks.push(context(`Showing ${MAX} of ${items.length}; add words to narrow it down.`));
  return blocks;
}

export function literatureBlocks(items: LiteratureView[], words: string): Block[] {
  if (!items.length)
    return [
      section(
        words
          ? `No literature matches “${userText(words, 100)}”. Try part of the name, or \`/care literature\` alone for all of it.`
          : 'The care system has no literature this app may read.',
      ),
    ];
  const blocks: Block[] = items.slice(0, MAX).map((item) =>
    section(
      `*${userText(item.name ?? 'Untitled', 200)}*${item.ref ? ` (${userText(item.ref, 50)})` : ''}\n${item.locationName ? userText(item.locationName, 100) : 'All locations'}`,
      {
        block_id: BlockIds.literature(item.id),
        accessory: button('Share in channel', ActionIds.shareLiterature, item.id),
      },
    ),
  );
  if (items.length > MAX) blocks.push(context(`Showing ${MAX} of ${items.length}; add words to narrow it down.`));
  return blocks;
}

/** What "Share in channel" posts: the item's name and a link to its file. */
export function sharedLiteratureText(item: LiteratureView, sharedBy: string): string {
  const name = userText(item.name ?? 'Untitled', 200);
  const file = item.file && /^https?:\/\//.test(item.file) ? `<${item.file.replace(/[<>|]/g, '')}|${name}>` : name;
  return `:page_facing_up: ${file} — shared by <@${sharedBy}>`;
}
