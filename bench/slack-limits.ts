/**
 * The full-size Slack-limits scenario (the suite runs a small one: test/e2e/slack-limits.test.ts):
 * a distributed app, 200 completions each told to Sophie, Priya and #care-team, a tenth of the posts
 * answered only after 12 s. Slack allows about one post a second per conversation, so this takes
 * minutes of real time. Prints the wall time, posts a second per conversation, what the pacer held
 * back, what Slack refused, and the checks the test makes; exits 1 if any check fails.
 *
 *   npm run bench:slack-limits            (BENCH_COMPLETIONS=200)
 */
import { burstConversations, pacedPosts, perAction, runCompletionBurst, slowedPosts, startCompletionBurst } from '../test/e2e/fixtures/completion-burst.js';

const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 200);

async function main(): Promise<void> {
  const setUpStarted = performance.now();
  const { h, groupIds } = await startCompletionBurst({ logLevel: 'warn' });
  const setUpMs = performance.now() - setUpStarted;
  try {
    const started = performance.now();
    const { ids, polls } = await runCompletionBurst(h, groupIds, COMPLETIONS, 900_000);
    const wallMs = performance.now() - started;
    const notExactlyOnce = burstConversations(h).map((list) => {
      const counts = perAction(list);
      return [...ids].filter((id) => counts.get(id) !== 1).length;
    });
    const limits = h.fake.rateLimits();
    const failed = await h.app.store.countDeliveries({ kind: 'completion', state: 'failed' });
    const paced = await pacedPosts(h);
    const toldRatelimited = ['sophie', 'priya', 'amelia']
      .flatMap((p) => [...h.fake.dms(p), ...h.fake.ephemerals(p)])
      .filter((m) => /ratelimit/i.test(h.fake.visibleText(m))).length;
    const checks = {
      'every notice exactly once (3 conversations)': notExactlyOnce.every((n) => n === 0),
      'no call inside a Retry-After': limits.repeatedInsideRetryAfter === 0 && limits.repeats.length === 0,
      'no history read': limits.historyReads.length === 0,
      'no failed delivery': failed === 0,
      'nobody told "ratelimited"': toldRatelimited === 0,
    };
    const posts = COMPLETIONS * 3;
    console.log(
      JSON.stringify(
        {
          completions: COMPLETIONS,
          posts,
          setUpSeconds: +(setUpMs / 1000).toFixed(1),
          wallSeconds: +(wallMs / 1000).toFixed(1),
          postsPerSecondPerConversation: +(COMPLETIONS / (wallMs / 1000)).toFixed(3),
          polls,
          postsSlowedTo12s: slowedPosts(h),
          postsPacedWaitSeconds: +paced.waitedSeconds.toFixed(1),
          postsDeferredByPacer: paced.deferred,
          slack429s: limits.limited,
          slack429sByMethod: limits.byMethod,
          repeatedInsideRetryAfter: limits.repeatedInsideRetryAfter,
          historyReads: limits.historyReads.length,
          failedDeliveries: failed,
          notExactlyOnce,
          checks,
        },
        null,
        2,
      ),
    );
    if (!Object.values(checks).every(Boolean)) process.exitCode = 1;
  } finally {
    await h.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
