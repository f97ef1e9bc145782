/** A whole Slack user id (`U…` or, on Enterprise Grid, `W…`): what the app takes as a person's id, nothing shorter. */
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;

export const isSlackUserId = (value: unknown): value is string => typeof value === 'string' && SLACK_USER_ID.test(value);
