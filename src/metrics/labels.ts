/**
 * Every label value the metrics carry passes through one of these: a value
 * outside its small, known shape becomes `other`, so no label can ever carry
 * task text, an email, a token or a person's care Id, and no label can grow
 * without bound.
 */
const OTHER = 'other';

const shaped = (re: RegExp) => (value: string | undefined) => (value !== undefined && re.test(value) ? value : OTHER);

/** A care API resource name (`actions`, `notification-groups`), never an Id. */
export const careResource = shaped(/^[a-z][a-z-]{0,39}$/);

/** A Slack Web API method name (`chat.postMessage`, `conversations.history`). */
export const slackMethod = shaped(/^[a-z]+(\.[a-zA-Z]+){1,3}$/);

/** A Slack error code (`channel_not_found`, `ratelimited`) or one of ours (`http_503`, `timeout`). */
export const slackResult = shaped(/^[a-z][a-z0-9_]{0,59}$/);

/** A delivery kind (`completion`, `digest-part`). */
export const deliveryKind = shaped(/^[a-z][a-z-]{0,31}$/);

/** A job name (`changes-poll`), optionally per workspace (`digests:T0123ABC`). */
export const jobName = shaped(/^[a-z][a-z-]{0,31}(:[A-Z0-9]{1,20})?$/);

/** The Web API method of a request URL: its last path segment. */
export function methodOfUrl(url: string | URL): string {
  const path = typeof url === 'string' ? url.split('?')[0]! : url.pathname;
  return slackMethod(path.slice(path.lastIndexOf('/') + 1));
}
