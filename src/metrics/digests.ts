import { Counter, Histogram, type Registry } from 'prom-client';
import type { DigestRunReport, Digests } from '../services/shift-work/digests.js';

/** Digest runs that had something to post: how long they took and what became of each channel's digest. */
export function digestMetrics(registry: Registry): (digests: Digests) => Digests {
  const registers = [registry];
  const duration = new Histogram({
    name: 'care_slack_digest_run_duration_seconds',
    help: 'Duration of digest runs that had at least one digest due (scheduled, or /care digest now).',
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers,
  });
  const posts = new Counter({
    name: 'care_slack_digest_posts_total',
    help: 'Channel digests by result: sent, already-sent, found-in-slack, busy, failed, gave-up, or empty-skipped (nothing to say and the channel asked for no empty digest).',
    labelNames: ['result'] as const,
    registers,
  });
  const timed =
    <A extends unknown[]>(run: (...args: A) => Promise<DigestRunReport>) =>
    async (...args: A) => {
      const started = performance.now();
      const report = await run(...args);
      const outcomes = Object.entries(report.results);
      if (report.queries > 0 || outcomes.length > 0) {
        duration.observe((performance.now() - started) / 1000);
        for (const [result, n] of outcomes) if (n) posts.inc({ result }, n);
      }
      return report;
    };
  return (digests) => ({
    runDue: timed((now: Date) => digests.runDue(now)),
    postNow: timed((sub: Parameters<Digests['postNow']>[0], now: Date) => digests.postNow(sub, now)),
    nextDueAt: (now: Date) => digests.nextDueAt(now),
  });
}
