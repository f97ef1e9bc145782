import { Histogram, type Registry } from 'prom-client';

/** How long Slack waited for the app's answer (the ack) to each request, over HTTP or Socket Mode. */
export function ackMetrics(registry: Registry): (transport: 'http' | 'socket', ms: number) => void {
  const latency = new Histogram({
    name: 'care_slack_ack_latency_seconds',
    help: 'From a Slack request arriving (POST /slack/events, or a Socket Mode envelope) to its answer (ack); Slack gives up at 3 s.',
    labelNames: ['transport'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    registers: [registry],
  });
  return (transport, ms) => latency.observe({ transport }, ms / 1000);
}
