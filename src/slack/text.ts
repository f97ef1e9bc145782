/**
 * User-supplied text on its way into Block Kit: control characters removed,
 * Slack's three control characters escaped (so `<!channel>` or `<@U1>` typed by
 * a person stays text), and cut to a limit with an ellipsis.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function clean(text: string): string {
  return text.replace(CONTROL, '');
}

export function escapeMrkdwn(text: string): string {
  return clean(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).replace(/&[a-z]*$/, '')}…`;
}

/** Escaped and cut: for user text inside mrkdwn. */
export function userText(text: string, max = 2900): string {
  return truncate(escapeMrkdwn(text), max);
}

/** For plain_text fields (no markup is interpreted there, only length matters). */
export function plain(text: string, max: number): string {
  return truncate(clean(text), max);
}
