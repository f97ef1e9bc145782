/**
 * Issue 33, "The playground plays it": the answers to an urgent alert as people give them on `npm run demo`'s
 * page, acting as Priya (a carer) and Amelia (a senior and admin): "I'm on it" says who is on it and stops the
 * ladder (Advance 15 minutes sends nothing), "I can't" shows its reason's words on the post (never the note),
 * and a two-person action says it needs two, keeps asking at 1 of 2, and closes when a second joins.
 * Driven in headless Chromium; the shots go to test-results/demo (the docs' are made by shot-answers.ts).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import { answerCant, answerOnIt, joinAsSecond, urgentAlertOf } from './answer-steps.js';
import { actAs, CHROMIUM, channelLink, hasChromium, launchChromium, messages, openConversation, send, simulate, WAIT } from './page-steps.js';

if (!hasChromium) console.warn(`test/demo/answers.test.ts: SKIPPED, no Chromium at ${CHROMIUM} (Debian: apt-get install chromium).`);

const SHOTS = join('test-results', 'demo');
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';

describe('the playground plays the answers to an urgent alert (issue 33)', () => {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];
  /** Open, not urgent actions of the demo data, one per test (by number). */
  const fresh: string[] = [];

  beforeAll(async () => {
    if (!hasChromium) return;
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-answers-'));
    await mkdir(SHOTS, { recursive: true });
    demo = await startDemo({ port: 0, dataDir });
    browser = await launchChromium();
    const offered = await demo.backend.simulate.listSimulatableActions();
    fresh.push(...offered.filter((a) => !a.urgent && !a.completed && a.no).map((a) => String(a.no)));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${demo.url}#user=${AMELIA}&c=C0LEADS`);
    await channelLink(page, 'care-leads').waitFor(WAIT);
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!hasChromium)('after Priya’s "I’m on it" the alert says she is on it since when, and Advance 15 minutes sends no next step', async () => {
    const p = page!;
    const no = fresh.shift()!;
    await actAs(p, AMELIA);
    expect(await simulate(p, 'urgent', no)).toContain('marked urgent');
    await urgentAlertOf(p, no).waitFor(WAIT);

    await actAs(p, PRIYA);
    await openConversation(p, 'care-leads');
    await answerOnIt(p, no, 'Going now');
    const alert = await urgentAlertOf(p, no).innerText();
    expect(alert).toMatch(/@priya is on it since \d{1,2}:\d\d/);
    expect(alert).not.toContain('Going now');
    expect(await urgentAlertOf(p, no).locator('button', { hasText: 'I’m on it' }).count()).toBe(0);

    expect(await simulate(p, 'minutes')).toContain('no escalation step was due');
    expect(await urgentAlertOf(p, no).innerText()).not.toContain('Reminder sent');
    expect(pageErrors).toEqual([]);
  });

  it.skipIf(!hasChromium)('after Amelia’s "I can’t" with a reason the post shows the reason’s words, not her note', async () => {
    const p = page!;
    const no = fresh.shift()!;
    await actAs(p, AMELIA);
    await openConversation(p, 'care-leads');
    expect(await simulate(p, 'urgent', no)).toContain('marked urgent');
    await urgentAlertOf(p, no).waitFor(WAIT);

    await answerCant(p, no, 'with another resident', 'Helping Mr Jones back to bed');
    const alert = await urgentAlertOf(p, no).innerText();
    expect(alert).toContain("@amelia can't: with another resident");
    expect(alert).not.toContain('Mr Jones');
    // Someone else may still answer: the alert keeps asking.
    expect(await urgentAlertOf(p, no).locator('button', { hasText: 'I’m on it' }).count()).toBe(1);
    await p.screenshot({ path: join(SHOTS, 'answers-cant.png') });
    expect(pageErrors).toEqual([]);
  });

  it.skipIf(!hasChromium)('a two-person alert says it needs two, shows 1 of 2 after Priya’s "I’m on it", and closes when Amelia joins', async () => {
    const p = page!;
    const no = fresh.shift()!;
    await actAs(p, AMELIA);
    await openConversation(p, 'care-leads');
    await send(p, `/care two-staff ${no} on`);
    await messages(p)
      .filter({ hasText: `#${no} needs two staff` })
      .last()
      .waitFor(WAIT);
    expect(await simulate(p, 'urgent', no)).toContain('marked urgent');
    await urgentAlertOf(p, no).waitFor(WAIT);
    expect(await urgentAlertOf(p, no).innerText()).toContain('Needs two staff — nobody on it yet');

    await actAs(p, PRIYA);
    await openConversation(p, 'care-leads');
    await answerOnIt(p, no, null);
    const oneOfTwo = await urgentAlertOf(p, no).innerText();
    expect(oneOfTwo).toContain('1 of 2: @priya — need one more');
    expect(oneOfTwo).toContain('Join (I’ll be the second)');
    await p.screenshot({ path: join(SHOTS, 'answers-1-of-2.png') });

    await actAs(p, AMELIA);
    await openConversation(p, 'care-leads');
    await joinAsSecond(p, no);
    const closed = await urgentAlertOf(p, no).innerText();
    expect(closed).toMatch(/@priya is on it since[\s\S]*@amelia joined at/);
    expect(closed).not.toContain('need one more');
    expect(
      await urgentAlertOf(p, no)
        .locator('button', { hasText: /Join|I’m on it|I can’t/ })
        .count(),
    ).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it.skipIf(!hasChromium)('at a phone’s width the open conversation is in sight in the row of conversations, not cut off', async () => {
    const phone = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${demo!.url}#user=${PRIYA}&c=C0RANDOM`);
    const random = channelLink(phone, 'random');
    await random.and(phone.locator('.active')).waitFor(WAIT);
    await expect.poll(async () => (await random.boundingBox())!.x + (await random.boundingBox())!.width, WAIT).toBeLessThanOrEqual(390);
    expect((await random.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    await phone.close();
  });
});
