import { Gauge, Histogram, type Registry } from 'prom-client';
import type { JobsObserver } from '../jobs/index.js';
import { jobName } from './labels.js';

/** Leases this instance holds, job run durations, and how far behind the changes poll is. */
export function jobMetrics(registry: Registry): JobsObserver {
  const registers = [registry];
  const leaseHeld = new Gauge({
    name: 'care_slack_job_lease_held',
    help: 'Whether this instance holds the job lease now (1) or not (0), by job.',
    labelNames: ['job'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'care_slack_job_duration_seconds',
    help: 'Duration of each leased job run by job (changes-poll, digests, summaries) and outcome (ok, error).',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const lag = new Gauge({
    name: 'care_slack_changes_poll_lag_seconds',
    help: "After the last complete changes poll: the app's time minus the newest `modified` seen (grows while nothing changes in the care system).",
    registers,
  });
  const lastPoll = new Gauge({
    name: 'care_slack_changes_poll_last_success_timestamp_seconds',
    help: 'When the last changes poll read everything up to now (Unix time).',
    registers,
  });
  return {
    lease: (job, held) => leaseHeld.set({ job: jobName(job) }, held ? 1 : 0),
    ran: (job, ms, ok) => duration.observe({ job: jobName(job), outcome: ok ? 'ok' : 'error' }, ms / 1000),
    polled: (lagMs) => {
      lag.set(Math.max(0, lagMs) / 1000);
      lastPoll.set(Date.now() / 1000);
    },
  };
}
