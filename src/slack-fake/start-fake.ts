import { silentLogger, type Logger } from '../logging/logger.js';
import { ackStats, type AckStats } from './ack-stats.js';
import type { ApiContext } from './api/context.js';
import { systemClock, type Clock } from './clock.js';
import { Faults } from './faults.js';
import { DEFAULT_POST_RATE_LIMIT, RateLimiter, type PostRateLimit } from './rate-limiter.js';
import * as read from './readers.js';
import { issueResponseUrl } from './response-urls.js';
import { startFakeServer } from './server.js';
import { FakeSocketMode, type SocketModeOptions } from './socket/socket-mode.js';
import { FakeStore } from './store.js';
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
import { demoWorkspace, type Workspace } from './workspace.js';

export interface SlackFakeOptions {
  /** 0 (default) = any free port on 127.0.0.1. */
  port?: number;
  workspace?: Workspace;
  botToken?: string;
  /** The app-level token (`xapp-…`) apps.connections.open takes. */
  appToken?: string;
  /** Socket Mode timings (how often the fake pings, how long a connection told to go may stay). */
  socketMode?: Pick<SocketModeOptions, 'pingIntervalMs' | 'disconnectGraceMs'>;
  /** chat.postMessage limit per channel (default 1/s, burst 5); false turns it off. */
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
  botToken: string;
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
  /** A fresh trigger_id for a person's interaction (valid 3 s on the fake's clock, once). */
  issueTrigger(user: string, viewId?: string): string;
  /** A response_url served by this fake for an interaction. */
  issueResponseUrl(origin: ResponseUrlOrigin): string;

  messages(channel: string): read.ChannelMessage[];
  thread(channel: string, ts: string): read.ChannelMessage['replies'];
  dms(user: string): read.ChannelMessage[];
  ephemerals(user: string, options?: { channel?: string }): FakeEphemeral[];
  openModal(user: string): read.OpenModal | undefined;
  inlineError(user: string, label: string): string | undefined;
  home(user: string): SlackView | undefined;
  user(ref: string): SlackUser | undefined;
  channel(ref: string): FakeChannel | undefined;
  /** The raw call log (optionally one method), oldest first. */
  calls(method?: string): CallRecord[];
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

export async function startSlackFake(options: SlackFakeOptions = {}): Promise<SlackFake> {
  const clock = options.clock ?? systemClock;
  const store = new FakeStore(options.workspace ?? demoWorkspace(), clock);
  const botToken = options.botToken ?? DEFAULT_TOKEN;
  const faults = new Faults(options.random);
  const rateLimiter = new RateLimiter(options.postRateLimit ?? DEFAULT_POST_RATE_LIMIT, clock);
  const appToken = options.appToken ?? DEFAULT_APP_TOKEN;
  const logger = (options.logger ?? silentLogger).child({ component: 'slack-fake' });
  const socket = new FakeSocketMode({ appId: store.state.bot.appId, clock, logger, ...options.socketMode });
  let baseUrl = '';
  const ctx: ApiContext = {
    store,
    rateLimiter,
    faults,
    logger,
    issueResponseUrl: (origin) => issueResponseUrl(store, baseUrl, origin),
    socketMode: socket,
  };
  const server = await startFakeServer(ctx, { bot: botToken, app: appToken }, options.port ?? 0);
  baseUrl = server.url;

  return {
    url: server.url,
    apiUrl: `${server.url}api/`,
    botToken,
    appToken,
    socket,
    teamId: store.state.team.id,
    botUserId: store.state.bot.userId,
    clock,
    faults,
    store,
    get state() {
      return store.state;
    },
    setPostRateLimit: (limit) => rateLimiter.configure(limit),
    issueTrigger: (user, viewId) => issueTrigger(store, store.requireUser(user).id, viewId),
    issueResponseUrl: ctx.issueResponseUrl,
    messages: (channel) => read.channelMessages(store, channel),
    thread: (channel, ts) => read.channelMessages(store, channel).find((m) => m.ts === ts)?.replies ?? [],
    dms: (user) => read.dmMessages(store, user),
    ephemerals: (user, opts = {}) => read.userEphemerals(store, user, opts.channel),
    openModal: (user) => read.openModalOf(store, user),
    inlineError: (user, label) => read.inlineErrorOf(store, user, label),
    home: (user) => read.homeOf(store, user),
    user: (ref) => store.user(ref),
    channel: (ref) => store.channel(ref),
    calls: (method) => structuredClone(store.state.calls.filter((c) => !method || c.method === method)),
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
    close: () => server.close(),
  };
}
