import { randomBytes } from 'node:crypto';

/** One bot token the fake issued: the workspace it acts in, whether it still works, and when it expires (token rotation). */
export interface TokenRecord {
  token: string;
  teamId: string;
  revoked: boolean;
  /** With token rotation on: when it stops working (ms on the fake's clock); absent, it never expires. */
  expiresAt?: number;
}

/** A refresh token (`xoxe-1-…`): good for one exchange, then revoked (Slack: "The refresh token is then revoked"). */
export interface RefreshRecord {
  refreshToken: string;
  teamId: string;
  /** Exchanged already, or its workspace uninstalled the app: `invalid_refresh_token` from now on. */
  spent: boolean;
}

const digits = () =>
  String(Number.parseInt(randomBytes(5).toString('hex'), 16))
    .padStart(12, '0')
    .slice(0, 12);

/** The bot tokens of every workspace (one app, many installs): a token acts only in its own workspace. */
export class TokenRegistry {
  private readonly byToken = new Map<string, TokenRecord>();
  private readonly byRefresh = new Map<string, RefreshRecord>();

  add(token: string, teamId: string, expiresAt?: number): TokenRecord {
    const record: TokenRecord = { token, teamId, revoked: false, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    this.byToken.set(token, record);
    return record;
  }

  /** A new `xoxb-…` token for a workspace (as an install hands out). */
  issue(teamId: string): TokenRecord {
    return this.add(`xoxb-${digits()}-${digits()}-${randomBytes(12).toString('base64url')}`, teamId);
  }

  /**
   * With token rotation on: an expiring access token (`xoxe.xoxb-1-…`) and its refresh token (`xoxe-1-…`),
   * the shapes of Slack's example answer (slack-api-ref methods/oauth/oauth.v2.access.json).
   */
  issueRotating(teamId: string, expiresAt: number): { record: TokenRecord; refreshToken: string } {
    const record = this.add(`xoxe.xoxb-1-${digits()}-${digits()}-${randomBytes(16).toString('base64url')}`, teamId, expiresAt);
    const refreshToken = `xoxe-1-${randomBytes(24).toString('base64url')}`;
    this.byRefresh.set(refreshToken, { refreshToken, teamId, spent: false });
    return { record, refreshToken };
  }

  get(token: string): TokenRecord | undefined {
    return this.byToken.get(token);
  }

  refresh(refreshToken: string): RefreshRecord | undefined {
    return this.byRefresh.get(refreshToken);
  }

  /** The workspace's newest token that still works, if any. */
  current(teamId: string): string | undefined {
    return [...this.byToken.values()].filter((r) => r.teamId === teamId && !r.revoked).at(-1)?.token;
  }

  revoke(token: string): void {
    const record = this.byToken.get(token);
    if (record) record.revoked = true;
  }

  /** Revokes every token of a workspace, refresh tokens too (the app was uninstalled); returns how many bot tokens were live. */
  revokeTeam(teamId: string): number {
    let n = 0;
    for (const r of this.byToken.values()) {
      if (r.teamId === teamId && !r.revoked) {
        r.revoked = true;
        n += 1;
      }
    }
    for (const r of this.byRefresh.values()) if (r.teamId === teamId) r.spent = true;
    return n;
  }
}
