/**
 * Slack's token rotation, as the fake's OAuth app does it when `tokenRotation`
 * is on (what Slack's docs and SDKs say it does):
 * - The code exchange (`oauth.v2.access`) answers an expiring access token
 *   `xoxe.xoxb-…`, a refresh token `xoxe-1-…` and `expires_in` (seconds;
 *   43200, 12 hours, at Slack). Example answer: slack-ruby/slack-api-ref
 *   methods/oauth/oauth.v2.access.json.
 * - `oauth.v2.access` with `grant_type=refresh_token&refresh_token=…` and the
 *   client credentials answers a new access token, a new refresh token and
 *   `expires_in`, in the same shape (`token_type: "bot"`; @slack/oauth's
 *   InstallProvider.authorize reads `token_type`, `access_token`,
 *   `refresh_token`, `expires_in` from it).
 * - The refresh token used is then revoked (docs.slack.dev/authentication/
 *   using-token-rotation: "The refresh token is then revoked, and a new refresh
 *   token is used to exchange the new expiring access token when it expires"):
 *   using it again, or any refresh token the fake never issued, answers
 *   `invalid_refresh_token` (slack-api-ref: "The given refresh token is
 *   invalid."). A `grant_type` other than `authorization_code` or
 *   `refresh_token` answers `invalid_grant_type`.
 * - A refresh token does not expire by itself: an access token that already
 *   expired is refreshed the same way.
 * - An expired access token answers `{"ok":false,"error":"token_expired"}` on
 *   every method (as bolt-js#1968 and node-slack-sdk#2038 report), on the
 *   fake's clock. The access token a refresh replaced keeps working until its
 *   own expiry (Slack documents nothing else; the app must not rely on it).
 * Every refresh asked for is counted, per workspace (`refreshes`).
 */
import { ApiError } from './api/api-error.js';
import type { Args } from './api/args.js';
import type { TokenRegistry } from './tokens.js';

/** Token rotation of the fake's app: its access tokens expire this many seconds after they are issued. */
export interface TokenRotationConfig {
  expiresInSeconds: number;
}

/** One refresh asked of the fake. */
export interface TokenRefreshRecord {
  /** The workspace whose refresh token it was (null: a token the fake never issued). */
  teamId: string | null;
  /** When (the fake's clock). */
  at: number;
  ok: boolean;
  /** Slack's error when it was refused. */
  error?: string;
}

export interface RefreshGrantDeps {
  tokens: TokenRegistry;
  now(): number;
  rotation: TokenRotationConfig | undefined;
  /** The workspace's install answer fields (app, bot user, scopes, team). */
  installFields(teamId: string): Record<string, unknown> | undefined;
  log: TokenRefreshRecord[];
}

/** The expiring access token and refresh token of a grant, with `expires_in`, as the answer carries them. */
export function rotatingGrant(deps: Pick<RefreshGrantDeps, 'tokens' | 'now'>, teamId: string, rotation: TokenRotationConfig): Record<string, unknown> {
  const { record, refreshToken } = deps.tokens.issueRotating(teamId, deps.now() + rotation.expiresInSeconds * 1000);
  return { access_token: record.token, refresh_token: refreshToken, expires_in: rotation.expiresInSeconds };
}

/** `oauth.v2.access` with `grant_type=refresh_token` (client credentials already checked). */
export function refreshGrant(deps: RefreshGrantDeps, args: Args): Record<string, unknown> {
  const at = deps.now();
  const given = typeof args.refresh_token === 'string' ? args.refresh_token : '';
  const record = given ? deps.tokens.refresh(given) : undefined;
  const fields = record ? deps.installFields(record.teamId) : undefined;
  if (!record || record.spent || !deps.rotation || !fields) {
    deps.log.push({ teamId: record?.teamId ?? null, at, ok: false, error: 'invalid_refresh_token' });
    throw new ApiError('invalid_refresh_token');
  }
  record.spent = true;
  deps.log.push({ teamId: record.teamId, at, ok: true });
  return { ...fields, token_type: 'bot', ...rotatingGrant(deps, record.teamId, deps.rotation) };
}
