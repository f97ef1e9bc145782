import type { Logger } from '../../src/logging/logger.js';
import type { AccountOptions, SandboxCredentials } from './account.js';
import type { KeyConfig, Permissions } from './keys.js';
import type { DemoUser } from './seed-people.js';
import type { SeedKind } from './seed.js';

/** Documented default credentials (the demo and docs print them; tests may pass their own). */
export const DEFAULT_CREDENTIALS = {
  accountId: 'sandbox-account',
  apiKey: 'sandbox-key',
  apiSecret: 'sandbox-secret',
} as const;

export const DEFAULT_RATE_LIMIT = 10;

export interface SandboxOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** Default `demo`. Ignored when `dataFile` exists. */
  seed?: SeedKind;
  /** PRNG seed of the seed data (same value + same startTime = same data). */
  seedValue?: number;
  /** The first account's credentials (defaults: DEFAULT_CREDENTIALS). */
  accountId?: string;
  apiKey?: string;
  apiSecret?: string;
  /** Permissions of the first account's main key; default all. */
  permissions?: Permissions;
  /** More keys on the first account. */
  extraKeys?: KeyConfig[];
  /**
   * Care accounts served at once; default 1. A number N = N accounts; a list =
   * one account per entry, unset fields defaulted. The first account takes the
   * options above; account i (0-based) defaults to the first's credentials
   * suffixed `-<i+1>`, all permissions, seed value `seedValue + i` and its own
   * provider (names, staff, places). Each has its own data, keys, rate limit,
   * nonces, faults and stats; the virtual clock is shared.
   */
  accounts?: number | readonly AccountOptions[];
  /** Requests per second per key (every account); default 10; 0 = unlimited. */
  rateLimit?: number;
  /** Length of the rate-limit window; default 1000 ms (tests may widen it). */
  rateWindowMs?: number;
  /** Permitted timestamp skew in seconds; default 300. */
  skewSeconds?: number;
  /** Serve `GET /v1/users` (beyond the spec); default true. False = 404, to test a client's fallback. */
  usersEndpoint?: boolean;
  /** Serve `/_sandbox/...`; default false (404). */
  controls?: boolean;
  /** Load from / save to this JSON file. */
  dataFile?: string;
  /** Default: silent. Requests are logged at info (method, path, status, ms). */
  logger?: Logger;
  /** Initial virtual clock (created/modified/completed and seed anchor); default now. */
  startTime?: Date;
  /** The clock the virtual clock runs on (epoch ms; default Date.now): a bench's world clock running faster than real time. */
  realNow?: () => number;
}

export type { AccountOptions, SandboxCredentials } from './account.js';

/** One account of a running sandbox: how to sign for it and whose data it holds. */
export interface SandboxAccountInfo extends SandboxCredentials {
  /** The care provider, e.g. `Brightwater Care` (the first account) or `Oakfield Care`. */
  name: string;
  /** Its staff, as `GET /v1/users` lists them. */
  people: readonly DemoUser[];
  /** This account's controls: `<controlsUrl>/accounts/<account Id>` (the plain `controlsUrl` acts on the first account). */
  controlsUrl: string;
}

export interface RunningSandbox {
  /** API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** e.g. `http://127.0.0.1:4010/_sandbox` (404 unless controls are on). */
  controlsUrl: string;
  /** The first account's credentials. */
  credentials: SandboxCredentials;
  /** Every account in order (the first is `credentials`). */
  accounts: readonly SandboxAccountInfo[];
  /** Stop serving and save the data file (if any). */
  stop(): Promise<void>;
}
