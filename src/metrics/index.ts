/**
 * The app's metrics (Prometheus text format, prom-client). One registry per
 * app instance, never prom-client's global one, so several apps can run side
 * by side (tests). Each concept's series are defined in their own file; this
 * file puts them together and hands the composition (compose.ts, compose-multi.ts, workspaces/) the observers to wire in.
 * Switched off, every observer is absent and every wrapper gives back what it
 * was given: the app runs exactly as without metrics.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { FetchFunction } from '@slack/web-api';
import type { CareAttemptObserver } from '../care/index.js';
import type { JobsObserver } from '../jobs/index.js';
import type { Deliverer } from '../services/notices/delivery.js';
import type { Digests } from '../services/shift-work/digests.js';
import type { Store } from '../store/index.js';
import { ackMetrics } from './acks.js';
import { careApiMetrics } from './care-api.js';
import { deliveryMetrics } from './deliveries.js';
import { digestMetrics } from './digests.js';
import { type MetricsHandler, metricsHandler, serveMetrics, type MetricsServer } from './endpoint.js';
import { jobMetrics } from './jobs.js';
import { replayGuardMetrics } from './replay-guard.js';
import { slackApiMetrics, slackPacerMetrics } from './slack-api.js';
import type { PacerObserver } from '../slack/web-api/slack-pacer.js';

export interface MetricsSettings {
  /** Default true. Off: no series, no /metrics, nothing observed. */
  enabled?: boolean | undefined;
  /** METRICS_PORT: serve /metrics on this port only (0 = any free one), not on the app's port. */
  port?: number | undefined;
  /** METRICS_TOKEN: /metrics answers only `Authorization: Bearer <token>`, 401 otherwise. */
  token?: string | undefined;
  /** Also Node's process metrics (CPU, memory, event loop lag, GC): once per process (`npm start`), not per test app. */
  processMetrics?: boolean | undefined;
}

export interface AppMetrics {
  registry: Registry | undefined;
  /** For the care client's `onAttempt`. */
  careAttempt: CareAttemptObserver | undefined;
  /** For the Slack app: GET /metrics on its port (when METRICS_PORT is unset), the Web API's fetch, ack latency. */
  slack: {
    route?: MetricsHandler | undefined;
    fetch?: FetchFunction | undefined;
    onAck?: ((transport: 'http' | 'socket', ms: number) => void) | undefined;
    /** The app's own pacing under Slack's limits. */
    pacer?: PacerObserver | undefined;
  };
  jobs: JobsObserver | undefined;
  /** For the replay guard's `onFailOpen`: a request let through without the database. */
  replayGuardFailOpen: (() => void) | undefined;
  observeDeliverer(deliverer: Deliverer): Deliverer;
  observeDigests(digests: Digests): Digests;
  /** Starts the METRICS_PORT server when one is set; resolves to its port. */
  listen(host: string): Promise<number | undefined>;
  close(): Promise<void>;
}

const OFF: AppMetrics = {
  registry: undefined,
  careAttempt: undefined,
  slack: {},
  jobs: undefined,
  replayGuardFailOpen: undefined,
  observeDeliverer: (d) => d,
  observeDigests: (d) => d,
  listen: async () => undefined,
  close: async () => undefined,
};

export function createAppMetrics(settings: MetricsSettings, deps: { store: Pick<Store, 'countDeliveries'> }): AppMetrics {
  if (settings.enabled === false) return OFF;
  const registry = new Registry();
  if (settings.processMetrics) collectDefaultMetrics({ register: registry });
  const handler = metricsHandler(registry, settings.token);
  let server: MetricsServer | undefined;
  return {
    registry,
    careAttempt: careApiMetrics(registry),
    slack: {
      route: settings.port === undefined ? handler : undefined,
      fetch: slackApiMetrics(registry),
      onAck: ackMetrics(registry),
      pacer: slackPacerMetrics(registry),
    },
    jobs: jobMetrics(registry),
    replayGuardFailOpen: replayGuardMetrics(registry),
    observeDeliverer: deliveryMetrics(registry, deps.store),
    observeDigests: digestMetrics(registry),
    async listen(host) {
      if (settings.port === undefined) return undefined;
      server ??= await serveMetrics(handler, settings.port, host);
      return server.port;
    },
    async close() {
      const s = server;
      server = undefined;
      await s?.close();
    },
  };
}
