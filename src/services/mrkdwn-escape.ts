/**
 * Text a person or the care system wrote, made safe for Slack's mrkdwn: control characters removed and Slack's
 * three control characters written as entities, so `<!channel>` or `<@U1>` typed by someone stays text.
 * Here (below slack/) so that services composing message text and the Slack layer share one escaper.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function clean(text: string): string {
  return text.replace(CONTROL, '');
}

export function escapeMrkdwn(text: string): string {
  return clean(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
