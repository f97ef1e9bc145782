import type { CareClient } from './care/index.js';
import type { Store } from './store/index.js';

export interface HealthCheck {
  ok: boolean;
  detail?: string;
}

export type HealthReport = Record<string, HealthCheck>;

export interface HealthOptions {
  store: Pick<Store, 'ping' | 'probeWrite'>;
  care: Pick<CareClient, 'stats' | 'actions'>;
  /** Wall clock (ms). */
  now?: () => number;
  /** How old the last care API answer may be before one background check is made. Default 60 s. */
  freshMs?: number;
  /** The most a probe waits: for the database, and for the very first care check. Default 2 s. */
  waitMs?: number;
}

const within = <T>(p: Promise<T>, ms: number, fallback: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms).unref())]);

/**
 * The database as the app needs it: it answers a read and accepts a write
 * (a locked SQLite file or a read-only PostgreSQL still answers reads), each
 * within `waitMs`.
 */
export async function storeHealth(store: Pick<Store, 'ping' | 'probeWrite'>, waitMs = 2000): Promise<HealthCheck> {
  const secs = `${waitMs / 1000} s`;
  const [read, write] = await Promise.all([
    within(
      store.ping().then(
        (): HealthCheck => ({ ok: true }),
        (): HealthCheck => ({ ok: false, detail: 'the database does not answer' }),
      ),
      waitMs,
      { ok: false, detail: `the database did not answer within ${secs}` },
    ),
    within(
      store.probeWrite().then(
        (): HealthCheck => ({ ok: true }),
        (): HealthCheck => ({ ok: false, detail: 'the database does not accept writes' }),
      ),
      waitMs,
      { ok: false, detail: `the database did not accept a write within ${secs} (locked or overloaded)` },
    ),
  ]);
  return read.ok ? write : read;
}

/**
 * GET /healthz. The care API is judged by the app's own last real calls (the
 * client records when the API last answered and the last trouble it had), so
 * a probe costs the API's 10 req/s allowance nothing. Only when the last
 * answer is older than `freshMs` is one check made, in the background, at
 * most one at a time; the probe answers with what is known at once. The very
 * first probe, before any call was made, waits for that check (bounded).
 */
export function createHealth(o: HealthOptions): () => Promise<HealthReport> {
  const now = o.now ?? Date.now;
  const freshMs = o.freshMs ?? 60_000;
  const waitMs = o.waitMs ?? 2000;
  let inFlight: Promise<unknown> | undefined;

  const checkInBackground = () => {
    inFlight ??= o.care.actions
      .list({ per_page: 1, attributes: ['_id'] })
      .catch(() => undefined) // the client recorded the trouble
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  const careState = (): HealthCheck | undefined => {
    const { lastAnswerAt, lastTrouble } = o.care.stats();
    const age = (at: number) => `${Math.max(0, Math.round((now() - at) / 1000))} s ago`;
    if (lastTrouble && (lastAnswerAt === null || lastTrouble.at >= lastAnswerAt)) return { ok: false, detail: `${lastTrouble.error} ${age(lastTrouble.at)}` };
    if (lastAnswerAt !== null) return { ok: true, detail: `last answer ${age(lastAnswerAt)}` };
    return undefined;
  };

  return async () => {
    const { lastAnswerAt, lastTrouble } = o.care.stats();
    const newest = Math.max(lastAnswerAt ?? -Infinity, lastTrouble?.at ?? -Infinity);
    if (now() - newest >= freshMs) {
      const check = checkInBackground();
      if (newest === -Infinity) await within(check, waitMs, undefined);
    }
    const store = await storeHealth(o.store, waitMs);
    return { store, careApi: careState() ?? { ok: false, detail: `the care API did not answer within ${waitMs / 1000} s` } };
  };
}
