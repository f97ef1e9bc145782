import { randomBytes } from 'node:crypto';

/** One bot token the fake issued: the workspace it acts in, and whether it still works. */
export interface TokenRecord {
  token: string;
  teamId: string;
  revoked: boolean;
}

/** The bot tokens of every workspace (one app, many installs): a token acts only in its own workspace. */
export class TokenRegistry {
  private readonly byToken = new Map<string, TokenRecord>();

  add(token: string, teamId: string): TokenRecord {
    const record = { token, teamId, revoked: false };
    this.byToken.set(token, record);
    return record;
  }

  /** A new `xoxb-…` token for a workspace (as an install hands out). */
  issue(teamId: string): TokenRecord {
    const digits = () =>
      String(Number.parseInt(randomBytes(5).toString('hex'), 16))
        .padStart(12, '0')
        .slice(0, 12);
    return this.add(`xoxb-${digits()}-${digits()}-${randomBytes(12).toString('base64url')}`, teamId);
  }

  get(token: string): TokenRecord | undefined {
    return this.byToken.get(token);
  }

  /** The workspace's newest token that still works, if any. */
  current(teamId: string): string | undefined {
    return [...this.byToken.values()].filter((r) => r.teamId === teamId && !r.revoked).at(-1)?.token;
  }

  revoke(token: string): void {
    const record = this.byToken.get(token);
    if (record) record.revoked = true;
  }

  /** Revokes every token of a workspace (the app was uninstalled); returns how many were live. */
  revokeTeam(teamId: string): number {
    let n = 0;
    for (const r of this.byToken.values()) {
      if (r.teamId === teamId && !r.revoked) {
        r.revoked = true;
        n += 1;
      }
    }
    return n;
  }
}
