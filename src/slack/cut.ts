/**
 * The one place text is cut for Slack. A cut never splits a grapheme (an emoji, a flag, a letter with its
 * accents: never a UTF-16 surrogate pair, which Slack may refuse with the whole payload) nor, in mrkdwn, an
 * entity the app or Slack's escaping wrote (`<@U123>`, `<!date^…|…>`, `<url|text>`, `&amp;`): such an entity
 * is kept whole or dropped whole. Lengths are counted in UTF-16 code units (what JSON and Slack's limits
 * count at most), so the result is never longer than `max`, its ellipsis included.
 */
export interface CutOptions {
  /** Added when something was cut (default `…`; `''` for ids and values). */
  ellipsis?: string;
  /** mrkdwn (default): keep `<…>` and `&…;` entities whole. Plain text: `<` and `&` are only characters. */
  mrkdwn?: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITY = /^<[^<>\n]*>$/;
const AMP = /^&(?:[a-zA-Z]+|#\d+);/;

/** A lone surrogate (from a cut made elsewhere) becomes U+FFFD, so the payload is always well-formed. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** How far before a cut graphemes are read again (longer clusters, rare, are cut between code points). */
const WINDOW = 128;

/** The longest whole-grapheme prefix of `text` at most `room` code units long. */
function graphemePrefix(text: string, room: number): string {
  if (room <= 0) return '';
  if (room >= text.length) return text;
  let from = Math.max(0, room - WINDOW);
  if (from > 0 && /[\uDC00-\uDFFF]/.test(text[from]!)) from--;
  let end = 0;
  for (const { index, segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text.slice(from, room + 32))) {
    if (index + segment.length > room - from) break;
    end = index + segment.length;
  }
  if (end > 0) return text.slice(0, from + end);
  // One grapheme longer than the window (a pile of combining marks): fall back to whole code points.
  const at = /[\uDC00-\uDFFF]/.test(text[room] ?? '') ? room - 1 : room;
  return text.slice(0, at);
}

/** Where a cut at `at` would fall inside an entity (`<…>` or `&…;`), the entity's start; else `at`. */
function outsideEntities(text: string, at: number): number {
  const lt = text.lastIndexOf('<', at - 1);
  if (lt >= 0) {
    const gt = text.indexOf('>', lt);
    if (gt >= at && ENTITY.test(text.slice(lt, gt + 1))) return lt;
  }
  const amp = text.lastIndexOf('&', at - 1);
  if (amp >= 0 && at - amp < 12) {
    const m = AMP.exec(text.slice(amp, amp + 12));
    if (m && amp + m[0].length > at) return amp;
  }
  return at;
}

export function cut(text: string, max: number, options: CutOptions = {}): string {
  const whole = wellFormed(text);
  if (whole.length <= max) return whole;
  const ellipsis = (options.ellipsis ?? '…').slice(0, Math.max(0, max));
  let kept = graphemePrefix(whole, max - ellipsis.length);
  if (options.mrkdwn !== false) kept = kept.slice(0, outsideEntities(whole, kept.length));
  return `${kept}${ellipsis}`;
}

/** For ids, values and names inside ids: cut without an ellipsis, `<` and `&` taken as characters. */
export const cutId = (text: string, max: number) => cut(text, max, { ellipsis: '', mrkdwn: false });
