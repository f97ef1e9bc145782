import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../dev/sandbox/index.js';
import { controlCall, rawClient, type RawParams, type RawResponse } from '../helpers/raw-signer.js';

/** A fixed virtual "now" so seeded data is the same on every run. */
export const START = new Date('2024-06-10T09:30:00Z');
export const TODAY = '2024-06-10';

export interface SandboxHandle {
  sandbox: RunningSandbox;
  api: ReturnType<typeof rawClient>;
  control: (method: string, path: string, body?: unknown) => Promise<RawResponse>;
}

/** Start a sandbox for the test file (random credentials, controls on) and stop it afterwards. */
export function useSandbox(options: SandboxOptions = {}): SandboxHandle {
  const handle = {} as SandboxHandle;
  beforeAll(async () => {
    const suffix = Math.random().toString(36).slice(2);
    handle.sandbox = await startSandbox({
      accountId: `acct-${suffix}`,
      apiKey: `key-${suffix}`,
      apiSecret: `secret-${suffix}`,
      rateLimit: 0,
      controls: true,
      startTime: START,
      ...options,
    });
    handle.api = rawClient(handle.sandbox.url, handle.sandbox.credentials);
    handle.control = (method, path, body) => controlCall(handle.sandbox.controlsUrl, method, path, body);
  });
  afterAll(async () => {
    await handle.sandbox?.stop();
  });
  return handle;
}

/** Every item of a list (all pages of 100) with the given attributes. */
export async function listAll(handle: SandboxHandle, resource: string, params: RawParams = {}): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const r = await handle.api('GET', resource, { ...params, per_page: 100, page });
    if (r.status !== 200) throw new Error(`${resource} page ${page}: ${r.status} ${r.text}`);
    items.push(...r.json.items);
    if (page >= r.json.page_count) return items;
  }
}
