import type { ApiDeps } from './api-handler.js';
import { Authenticator } from './auth.js';
import type { VirtualClock } from './clock.js';
import { Faults } from './faults.js';
import { KeyRegistry, type KeyConfig, type Permissions } from './keys.js';
import { NonceCache } from './nonce-cache.js';
import { RateLimiter } from './rate-limit.js';
import { RecordCache } from './record-cache.js';
import { ResponseCache } from './response-cache.js';
import type { DemoUser } from './seed-people.js';
import { buildSeed, type SeedKind } from './seed.js';
import type { ProviderProfile } from './seed-providers.js';
import { Stats } from './stats.js';
import { Store } from './store.js';

export interface SandboxCredentials {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** One account of a sandbox serving several (`SandboxOptions.accounts`); unset fields get the account's defaults. */
export interface AccountOptions {
  accountId?: string;
  apiKey?: string;
  apiSecret?: string;
  /** Permissions of the account's main key; default all. */
  permissions?: Permissions;
  /** More keys on this account (e.g. one lacking a permission). */
  extraKeys?: KeyConfig[];
  /** Default: the sandbox's `seed`. */
  seed?: SeedKind;
  /** Default: the sandbox's seed value plus the account's index (0-based). */
  seedValue?: number;
}

/** Settings every account shares. */
export interface AccountSettings {
  clock: VirtualClock;
  hex: (length: number) => string;
  rateLimit: number;
  rateWindowMs: number;
  skewSeconds: number;
  usersEndpoint: boolean;
}

/**
 * One care account of the sandbox: its own keys, data, caches, rate limiter,
 * nonces, faults and request counts. Only the virtual clock is shared (one
 * world time for every account).
 */
export class SandboxAccount {
  readonly store: Store;
  readonly keys: KeyRegistry;
  readonly faults = new Faults();
  readonly stats = new Stats();
  readonly cache = new RecordCache();
  readonly api: ApiDeps;
  private seedKind: SeedKind;
  private seedValue: number;

  constructor(
    readonly index: number,
    readonly credentials: SandboxCredentials,
    readonly provider: ProviderProfile,
    options: { permissions?: Permissions; extraKeys?: readonly KeyConfig[]; seed: SeedKind; seedValue: number },
    settings: AccountSettings,
  ) {
    this.store = new Store(settings.clock, settings.hex);
    this.keys = new KeyRegistry(credentials.accountId);
    this.keys.set({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, permissions: options.permissions });
    for (const extra of options.extraKeys ?? []) this.keys.set(extra);
    this.seedKind = options.seed;
    this.seedValue = options.seedValue;
    this.api = {
      store: this.store,
      cache: this.cache,
      lists: new ResponseCache(),
      keys: this.keys,
      faults: this.faults,
      stats: this.stats,
      usersEndpoint: settings.usersEndpoint,
      auth: new Authenticator(this.keys, new NonceCache(), settings.skewSeconds),
      limiter: new RateLimiter(settings.rateLimit, settings.rateWindowMs),
    };
  }

  /** The provider's staff (as `GET /v1/users` lists them). */
  get people(): DemoUser[] {
    return this.provider.people.map(({ first_name, last_name, email }) => ({ first_name, last_name, email }));
  }

  /** Replace all data with fresh seed data (kind and value remembered for the next reset), anchored at `anchorMs`. */
  reseed(kind?: SeedKind, value?: number, anchorMs = this.store.nowMs()): void {
    this.seedKind = kind ?? this.seedKind;
    this.seedValue = value ?? this.seedValue;
    this.store.load(buildSeed(this.seedKind, this.seedValue, anchorMs, this.provider));
  }
}
