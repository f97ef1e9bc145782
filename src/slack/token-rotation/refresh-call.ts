/**
 * Asking Slack for a new bot token: `oauth.v2.access` with
 * `grant_type=refresh_token`, the refresh token and the app's client
 * credentials. Slack revokes the refresh token used, so the call is never
 * repeated blindly (a client without retries of its own: a repeat after a lost
 * answer could only be refused, `invalid_refresh_token`). Neither token is ever
 * put in an error or a log line.
 */
import type { WebClient } from '@slack/web-api';

export interface RefreshedToken {
  token: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** Exchanges a refresh token for a new pair. */
export type RefreshCall = (refreshToken: string) => Promise<RefreshedToken>;

/** Why a refresh failed: Slack's error code (e.g. `invalid_refresh_token`), or what kind of failure it was. */
export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';
  constructor(readonly code: string) {
    super(`Slack did not refresh the bot token: ${code}`);
  }
}

const codeOf = (error: unknown): string => {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  if (typeof data?.error === 'string') return data.error;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'request_failed';
};

/** Refreshes through `client` (a client without a token and without retries). */
export function oauthRefresh(client: WebClient, credentials: { clientId: string; clientSecret: string }): RefreshCall {
  return async (refreshToken) => {
    let answer: Awaited<ReturnType<WebClient['oauth']['v2']['access']>>;
    try {
      answer = await client.oauth.v2.access({
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
    } catch (error) {
      throw new TokenRefreshError(codeOf(error));
    }
    const { access_token: token, refresh_token: next, expires_in: expiresIn } = answer;
    if (!token || !next || typeof expiresIn !== 'number') throw new TokenRefreshError('incomplete_answer');
    return { token, refreshToken: next, expiresInSeconds: expiresIn };
  };
}
