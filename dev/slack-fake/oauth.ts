import { randomBytes } from 'node:crypto';
import { ApiError } from './api/api-error.js';
import type { Args } from './api/args.js';
import type { Clock } from './clock.js';
import { refreshGrant, rotatingGrant, type TokenRefreshRecord, type TokenRotationConfig } from './oauth-refresh.js';
import type { FakeStore } from './store.js';
import type { TokenRegistry } from './tokens.js';

/** The one Slack app every workspace installs: its OAuth credentials and allowed redirect URLs. */
export interface OAuthAppConfig {
  clientId: string;
  clientSecret: string;
  /** The app's configured Redirect URLs; empty = any (the fake is lenient when a test does not say). */
  redirectUris: string[];
  /** Token rotation on (oauth-refresh.ts): bot tokens expire this long after they are issued and are refreshed with a refresh token. */
  tokenRotation?: TokenRotationConfig | undefined;
}

export const DEFAULT_OAUTH_APP: OAuthAppConfig = {
  clientId: '1000000000.2000000000',
  clientSecret: 'fake-slack-client-secret',
  redirectUris: [],
};

/** Slack's authorization codes are good for 10 minutes, and once. */
export const OAUTH_CODE_LIFETIME_MS = 10 * 60_000;

interface Grant {
  code: string;
  teamId: string;
  userId: string;
  scopes: string[];
  /** The redirect_uri given at authorize (the exchange must repeat it). */
  redirectUri?: string;
  issuedAt: number;
  used: boolean;
}

/** What the fake's authorize page answers: a redirect back to the app, or an error page. */
export interface AuthorizeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Slack's OAuth v2 for one app installed in many workspaces: the authorize
 * step (a person clicks Allow, or Cancel) hands the app's redirect URL a
 * one-time `code`; `oauth.v2.access` exchanges it for a new bot token of that workspace.
 */
export class FakeOAuth {
  private readonly grants = new Map<string, Grant>();
  /** Every refresh asked for (token rotation), oldest first. */
  readonly refreshes: TokenRefreshRecord[] = [];
  /** The scopes each workspace granted at its last install (a refresh keeps them). */
  private readonly scopes = new Map<string, string[]>();

  constructor(
    readonly app: OAuthAppConfig,
    private readonly clock: Clock,
    private readonly tokens: TokenRegistry,
    private readonly storeFor: (teamId: string) => FakeStore | undefined,
    private readonly defaultTeam: string,
  ) {}

  /**
   * `GET /oauth/v2/authorize?client_id&scope&redirect_uri&state&team&user[&deny=1]`:
   * `team` and `user` say who clicks Allow (fake-only parameters; default the first workspace and its first person).
   */
  authorize(query: URLSearchParams): AuthorizeAnswer {
    const page = (status: number, text: string): AuthorizeAnswer => ({ status, headers: {}, body: text });
    if (query.get('client_id') !== this.app.clientId) return page(400, 'invalid_client_id');
    const asked = query.get('redirect_uri') ?? undefined;
    if (asked && this.app.redirectUris.length > 0 && !this.app.redirectUris.includes(asked)) return page(400, 'bad_redirect_uri');
    const redirect = asked ?? this.app.redirectUris[0];
    if (!redirect) return page(400, 'bad_redirect_uri');
    const store = this.storeFor(query.get('team') ?? this.defaultTeam);
    if (!store) return page(400, 'team_not_found');
    const userRef = query.get('user');
    const user = userRef ? store.user(userRef) : store.state.users.find((u) => !u.is_bot);
    if (!user || user.is_bot) return page(400, 'user_not_found');
    const state = query.get('state');
    const back = new URL(redirect);
    if (query.get('deny') === '1' || query.get('deny') === 'true') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const now = this.clock.now();
      const code = `${store.state.team.id.replace(/\D/g, '') || '0'}${Math.floor(now / 1000)}.${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(32).toString('hex')}`;
      const scopes = (query.get('scope') ?? '').split(',').filter(Boolean);
      this.grants.set(code, {
        code,
        teamId: store.state.team.id,
        userId: user.id,
        scopes,
        ...(asked ? { redirectUri: asked } : {}),
        issuedAt: now,
        used: false,
      });
      back.searchParams.set('code', code);
    }
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, headers: { location: back.toString() }, body: '' };
  }

  /**
   * `oauth.v2.access`: client credentials (HTTP Basic or form fields), then `code` and `redirect_uri`, or
   * (token rotation) `grant_type=refresh_token` and `refresh_token`.
   */
  exchange(args: Args, basic?: { user: string; password: string }): Record<string, unknown> {
    const clientId = basic?.user ?? (typeof args.client_id === 'string' ? args.client_id : undefined);
    const secret = basic?.password ?? (typeof args.client_secret === 'string' ? args.client_secret : undefined);
    if (clientId !== this.app.clientId) throw new ApiError('invalid_client_id');
    if (secret !== this.app.clientSecret) throw new ApiError('bad_client_secret');
    const grantType = typeof args.grant_type === 'string' && args.grant_type !== '' ? args.grant_type : 'authorization_code';
    if (grantType === 'refresh_token') {
      return refreshGrant(
        {
          tokens: this.tokens,
          now: () => this.clock.now(),
          rotation: this.app.tokenRotation,
          installFields: (teamId) => this.installFields(teamId),
          log: this.refreshes,
        },
        args,
      );
    }
    if (grantType !== 'authorization_code') throw new ApiError('invalid_grant_type');
    const grant = typeof args.code === 'string' ? this.grants.get(args.code) : undefined;
    if (!grant || grant.used || this.clock.now() - grant.issuedAt > OAUTH_CODE_LIFETIME_MS) throw new ApiError('invalid_code');
    const redirect = typeof args.redirect_uri === 'string' && args.redirect_uri !== '' ? args.redirect_uri : undefined;
    if (grant.redirectUri !== undefined && redirect !== grant.redirectUri) throw new ApiError('bad_redirect_uri');
    if (grant.redirectUri === undefined && redirect !== undefined && this.app.redirectUris.length > 0 && !this.app.redirectUris.includes(redirect))
      throw new ApiError('bad_redirect_uri');
    const store = this.storeFor(grant.teamId);
    if (!store) throw new ApiError('invalid_code');
    grant.used = true;
    const teamId = store.state.team.id;
    const rotation = this.app.tokenRotation;
    const tokens = rotation
      ? rotatingGrant({ tokens: this.tokens, now: () => this.clock.now() }, teamId, rotation)
      : { access_token: this.tokens.issue(teamId).token };
    const scope = grant.scopes.length > 0 ? grant.scopes : store.state.bot.scopes;
    this.scopes.set(teamId, scope);
    return { ...this.installFields(teamId), authed_user: { id: grant.userId }, token_type: 'bot', ...tokens };
  }

  /** What an install's answer says of the workspace and the app's bot there. */
  private installFields(teamId: string): Record<string, unknown> | undefined {
    const store = this.storeFor(teamId);
    if (!store) return undefined;
    const { team, bot } = store.state;
    const org = store.orgWideInstall;
    return {
      app_id: bot.appId,
      scope: (this.scopes.get(teamId) ?? bot.scopes).join(','),
      bot_user_id: bot.userId,
      // An org-wide install names the org and no team (Slack: `team` is null when is_enterprise_install is true).
      team: org ? null : { id: team.id, name: team.name },
      enterprise: org ? { id: org.enterprise.id, name: org.enterprise.name } : null,
      is_enterprise_install: org !== undefined,
    };
  }
}
