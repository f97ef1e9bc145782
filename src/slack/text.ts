/**
 * User-supplied text on its way into Block Kit: control characters removed,
 * Slack's three control characters escaped (so `<!channel>` or `<@U1>` typed by
 * a person stays text), and cut to a limit with an ellipsis.
 */
import { clean, escapeMrkdwn } from '../services/mrkdwn-escape.js';
import { cut } from './cut.js';

export { clean, escapeMrkdwn };

/** Cut mrkdwn to `max` with an ellipsis, never inside an emoji (or any grapheme) nor an entity: see cut.ts. */
export function truncate(text: string, max: number): string {
  return cut(text, max);
}

/** Escaped and cut: for user text inside mrkdwn. */
export function userText(text: string, max = 2900): string {
  return truncate(escapeMrkdwn(text), max);
}

/**
 * Slack has no escape for its formatting characters (`*bold*`, `_italic_`,
 * `~strike~`, `` `code` ``). Where one could open a span (text after it, no
 * letter or digit before) or close one (text before it, no letter or digit
 * after), it is shown as a character that looks the same but is no markup
 * (∗ ＿ ∼ ˋ), so the text reads as typed. Elsewhere (`Flat_3`, `2*3`, `5 * 2`)
 * Slack formats nothing and the character is kept. Links are kept whole.
 */
const LOOK_ALIKES: Record<string, string> = { '*': '\u2217', _: '\uFF3F', '~': '\u223C', '`': '\u02CB' };
const WORDISH = /[\p{L}\p{N}]/u;
const LINK = /(https?:\/\/[^\s<>]+)/;

function literalPart(text: string): string {
  return text.replace(/[*_~`]/g, (ch, at: number) => {
    const before = text[at - 1] ?? '';
    const after = text[at + 1] ?? '';
    const opens = after !== '' && !/\s/.test(after) && !WORDISH.test(before);
    const closes = before !== '' && !/\s/.test(before) && !WORDISH.test(after);
    return opens || closes ? (LOOK_ALIKES[ch] ?? ch) : ch;
  });
}

export function literal(text: string): string {
  return text
    .split(LINK)
    .map((part, i) => (i % 2 ? part : literalPart(part)))
    .join('');
}

/** Task text (what a person typed) inside mrkdwn: escaped, shown as typed (no accidental bold), cut. */
export function taskText(text: string, max = 2900): string {
  return truncate(literal(escapeMrkdwn(text)), max);
}

/** For plain_text fields (no markup is interpreted there, only length matters). */
export function plain(text: string, max: number): string {
  return cut(clean(text), max, { mrkdwn: false });
}
