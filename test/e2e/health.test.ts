import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, type Harness, linkDirectly, startHarness } from './harness.js';

/** /healthz is for probes (load balancers, uptime checks): it must never cost the care API's allowance. */
describe('/healthz', () => {
  let h: Harness;
  let healthUrl: string;
  beforeAll(async () => {
    h = await startHarness({ careRateLimitPerSecond: 10 });
    await linkDirectly(h, 'sophie');
    healthUrl = h.appUrl('/healthz');
  });
  afterAll(async () => h?.close());

  it('answers 300 probes with the care API check but makes at most one care API request for them', async () => {
    await command(h, 'sophie', '/care mine'); // a real call: the API is known to answer
    const before = h.app.care.stats().requests;
    const answers = await Promise.all(Array.from({ length: 300 }, () => fetch(healthUrl).then(async (r) => ({ status: r.status, body: await r.json() }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.body).toMatchObject({ ok: true, checks: { store: { ok: true }, careApi: { ok: true } } });
    expect(h.app.care.stats().requests - before).toBeLessThanOrEqual(1);
    // The people using the app still get their answers (nothing queued behind the probes).
    const mine = await command(h, 'sophie', '/care mine');
    expect(mine.text).toContain('Your open actions');
    expect(h.app.care.stats().requests - before).toBeLessThanOrEqual(2);
  });
});
