import { silentLogger, type Logger } from '../../src/logging/logger.js';
import { ackStats, type AckStats } from './ack-stats.js';
import type { ApiContext } from './api/context.js';
import { systemClock, type Clock } from './clock.js';
import { Faults } from './faults.js';
import type { AppDistribution } from './app-distribution.js';
import { DEFAULT_POST_RATE_LIMIT, type PostRateLimit } from './rate-limiter.js';
import type { RateLimitReport } from './rate-limit-log.js';
import { FakeRateLimits } from './rate-limits.js';
import * as read from './readers.js';
import { issueResponseUrl } from './response-urls.js';
import { DEFAULT_OAUTH_APP, FakeOAuth, type OAuthAppConfig } from './oauth.js';
import type { TokenRefreshRecord } from './oauth-refresh.js';
import { startFakeServer } from './server.js';
import { FakeSocketMode, type SocketModeOptions } from './socket/socket-mode.js';
import { FakeStore } from './store.js';
import { TokenRegistry } from './tokens.js';
import { issueTrigger } from './triggers.js';
import type {
  AckRecord,
  CallRecord,
  ConfirmationRecord,
  FakeChange,
  FakeChannel,
  FakeEphemeral,
  FakeState,
  ResponseUrlOrigin,
  SlackUser,
  SlackView,
} from './types.js';
import { visibleText, type Readable } from './visible-text.js';
import { waitFor, type WaitOptions } from './wait-for.js';
import { demoWorkspace, type OrgWideInstall, type Workspace } from './workspace.js';

/** A workspace the fake serves, with its bot token (`null`: the app is not installed there yet; an OAuth install gives it one). */
export type WorkspaceInstall = Workspace & { botToken?: string | null };

export interface SlackFakeOptions {
  /** 0 (default) = any free port on 127.0.0.1. */
  port?: number;
  /** One workspace (default `demoWorkspace()`); `workspaces` for several. */
  workspace?: Workspace;
  /**
   * Several workspaces, each with its own team, people, channels, bot and bot token (one app, many installs).
   * The first is the fake's default workspace (`fake.teamId`, the readers, the driver). A workspace without
   * `botToken` gets a token of its own; the first one gets `botToken` below.
   */
  workspaces?: WorkspaceInstall[];
  /** The first workspace's bot token. */
  botToken?: string;
  /** The app's OAuth credentials and Redirect URLs (oauth.v2.access, /oauth/v2/authorize). */
  oauth?: Partial<OAuthAppConfig>;
  /** The app-level token (`xapp-…`) apps.connections.open takes. */
  appToken?: string;
  /** Socket Mode timings (how often the fake pings, how long a connection told to go may stay). */
  socketMode?: Pick<SocketModeOptions, 'pingIntervalMs' | 'disconnectGraceMs'>;
  /**
   * Today's Slack rate limits (default on): each method's tier per workspace, the posting rule per conversation and,
   * for a workspace whose `appDistribution` is `distributed`, 1 history/replies call a minute. Over a limit the fake
   * answers 429 `ratelimited` with `Retry-After`. `false` lets every call through (tests about something else).
   */
  rateLimits?: boolean;
  /** The posting rule of chat.postMessage / chat.postEphemeral per conversation (default 1/s, burst 3); false: none. */
  postRateLimit?: PostRateLimit | false;
  clock?: Clock;
  logger?: Logger;
  /** Random source for the share of injected 5xx (default Math.random). */
  random?: () => number;
}

export interface SlackFake {
  /** Base URL, e.g. "http://127.0.0.1:PORT/". */
  url: string;
  /** Pass as `clientOptions.slackApiUrl`; ends with "/api/". */
  apiUrl: string;
  /** This workspace's newest bot token that works ('' when it has none: not installed, or uninstalled). */
  readonly botToken: string;
  /** The same fake seen from another workspace: its readers, its store, its bot token (throws for an unknown team). */
  workspace(teamId: string): SlackFake;
  /** The team ids the fake serves, the default one first. */
  teamIds(): string[];
  /**
   * The app's OAuth credentials (one app, many installs); push to `redirectUris` to set the app's Redirect URLs;
   * set `tokenRotation` to turn token rotation on (oauth-refresh.ts).
   */
  oauth: OAuthAppConfig;
  /** The token refreshes asked of the fake (token rotation), oldest first: this workspace's, or with `'all'` every one. */
  tokenRefreshes(which?: 'all'): TokenRefreshRecord[];
  /** Slack's authorize page (`/oauth/v2/authorize`) on this fake. */
  authorizeUrl: string;
  /**
   * The app is uninstalled from a workspace: its bot tokens answer `token_revoked` from now on.
   * (The driver's `uninstall` also tells the app, with `tokens_revoked` and `app_uninstalled`.)
   */
  uninstall(teamId: string): void;
  /** Pass as the app's `appToken` to run it in Socket Mode against this fake. */
  appToken: string;
  /** The Socket Mode endpoint: its connections, envelopes, and `disconnect` / `drop` to test reconnects. */
  socket: FakeSocketMode;
  teamId: string;
  botUserId: string;
  clock: Clock;
  faults: Faults;
  /** The internal store (for the driver and the playground; read it, do not edit it). */
  store: FakeStore;
  /** The live, JSON-serialisable state (read only; `snapshot()` for a copy). */
  readonly state: Readonly<FakeState>;
  setPostRateLimit(limit: PostRateLimit | false): void;
  /** Turns today's rate limits on or off (the buckets start full again; what was counted is kept). */
  setRateLimits(enabled: boolean): void;
  /** What the rate limits did, for every workspace: 429s by method and team, calls repeated inside Retry-After, history reads per minute. */
  rateLimits(): RateLimitReport;
  /** How the app is distributed to this workspace: `internal` (default), `distributed` or `marketplace`. */
  readonly appDistribution: AppDistribution;
  /** Changes that (e.g. an existing install that the distributed-app rule reaches later). */
  setAppDistribution(distribution: AppDistribution): void;
  /** Installing here from now on answers an org-wide Enterprise Grid install of this org (null: a workspace install again). */
  setOrgWideInstall(install: OrgWideInstall | null): void;
  /** A fresh trigger_id for a person's interaction (valid 3 s on the fake's clock, once). */
  issueTrigger(user: string, viewId?: string): string;
  /** A response_url served by this fake for an interaction. */
  issueResponseUrl(origin: ResponseUrlOrigin): string;

  messages(channel: string): read.ChannelMessage[];
  thread(channel: string, ts: string): read.ChannelMessage['replies'];
  dms(user: string): read.ChannelMessage[];
  /**
   * Files uploaded with files.getUploadURLExternal + the upload_url + files.completeUploadExternal, oldest first:
   * their name, title, bytes and text, and where they were shared. `{dm: user}`: those shared into that person's
   * DM with the bot; `{channel}`: into a channel; `{all: true}`: also uploads not completed.
   */
  files(options?: { channel?: string; dm?: string; all?: boolean }): read.UploadedFile[];
  ephemerals(user: string, options?: { channel?: string }): FakeEphemeral[];
  openModal(user: string): read.OpenModal | undefined;
  inlineError(user: string, label: string): string | undefined;
  home(user: string): SlackView | undefined;
  user(ref: string): SlackUser | undefined;
  channel(ref: string): FakeChannel | undefined;
  /** The raw call log (optionally one method), oldest first. */
  calls(method?: string): CallRecord[];
  /** Requests to the fake (any workspace) not answered yet: a call slowed by `faults.latency` counts until it lands. */
  callsInFlight(): number;
  acks(): AckRecord[];
  ackStats(): AckStats;
  /** The confirmation dialogs people were shown (optionally one person's), and what they pressed. */
  confirmations(user?: string): ConfirmationRecord[];
  /** The text a person reads in a message/view/blocks; dates in `viewer`'s time zone. */
  visibleText(item: Readable, options?: { viewer?: string }): string;
  waitFor<T>(condition: () => T | Promise<T>, options?: WaitOptions): Promise<NonNullable<T>>;
  onChange(listener: (change: FakeChange) => void): () => void;
  snapshot(): FakeState;
  close(): Promise<void>;
}

const DEFAULT_TOKEN = 'xoxb-0000000000-fake-slack-bot-token';
const DEFAULT_APP_TOKEN = 'xapp-1-A0000000000-0000000000-fake-slack-app-level-token';

const DEFAULT_OTHER_TOKEN = (teamId: string) => `xoxb-${teamId}-fake-slack-bot-token`;

/** What every workspace of one fake shares. */
interface Shared {
  url: string;
  socket: FakeSocketMode;
  clock: Clock;
  faults: Faults;
  tokens: TokenRegistry;
  oauth: FakeOAuth;
  limits: FakeRateLimits;
  contexts: Map<string, ApiContext>;
  inFlight(): number;
  close(): Promise<void>;
}

export async function startSlackFake(options: SlackFakeOptions = {}): Promise<SlackFake> {
  const clock = options.clock ?? systemClock;
  const installs: WorkspaceInstall[] = options.workspaces ?? [options.workspace ?? demoWorkspace()];
  if (installs.length === 0) throw new Error('Slack fake: no workspace');
  const faults = new Faults(options.random);
  const appToken = options.appToken ?? DEFAULT_APP_TOKEN;
  const logger = (options.logger ?? silentLogger).child({ component: 'slack-fake' });
  const tokens = new TokenRegistry();
  const limits = new FakeRateLimits({ enabled: options.rateLimits ?? true, post: options.postRateLimit ?? DEFAULT_POST_RATE_LIMIT });
  const contexts = new Map<string, ApiContext>();
  let baseUrl = '';
  const socket = new FakeSocketMode({ appId: installs[0]!.bot.appId, clock, logger, ...options.socketMode });
  installs.forEach((install, i) => {
    const { botToken: token, ...workspace } = install;
    if (contexts.has(workspace.team.id)) throw new Error(`Slack fake: two workspaces with team ${workspace.team.id}`);
    const store = new FakeStore(workspace, clock);
    const ctx: ApiContext = {
      store,
      faults,
      logger,
      issueResponseUrl: (origin) => issueResponseUrl(store, baseUrl, origin),
      uploadUrl: (ticket) => `${baseUrl}upload/v1/${ticket}`,
      socketMode: socket,
    };
    contexts.set(workspace.team.id, ctx);
    if (token !== null) tokens.add(token ?? (i === 0 ? (options.botToken ?? DEFAULT_TOKEN) : DEFAULT_OTHER_TOKEN(workspace.team.id)), workspace.team.id);
  });
  const first = contexts.get(installs[0]!.team.id)!;
  const oauth = new FakeOAuth(
    { ...DEFAULT_OAUTH_APP, ...options.oauth, redirectUris: [...(options.oauth?.redirectUris ?? [])] },
    clock,
    tokens,
    (teamId) => contexts.get(teamId)?.store,
    first.store.state.team.id,
  );
  const server = await startFakeServer(
    {
      auth: {
        fallback: first,
        appToken,
        bot: (token) => {
          const record = tokens.get(token);
          const ctx = record && contexts.get(record.teamId);
          return ctx && record ? { ctx, revoked: record.revoked, expired: record.expiresAt !== undefined && clock.now() >= record.expiresAt } : undefined;
        },
        revoke: (token) => tokens.revoke(token),
        exchange: (args, basic) => oauth.exchange(args, basic),
      },
      team: (teamId) => contexts.get(teamId),
      oauth,
      limits,
    },
    options.port ?? 0,
  );
  baseUrl = server.url;
  const shared: Shared = {
    url: server.url,
    socket,
    clock,
    faults,
    tokens,
    oauth,
    limits,
    contexts,
    inFlight: () => server.inFlight(),
    close: () => server.close(),
  };
  const views = new Map<string, SlackFake>();
  const view = (teamId: string): SlackFake => {
    const ctx = contexts.get(teamId);
    if (!ctx) throw new Error(`Slack fake: no workspace ${teamId}`);
    let v = views.get(teamId);
    if (!v) {
      v = workspaceView(ctx, shared, appToken, view);
      views.set(teamId, v);
    }
    return v;
  };
  return view(first.store.state.team.id);
}

/** The fake as one workspace sees it: its store and readers; the server, socket, clock and faults are shared. */
function workspaceView(ctx: ApiContext, shared: Shared, appToken: string, view: (teamId: string) => SlackFake): SlackFake {
  const { store } = ctx;
  const { clock } = shared;
  const teamId = store.state.team.id;
  return {
    url: shared.url,
    apiUrl: `${shared.url}api/`,
    get botToken() {
      return shared.tokens.current(teamId) ?? '';
    },
    workspace: view,
    teamIds: () => [...shared.contexts.keys()],
    oauth: shared.oauth.app,
    tokenRefreshes: (which) => structuredClone(shared.oauth.refreshes.filter((r) => which === 'all' || r.teamId === teamId)),
    authorizeUrl: `${shared.url}oauth/v2/authorize`,
    uninstall: (team) => {
      view(team);
      shared.tokens.revokeTeam(team);
    },
    appToken,
    socket: shared.socket,
    teamId,
    botUserId: store.state.bot.userId,
    clock,
    faults: shared.faults,
    store,
    get state() {
      return store.state;
    },
    setPostRateLimit: (limit) => shared.limits.setPostRateLimit(limit),
    setRateLimits: (enabled) => shared.limits.setEnabled(enabled),
    rateLimits: () => shared.limits.report(),
    get appDistribution() {
      return store.appDistribution;
    },
    setAppDistribution: (distribution) => {
      store.appDistribution = distribution;
    },
    setOrgWideInstall: (install) => {
      store.orgWideInstall = install ?? undefined;
    },
    issueTrigger: (user, viewId) => issueTrigger(store, store.requireUser(user).id, viewId),
    issueResponseUrl: ctx.issueResponseUrl,
    messages: (channel) => read.channelMessages(store, channel),
    thread: (channel, ts) => read.channelMessages(store, channel).find((m) => m.ts === ts)?.replies ?? [],
    dms: (user) => read.dmMessages(store, user),
    files: (opts) => read.uploadedFiles(store, opts),
    ephemerals: (user, opts = {}) => read.userEphemerals(store, user, opts.channel),
    openModal: (user) => read.openModalOf(store, user),
    inlineError: (user, label) => read.inlineErrorOf(store, user, label),
    home: (user) => read.homeOf(store, user),
    user: (ref) => store.user(ref),
    channel: (ref) => store.channel(ref),
    calls: (method) => structuredClone(store.state.calls.filter((c) => !method || c.method === method)),
    callsInFlight: () => shared.inFlight(),
    acks: () => structuredClone(store.state.acks),
    ackStats: () => ackStats(store.state.acks),
    confirmations: (user) => {
      const id = user ? store.requireUser(user).id : undefined;
      return structuredClone(store.state.confirmations.filter((c) => !id || c.user === id));
    },
    visibleText: (item, opts = {}) => visibleText(item, read.renderContextFor(store, opts.viewer)),
    waitFor: (condition, opts) => waitFor(store.events, condition, opts),
    onChange: (listener) => {
      store.events.on('change', listener);
      return () => store.events.off('change', listener);
    },
    snapshot: () => store.snapshot(),
    close: () => shared.close(),
  };
}
