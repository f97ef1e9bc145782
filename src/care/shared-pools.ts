/**
 * Connections to the care API shared by every care client of an instance. Each workspace's client had a
 * keep-alive pool of its own; polled every few seconds, its connection was closed between polls (undici
 * keeps an idle one about 4 s, or less when the server says so), so nearly every poll opened a new
 * connection (and at the real API, a TLS handshake). Shared per origin, the instance's polls keep a few
 * connections busy instead. Requests are signed per client (each its own key), so a connection carries
 * any account's requests, as a browser's would carry any page's. A client still sends at most its
 * `connections` requests at once (transport.ts), so one workspace cannot take every connection.
 */
import type { Pool } from 'undici';
import type { AddressRule } from './address-guard.js';
import { createPool } from './http.js';

export interface CarePools {
  /** The pool for `origin`, made on first use, shared by every client asking with the same deadline and address rule. */
  poolFor(origin: string, timeoutMs: number, allowAddress?: AddressRule): Pool;
  /** Close every pool (waits for requests in flight). */
  close(): Promise<void>;
}

export function createCarePools(): CarePools {
  const pools = new Map<string, Pool>();
  const ruleIds = new WeakMap<AddressRule, number>();
  let nextRule = 1;
  const ruleId = (rule: AddressRule | undefined) => {
    if (!rule) return 0;
    let id = ruleIds.get(rule);
    if (id === undefined) ruleIds.set(rule, (id = nextRule++));
    return id;
  };
  let closed = false;
  return {
    poolFor(origin, timeoutMs, allowAddress) {
      const key = `${origin} ${timeoutMs} ${ruleId(allowAddress)}`;
      let pool = pools.get(key);
      if (!pool || closed) {
        // No cap on the shared pool: each client's own cap keeps one workspace from taking it all.
        pool = createPool(origin, timeoutMs, null, allowAddress);
        if (!closed) pools.set(key, pool);
      }
      return pool;
    },
    async close() {
      closed = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.allSettled(all.map((p) => p.close()));
    },
  };
}
