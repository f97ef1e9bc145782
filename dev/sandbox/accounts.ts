import type { IncomingHttpHeaders } from 'node:http';
import { type AccountOptions, type AccountSettings, SandboxAccount, type SandboxCredentials } from './account.js';
import type { KeyConfig, Permissions } from './keys.js';
import type { SeedKind } from './seed.js';
import { providerFor } from './seed-providers.js';

/** What the first account is made of (the sandbox's single-account options). */
export interface FirstAccount {
  credentials: SandboxCredentials;
  permissions?: Permissions;
  extraKeys?: readonly KeyConfig[];
  seed: SeedKind;
  seedValue: number;
}

/**
 * Credentials of account `index` (0-based) when not given: the first
 * account's, suffixed with the account's number (`sandbox-account-2`,
 * `sandbox-key-2`, `sandbox-secret-2` for the second).
 */
export function defaultCredentials(first: SandboxCredentials, index: number): SandboxCredentials {
  if (index === 0) return first;
  const n = index + 1;
  return { accountId: `${first.accountId}-${n}`, apiKey: `${first.apiKey}-${n}`, apiSecret: `${first.apiSecret}-${n}` };
}

/** `accounts` as a number (N accounts with defaults) or a list (one per entry); at least one. */
export function accountList(accounts: number | readonly AccountOptions[] | undefined): readonly AccountOptions[] {
  if (accounts === undefined) return [{}];
  if (typeof accounts === 'number') {
    if (!Number.isInteger(accounts) || accounts < 1) throw new Error(`accounts must be a whole number of at least 1 (got ${accounts}).`);
    return Array.from({ length: accounts }, () => ({}));
  }
  if (accounts.length === 0) throw new Error('accounts must list at least one account.');
  return accounts;
}

/**
 * The sandbox's accounts in order. A /v1 request goes to the account named by
 * its X-CareHQ-AccountId header; a request naming no known account goes to the
 * first, which refuses it (401, unknown account) as a single-account sandbox does.
 */
export class AccountDirectory {
  readonly list: readonly SandboxAccount[];
  private readonly byAccountId = new Map<string, SandboxAccount>();

  constructor(first: FirstAccount, accounts: readonly AccountOptions[], settings: AccountSettings) {
    this.list = accounts.map((given, index) => {
      const defaults = defaultCredentials(first.credentials, index);
      const credentials = {
        accountId: given.accountId ?? defaults.accountId,
        apiKey: given.apiKey ?? defaults.apiKey,
        apiSecret: given.apiSecret ?? defaults.apiSecret,
      };
      const options = {
        permissions: given.permissions ?? (index === 0 ? first.permissions : undefined),
        extraKeys: given.extraKeys ?? (index === 0 ? first.extraKeys : undefined),
        seed: given.seed ?? first.seed,
        seedValue: given.seedValue ?? first.seedValue + index,
      };
      return new SandboxAccount(index, credentials, providerFor(index), options, settings);
    });
    for (const account of this.list) {
      const id = account.credentials.accountId;
      if (this.byAccountId.has(id)) throw new Error(`Two sandbox accounts have the Id ${id}.`);
      this.byAccountId.set(id, account);
    }
  }

  get first(): SandboxAccount {
    return this.list[0] as SandboxAccount;
  }

  byId(accountId: string): SandboxAccount | undefined {
    return this.byAccountId.get(accountId);
  }

  forRequest(headers: IncomingHttpHeaders): SandboxAccount {
    const value = headers['x-carehq-accountid'];
    const id = Array.isArray(value) ? value[0] : value;
    return (id !== undefined && this.byAccountId.get(id)) || this.first;
  }
}
