import { truncate } from '../text.js';
import { section, type Block } from './blocks.js';

/** Section text stays under Slack's 3000 characters with room to spare. */
const SECTION_TEXT = 2900;

/** A count as people read it: 4,200. */
export const count = (n: number): string => n.toLocaleString('en-GB');

/**
 * Lines under a bold heading as few section blocks as fit Slack's text limit;
 * a line is never split between blocks (a line over the limit is cut).
 */
export function lineBlocks(heading: string, lines: string[]): Block[] {
  const blocks: Block[] = [];
  let text = heading;
  for (const raw of lines) {
    const line = truncate(raw, SECTION_TEXT - 1);
    if (text.length + 1 + line.length > SECTION_TEXT) {
      blocks.push(section(text));
      text = line;
    } else text = text ? `${text}\n${line}` : line;
  }
  if (text) blocks.push(section(text));
  return blocks;
}
