/**
 * A hung care API does not mean a long silence: a person's command is
 * answered within 10 s, with the result or a line saying the care system is
 * slow; the result (or the failure, in words) then follows once, through the
 * same response_url.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { type Harness, linkDirectly, startHarness } from './harness.js';

/** The product's promise: some answer within 10 s of typing. */
const ANSWER_WITHIN_MS = 10_000;
const CARE_DELAY_MS = 12_000;

interface Typed {
  responseUrl: string;
  /** Sophie's ephemerals before the command. */
  before: number;
}

/**
 * A harness of the test's own, Sophie linked: the two tests wait on the care client's own timeouts (10 s an
 * attempt, four attempts), which no clock of the test's can move, so each has its own care system and they run
 * side by side.
 */
async function sophiesHarness(test: TestContext): Promise<Harness> {
  const h = await startHarness();
  test.onTestFinished(() => h.close());
  await linkDirectly(h, 'sophie');
  return h;
}

/** What the app posted through the command's response_url, in order, as Sophie reads it (only this command answers her meanwhile). */
function postedOn(h: Harness, typed: Typed): string[] {
  const uses = h.fake.state.responseUrls.find((r) => r.url === typed.responseUrl)?.uses ?? 0;
  const mine = h.fake
    .ephemerals('sophie')
    .slice(typed.before)
    .filter((e) => e.via === 'response_url')
    .map((e) => h.fake.visibleText(e, { viewer: 'sophie' }));
  expect(mine).toHaveLength(uses);
  return mine;
}

/** Types `/care <line>` while every care request takes 12 s; returns the response_url once the first answer is there, and how long that took. */
async function typedWhileCareHangs(h: Harness, line: string): Promise<Typed & { firstAnswerMs: number }> {
  await h.control('faults', { latencyMs: CARE_DELAY_MS });
  const before = h.fake.ephemerals('sophie').length;
  const started = performance.now();
  const sent = await h.driver.slash('sophie', `/care ${line}`, { channel: '#care-team' });
  expect(sent.acked).toBe(true);
  const typed = { responseUrl: sent.responseUrl!, before };
  await h.fake.waitFor(() => (postedOn(h, typed).length > 0 ? true : undefined), { timeoutMs: ANSWER_WITHIN_MS + 5_000, message: 'no answer at all' });
  return { ...typed, firstAnswerMs: performance.now() - started };
}

/** Waits for the n-th message on the command's response_url. */
async function nthAnswer(h: Harness, typed: Typed, n: number, timeoutMs: number): Promise<string> {
  return h.fake.waitFor(() => postedOn(h, typed)[n - 1], { timeoutMs, message: `no answer #${n}` });
}

describe.concurrent('a command while every care request takes 12 s', () => {
  it('says within 10 s that the care system is slow, then posts the result once when it comes', async (test) => {
    const h = await sophiesHarness(test);
    const typed = await typedWhileCareHangs(h, 'find handover notes');
    expect(typed.firstAnswerMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(postedOn(h, typed)).toEqual([expect.stringMatching(/care system is slow to answer; I’ll post the result here when it comes/)]);

    // The care system recovers: the request that hung is abandoned and tried again.
    await h.control('faults', { reset: true });
    const result = await nthAnswer(h, typed, 2, 30_000);
    expect(result).not.toMatch(/slow to answer|busy or unreachable/);
    expect(result).toMatch(/handover notes/i);
    // The command is over: nothing more comes.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(postedOn(h, typed)).toHaveLength(2);
  }, 60_000);

  it('says within 10 s that the care system is slow, then, when it never answers, says so once', async (test) => {
    const h = await sophiesHarness(test);
    const typed = await typedWhileCareHangs(h, 'find medication review');
    expect(typed.firstAnswerMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(postedOn(h, typed)).toHaveLength(1);
    expect(postedOn(h, typed)[0]).toMatch(/slow to answer/);

    const failure = await nthAnswer(h, typed, 2, 90_000);
    expect(failure).toMatch(/The care system is busy or unreachable right now\. Try again in a minute\./);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(postedOn(h, typed)).toHaveLength(2);
  }, 120_000);
});
