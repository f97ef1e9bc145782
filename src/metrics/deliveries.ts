import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deliverer } from '../services/notices/delivery.js';
import type { Store } from '../store/index.js';
import { deliveryKind } from './labels.js';

/** The most a scrape waits for the store's counts; an unanswered count keeps its last value. */
const COUNT_WAIT_MS = 1000;

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/**
 * Deliveries (notices, alerts, assignment DMs, digests, summaries): each
 * attempt's result by kind, and the ledger's pending and failed rows, counted
 * by the store when Prometheus scrapes (two indexed COUNTs).
 */
export function deliveryMetrics(registry: Registry, store: Pick<Store, 'countDeliveries'>): (deliverer: Deliverer) => Deliverer {
  const registers = [registry];
  const results = new Counter({
    name: 'care_slack_deliveries_total',
    help: 'Delivery attempts by kind and result: sent, found-in-slack, already-sent, busy (another holder), failed, gave-up, deferred (waiting for Slack: not counted as an attempt), or error (the store failed).',
    labelNames: ['kind', 'result'] as const,
    registers,
  });
  const ledgerCount = (state: 'pending' | 'failed') =>
    async function collect(this: Gauge) {
      try {
        this.set(await within(store.countDeliveries({ state }), COUNT_WAIT_MS));
      } catch {
        // the store is away or slow: /healthz says so; keep the last count
      }
    };
  new Gauge({
    name: 'care_slack_deliveries_pending',
    help: 'Ledger rows pending now: being sent, or left in doubt until their claim goes stale.',
    registers,
    collect: ledgerCount('pending'),
  });
  new Gauge({
    name: 'care_slack_deliveries_failed',
    help: 'Ledger rows failed now: retryable ones wait for the next poll; the rest were given up (the reason is in last_error).',
    registers,
    collect: ledgerCount('failed'),
  });

  const counted = async (kindOfKey: string, run: () => ReturnType<Deliverer['deliver']>) => {
    const kind = deliveryKind(kindOfKey);
    try {
      const result = await run();
      results.inc({ kind, result });
      return result;
    } catch (err) {
      results.inc({ kind, result: 'error' });
      throw err;
    }
  };
  return (deliverer) => ({
    deliver: (key, destination, message) => counted(key.kind, () => deliverer.deliver(key, destination, message)),
    record: (key, outcome) => counted(key.kind, () => deliverer.record(key, outcome)),
  });
}
