import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../src/logging/logger.js';
import { AccountDirectory, accountList } from './accounts.js';
import { DEFAULT_SKEW_SECONDS } from './auth.js';
import { VirtualClock } from './clock.js';
import { DEFAULT_CREDENTIALS, DEFAULT_RATE_LIMIT, type RunningSandbox, type SandboxOptions } from './options.js';
import { DataFileWriter, loadDataFile } from './persistence.js';
import { DEFAULT_SEED_VALUE } from './seed.js';
import { createSandboxServer } from './server.js';
import { wholeSeconds } from './wire-time.js';

export { DEFAULT_CREDENTIALS, DEFAULT_RATE_LIMIT } from './options.js';
export type { AccountOptions, RunningSandbox, SandboxAccountInfo, SandboxCredentials, SandboxOptions } from './options.js';
export type { KeyConfig, Permission, Permissions } from './keys.js';
export {
  DEMO_USERS,
  DEMO_EMAIL_DOMAIN,
  DEFAULT_SEED_VALUE,
  DEMO_ACTION_COUNT,
  providerFor,
  type DemoUser,
  type ProviderProfile,
  type SeedKind,
} from './seed.js';

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

  const clock = new VirtualClock(options.startTime, options.realNow);
  const accounts = new AccountDirectory(
    {
      credentials,
      permissions: options.permissions,
      extraKeys: options.extraKeys,
      seed: options.seed ?? 'demo',
      seedValue: options.seedValue ?? DEFAULT_SEED_VALUE,
    },
    accountList(options.accounts),
    {
      clock,
      hex: randomHex,
      rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
      rateWindowMs: options.rateWindowMs ?? 1000,
      skewSeconds: options.skewSeconds ?? DEFAULT_SKEW_SECONDS,
      usersEndpoint: options.usersEndpoint ?? true,
    },
  );

  const saved = options.dataFile ? await loadDataFile(options.dataFile) : undefined;
  const files = accounts.list.map((a) => ({ accountId: a.credentials.accountId, store: a.store }));
  const writer = options.dataFile ? new DataFileWriter(options.dataFile, files, logger) : undefined;
  const anchor = wholeSeconds(options.startTime?.getTime() ?? clock.now());
  if (saved && !options.startTime) clock.offset = saved.clockOffsetMs;
  for (const account of accounts.list) {
    // The first account's data is the file's `data`; the others are found by account Id (else seeded).
    const data = saved && (account.index === 0 ? saved.data : saved.moreAccounts.get(account.credentials.accountId));
    if (data) account.store.load(data);
    else account.reseed(undefined, undefined, saved ? account.store.nowMs() : anchor);
  }

  const server = createSandboxServer({
    accounts,
    controls: options.controls ? { accounts, local: { host, port: () => (server.address() as AddressInfo | null)?.port } } : undefined,
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

  const controlsUrl = `${origin}/_sandbox`;
  return {
    url: `${origin}/v1`,
    controlsUrl,
    credentials,
    accounts: accounts.list.map((a) => ({
      ...a.credentials,
      name: a.provider.name,
      people: a.people,
      controlsUrl: `${controlsUrl}/accounts/${encodeURIComponent(a.credentials.accountId)}`,
    })),
    stop,
  };
}
