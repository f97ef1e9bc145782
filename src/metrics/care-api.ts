import { Counter, Histogram, type Registry } from 'prom-client';
import type { CareAttempt } from '../care/index.js';
import { careResource } from './labels.js';

/** The care API client's attempts: counts by resource, method and status; 429s; retries; waits. */
export function careApiMetrics(registry: Registry): (attempt: CareAttempt) => void {
  const registers = [registry];
  const requests = new Counter({
    name: 'care_slack_care_api_requests_total',
    help: 'HTTP attempts to the care API (retries included), by resource, method and status (or timeout, connect-error, network-error).',
    labelNames: ['resource', 'method', 'status'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: 'care_slack_care_api_rate_limited_total',
    help: 'Care API answers with status 429 (rate limited).',
    labelNames: ['resource', 'method'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'care_slack_care_api_retries_total',
    help: 'Care API attempts that repeated an earlier attempt of the same call.',
    labelNames: ['resource', 'method'] as const,
    registers,
  });
  const backoff = new Counter({
    name: 'care_slack_care_api_retry_wait_seconds_total',
    help: "Time slept before retries (back-off, or a 429's wait for the reset).",
    labelNames: ['resource', 'method'] as const,
    registers,
  });
  const limiterWait = new Histogram({
    name: 'care_slack_care_api_limiter_wait_seconds',
    help: "Time each care API attempt waited in the client's rate limiter before it was sent.",
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers,
  });
  const duration = new Histogram({
    name: 'care_slack_care_api_request_duration_seconds',
    help: 'Time from sending a care API attempt to its whole answer (or failure).',
    labelNames: ['resource', 'method'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  return (a) => {
    const labels = { resource: careResource(a.resource), method: a.method };
    requests.inc({ ...labels, status: String(a.status) });
    if (a.status === 429) rateLimited.inc(labels);
    if (a.retry) retries.inc(labels);
    if (a.backoffMs > 0) backoff.inc(labels, a.backoffMs / 1000);
    limiterWait.observe(a.waitedMs / 1000);
    duration.observe(labels, a.durationMs / 1000);
  };
}
