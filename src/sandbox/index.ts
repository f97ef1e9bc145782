import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../logging/logger.js';
import { Authenticator, DEFAULT_SKEW_SECONDS } from './auth.js';
import { VirtualClock } from './clock.js';
import { Faults } from './faults.js';
import { KeyRegistry } from './keys.js';
import { NonceCache } from './nonce-cache.js';
import { DEFAULT_CREDENTIALS, DEFAULT_RATE_LIMIT, type RunningSandbox, type SandboxOptions } from './options.js';
import { DataFileWriter, loadDataFile } from './persistence.js';
import { RateLimiter } from './rate-limit.js';
import { RecordCache } from './record-cache.js';
import { ResponseCache } from './response-cache.js';
import { buildSeed, DEFAULT_SEED_VALUE, type SeedKind } from './seed.js';
import { createSandboxServer } from './server.js';
import { Stats } from './stats.js';
import { Store } from './store.js';
import { wholeSeconds } from './wire-time.js';

export { DEFAULT_CREDENTIALS, DEFAULT_RATE_LIMIT } from './options.js';
export type { RunningSandbox, SandboxCredentials, SandboxOptions } from './options.js';
export type { KeyConfig, Permission, Permissions } from './keys.js';
export { DEMO_USERS, DEMO_EMAIL_DOMAIN, DEFAULT_SEED_VALUE, DEMO_ACTION_COUNT, type DemoUser, type SeedKind } from './seed.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const randomHex = (n: number) =>
  randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);

/** Start a sandbox care API on loopback; resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The sandbox only listens on loopback (got host ${host}).`);
  const logger = options.logger ?? silentLogger;
  const credentials = {
    accountId: options.accountId ?? DEFAULT_CREDENTIALS.accountId,
    apiKey: options.apiKey ?? DEFAULT_CREDENTIALS.apiKey,
    apiSecret: options.apiSecret ?? DEFAULT_CREDENTIALS.apiSecret,
  };

  const clock = new VirtualClock(options.startTime);
  const store = new Store(clock, randomHex);
  let seedKind: SeedKind = options.seed ?? 'demo';
  let seedValue = options.seedValue ?? DEFAULT_SEED_VALUE;
  const reseed = (kind: SeedKind | undefined, value: number | undefined, anchor = store.nowMs()) => {
    seedKind = kind ?? seedKind;
    seedValue = value ?? seedValue;
    store.load(buildSeed(seedKind, seedValue, anchor));
  };

  const saved = options.dataFile ? await loadDataFile(options.dataFile) : undefined;
  const writer = options.dataFile ? new DataFileWriter(options.dataFile, store, logger) : undefined;
  if (saved) {
    if (!options.startTime) clock.offset = saved.clockOffsetMs;
    store.load(saved.data);
  } else {
    reseed(seedKind, seedValue, wholeSeconds(options.startTime?.getTime() ?? clock.now()));
  }

  const keys = new KeyRegistry(credentials.accountId);
  keys.set({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, permissions: options.permissions });
  for (const extra of options.extraKeys ?? []) keys.set(extra);
  const faults = new Faults();
  const stats = new Stats();
  const cache = new RecordCache();
  const api = {
    store,
    cache,
    lists: new ResponseCache(),
    keys,
    faults,
    stats,
    usersEndpoint: options.usersEndpoint ?? true,
    auth: new Authenticator(keys, new NonceCache(), options.skewSeconds ?? DEFAULT_SKEW_SECONDS),
    limiter: new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, options.rateWindowMs ?? 1000),
  };
  const server = createSandboxServer({
    api,
    controls: options.controls
      ? { store, cache, faults, stats, keys, reseed: (k, v) => reseed(k, v), local: { host, port: () => (server.address() as AddressInfo | null)?.port } }
      : undefined,
    logger,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(force);
      await writer?.close();
    })();
    return stopping;
  };

  return { url: `${origin}/v1`, controlsUrl: `${origin}/_sandbox`, credentials, stop };
}
