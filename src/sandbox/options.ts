import type { Logger } from '../logging/logger.js';
import type { KeyConfig, Permissions } from './keys.js';
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
  accountId?: string;
  apiKey?: string;
  apiSecret?: string;
  /** Permissions of the main key; default all. */
  permissions?: Permissions;
  /** More keys on the same account. */
  extraKeys?: KeyConfig[];
  /** Requests per second per key; default 10; 0 = unlimited. */
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
}

export interface SandboxCredentials {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

export interface RunningSandbox {
  /** API base including `/v1`, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** e.g. `http://127.0.0.1:4010/_sandbox` (404 unless controls are on). */
  controlsUrl: string;
  credentials: SandboxCredentials;
  /** Stop serving and save the data file (if any). */
  stop(): Promise<void>;
}
