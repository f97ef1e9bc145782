import { Counter, type Registry } from 'prom-client';

/** Requests the replay guard let through on this instance's memory alone, because the database did not answer in time. */
export function replayGuardMetrics(registry: Registry): () => void {
  const failOpen = new Counter({
    name: 'care_slack_replay_guard_fail_open_total',
    help: 'Signed Slack requests let through without the database’s replay check (it did not answer within 500 ms); each is remembered on this instance only, for its 5-minute signature window.',
    registers: [registry],
  });
  return () => failOpen.inc();
}
