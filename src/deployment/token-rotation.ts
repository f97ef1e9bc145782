/**
 * Token rotation for a deployment serving many workspaces: each workspace's
 * bot token is refreshed before it expires, exactly once across instances,
 * and every client of the workspace calls with the new token from then on.
 *
 * How a refresh is done once:
 * - Each instance keeps the token it last read per workspace and uses it
 *   without asking the database until it is due (refresh-timing.ts).
 * - When due, one call per workspace at a time on this instance goes on (the
 *   others wait for it), reads the stored installation (another instance may
 *   have refreshed it: then that token is used), and takes the lease
 *   `slack-token-refresh@<team>` in the store. The holder reads the
 *   row once more, asks Slack (refresh-call.ts), and stores the new pair only
 *   over the refresh token it used (Store.rotateBotToken, compare-and-set).
 * - An instance that does not get the lease waits for the new token to be
 *   stored (moments: one call to Slack) and uses it; if that takes more than
 *   2 s it goes on with the old one while that still works, and once the old
 *   one has expired it waits up to 10 s.
 * - A `token_expired` answer (the app's clock behind Slack's) refreshes the
 *   same way, if the token Slack refused is still the one stored.
 * Slack spends a refresh token once used, so a second refresh from the same
 * token could only be refused: the lease is what keeps two instances from
 * trying. Tokens are never logged: log lines name the workspace only.
 */
import type { Logger } from '../logging/logger.js';
import { type InstallationQuery, type SlackInstallation, type Store, workspaceKey } from '../store/index.js';
import type { BotTokenSource } from '../slack/token-rotation/bot-token.js';
import { TokenRefreshError, type RefreshCall } from '../slack/token-rotation/refresh-call.js';
import { isDue, isExpired, type TokenTimes, tokenTimes } from '../slack/token-rotation/refresh-timing.js';

export interface TokenRotationDeps {
  store: Pick<Store, 'rotateBotToken' | 'acquireLease' | 'releaseLease'>;
  /** The installation serving a workspace (its own, or its org's), as stored now. */
  installation(workspaceId: string): Promise<SlackInstallation | null>;
  refresh: RefreshCall;
  /** This instance's name in leases. */
  holder: string;
  /** The app's clock (ms). */
  now: () => number;
  logger: Logger;
  /** How long the refresh lease is held at most (default 30 s: well past the refresh call's own timeout). */
  leaseMs?: number;
  /**
   * Waiting for another instance's refresh (real time): how often to look (default 100 ms), for how long while the
   * old token still works (default 2 s, then it is used), and once it has expired (default 10 s).
   */
  wait?: { everyMs?: number; whileValidMs?: number; expiredMs?: number };
  /** After a failed refresh, none is tried again for this long unless the token expires (default 10 s, the app's clock). */
  retryAfterMs?: number;
  /** A workspace calls with `token` now (the pacer counts it as that workspace's); `letGo`: a token of it no call uses any more. */
  onToken?: ((workspaceId: string, token: string, letGo: string | undefined) => void) | undefined;
}

export interface TokenRotation {
  /** The bot token of a workspace, fresh at each call. */
  forWorkspace(workspaceId: string): BotTokenSource;
  /** A row just read elsewhere (an install saved, the registry's read): a newer token than the one kept replaces it. */
  observe(workspaceId: string, installation: SlackInstallation | null): void;
  /** The source of a token this instance handed out (Bolt's per-request client calls with it); undefined for any other. */
  sourceOfToken(token: string): BotTokenSource | undefined;
}

interface Kept {
  token: string;
  refreshToken: string | null;
  times: TokenTimes | null;
  /** Which of two reads is newer: the row's last install or refresh. */
  version: number;
  query: InstallationQuery;
  /** No refresh before this (the app's clock) after one failed, unless the token has expired. */
  retryAt: number;
}

const queryOf = (i: SlackInstallation): InstallationQuery => ({ isEnterpriseInstall: false, teamId: i.teamId });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTokenRotation(deps: TokenRotationDeps): TokenRotation {
  const { store, logger, now } = deps;
  const leaseMs = deps.leaseMs ?? 30_000;
  const waitEveryMs = deps.wait?.everyMs ?? 100;
  const waitWhileValidMs = deps.wait?.whileValidMs ?? 2_000;
  const waitExpiredMs = deps.wait?.expiredMs ?? 10_000;
  const retryAfterMs = deps.retryAfterMs ?? 10_000;
  const kept = new Map<string, Kept>();
  /** Tokens handed out, to their workspace: the current one and the one before (calls in flight may still use it). */
  const owners = new Map<string, string>();
  const retired = new Map<string, string>();
  const flights = new Map<string, Promise<string | null>>();
  const sources = new Map<string, BotTokenSource>();

  /** `stored`: read just now by this file, so it is what the store holds (else an older read may come late: the newer one wins). */
  function observe(workspaceId: string, row: SlackInstallation | null, stored = false): void {
    const current = kept.get(workspaceId);
    if (!row?.bot) {
      kept.delete(workspaceId);
      return;
    }
    if (current?.token === row.bot.token) return;
    const version = Math.max(row.updatedAt, row.bot.refreshedAt ?? 0);
    if (current && version < current.version && !stored) return;
    kept.set(workspaceId, { token: row.bot.token, refreshToken: row.bot.refreshToken, times: tokenTimes(row), version, query: queryOf(row), retryAt: 0 });
    owners.set(row.bot.token, workspaceId);
    const older = retired.get(workspaceId);
    if (older) owners.delete(older);
    if (current) retired.set(workspaceId, current.token);
    deps.onToken?.(workspaceId, row.bot.token, older);
  }

  const reread = async (workspaceId: string) => observe(workspaceId, await deps.installation(workspaceId), true);

  /** Whether this token should be refreshed now: it is due, or Slack called it expired (`used`: the token of that call). */
  const needed = (k: Kept, used: string | undefined) => {
    if (!k.refreshToken || !k.times) return false;
    const at = now();
    if (at < k.retryAt && !isExpired(k.times, at)) return false;
    return isDue(k.times, at) || k.token === used;
  };

  /**
   * The lease is someone else's: they are refreshing. Their new token is stored within moments: wait for it, but
   * not long while the old one still works (then call with that); once it has expired, wait longer.
   */
  async function awaitOther(workspaceId: string, k: Kept, used: string | undefined): Promise<string> {
    const old = used ?? k.token;
    const stillValid = () => used === undefined && k.times !== null && !isExpired(k.times, now());
    for (let waited = 0; waited < (stillValid() ? waitWhileValidMs : waitExpiredMs); waited += waitEveryMs) {
      await sleep(waitEveryMs);
      await reread(workspaceId);
      const token = kept.get(workspaceId)?.token;
      if (token && token !== old) return token;
    }
    if (!stillValid()) logger.warn('another instance did not store a refreshed Slack token in time; calling with the old one', { team: workspaceId });
    return kept.get(workspaceId)?.token ?? old;
  }

  async function failed(workspaceId: string, k: Kept, error: unknown): Promise<string> {
    const code = error instanceof TokenRefreshError ? error.code : 'error';
    k.retryAt = now() + retryAfterMs;
    // Slack refusing our refresh token: the workspace must install the app again (nothing this app can do).
    if (code === 'invalid_refresh_token' || code === 'invalid_client_id' || code === 'bad_client_secret')
      logger.error('Slack refused to refresh a workspace’s bot token: it works until it expires; then the workspace must install the app again', {
        team: workspaceId,
        error: code,
      });
    else logger.warn('could not refresh a workspace’s Slack bot token; trying again shortly', { team: workspaceId, error: code });
    return k.token;
  }

  /** Refresh the workspace's token if it (still) needs it, as the one instance holding the lease; resolves to the token to use. */
  async function renew(workspaceId: string, used: string | undefined): Promise<string | null> {
    await reread(workspaceId);
    let k = kept.get(workspaceId);
    if (!k || !needed(k, used)) return k?.token ?? null;
    const lease = workspaceKey('slack-token-refresh', workspaceId);
    if (!(await store.acquireLease(lease, deps.holder, leaseMs))) return awaitOther(workspaceId, k, used);
    try {
      await reread(workspaceId);
      k = kept.get(workspaceId);
      if (!k?.refreshToken || !needed(k, used)) return k?.token ?? null;
      const from = k.refreshToken;
      let next: Awaited<ReturnType<RefreshCall>>;
      try {
        next = await deps.refresh(from);
      } catch (error) {
        return failed(workspaceId, k, error);
      }
      const expiresAt = Math.floor((now() + next.expiresInSeconds * 1000) / 1000);
      const saved = await store.rotateBotToken(k.query, { refreshToken: from }, { token: next.token, refreshToken: next.refreshToken, expiresAt });
      if (saved) {
        observe(workspaceId, saved);
        logger.info('refreshed a workspace’s Slack bot token', { team: workspaceId, expiresInSeconds: next.expiresInSeconds });
      } else {
        // Installed again or uninstalled meanwhile: what is stored now is what counts.
        logger.warn('a refreshed Slack bot token was not stored: the installation changed meanwhile', { team: workspaceId });
        await reread(workspaceId);
      }
      return kept.get(workspaceId)?.token ?? null;
    } finally {
      await store.releaseLease(lease, deps.holder).catch(() => false);
    }
  }

  /** One renewal per workspace at a time on this instance; a call told `token_expired` after a renewal that kept the token tries its own. */
  async function flight(workspaceId: string, used: string | undefined): Promise<string | null> {
    let running = flights.get(workspaceId);
    if (running) {
      const token = await running;
      if (used === undefined || token !== used) return token;
    }
    running = renew(workspaceId, used)
      .catch((error: unknown) => {
        // The database did not answer (the lease, the row): go on with the token kept, if any.
        logger.warn('could not check a workspace’s Slack bot token in the database; calling with the one kept', { team: workspaceId, error });
        return kept.get(workspaceId)?.token ?? null;
      })
      .finally(() => flights.delete(workspaceId));
    flights.set(workspaceId, running);
    return running;
  }

  function forWorkspace(workspaceId: string): BotTokenSource {
    let source = sources.get(workspaceId);
    if (source) return source;
    source = {
      async current() {
        if (!kept.has(workspaceId)) await reread(workspaceId);
        const k = kept.get(workspaceId);
        if (!k) return null;
        return needed(k, undefined) ? flight(workspaceId, undefined) : k.token;
      },
      async expired(used) {
        const k = kept.get(workspaceId);
        if (k && k.token !== used && !(k.times && isExpired(k.times, now()))) return k.token;
        return flight(workspaceId, used);
      },
    };
    sources.set(workspaceId, source);
    return source;
  }

  return {
    forWorkspace,
    observe,
    sourceOfToken(token) {
      const workspaceId = owners.get(token);
      return workspaceId === undefined ? undefined : forWorkspace(workspaceId);
    },
  };
}
