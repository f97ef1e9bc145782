/**
 * Issue 33, "The playground plays it": Simulate's "Advance 15 minutes" moves the demo's one clock (the app's,
 * the care system's and the Slack fake's) and runs the jobs now due, so a manager watches an unanswered urgent
 * alert climb its ladder step by step; the page acts as a second person (a senior) who takes it from her DM,
 * and who's on now (`/care oncall`) says so. Driven in headless Chromium against `npm run demo`'s page.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import { actAs, CHROMIUM, channelLink, hasChromium, launchChromium, messages, openConversation, send, simulate, WAIT } from './page-steps.js';

if (!hasChromium) console.warn(`test/demo/ladder.test.ts: SKIPPED, no Chromium at ${CHROMIUM} (Debian: apt-get install chromium).`);

const SHOTS = join('test-results', 'demo');
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';

describe('the playground plays the escalation ladder (issue 33)', () => {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-ladder-'));
    await mkdir(SHOTS, { recursive: true });
    demo = await startDemo({ port: 0, dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The urgent alert of action `no` in #care-leads, as the page shows it now. */
  const alertOf = (page: Page, no: string) =>
    messages(page)
      .filter({ hasText: `#${no}` })
      .filter({ hasText: 'Urgent' })
      .first();

  it.skipIf(!hasChromium)(
    'Advance 15 minutes moves an unanswered urgent alert to its next step, each press one step; a senior takes it from her DM',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${demo!.url}#user=${AMELIA}&c=C0LEADS`);
      await channelLink(page, 'care-leads').waitFor(WAIT);
      await actAs(page, AMELIA);

      // Amelia (an admin) sets the ladder in the page: the managers' channel and the seniors of both shifts.
      await send(page, '/care escalation managers #general');
      await messages(page).filter({ hasText: 'Escalation set.' }).first().waitFor(WAIT);
      for (const shift of ['Day', 'Night']) await send(page, `/care escalation seniors ${shift} @priya`);
      await messages(page).filter({ hasText: 'Night: @priya' }).first().waitFor(WAIT);

      const offered = await demo!.backend.simulate.listSimulatableActions();
      const pick = offered.find((a) => !a.urgent && !a.completed);
      if (!pick?.no) throw new Error('the Simulate menu offers no open, not urgent action');
      const no = String(pick.no);
      expect(await simulate(page, 'urgent', no)).toContain('marked urgent');
      await alertOf(page, no).waitFor(WAIT);
      const before = demo!.clock.nowMs();

      // One press: 15 minutes on, the reminder in the alert's thread, and the alert says so.
      const first = await simulate(page, 'minutes');
      expect(first).toContain('Clock moved 15 minutes on');
      expect(first).toContain(`a reminder in the alert’s thread for #${no}`);
      expect(demo!.clock.nowMs() - before).toBeGreaterThanOrEqual(15 * 60_000);
      await expect.poll(() => alertOf(page, no).innerText(), WAIT).toContain('Reminder sent in thread');
      expect(await alertOf(page, no).innerText()).not.toContain('Escalated to');

      // The next press: the seniors on shift are DMed (Priya), and the alert says whom.
      expect(await simulate(page, 'minutes')).toContain(`DMs to the seniors on shift for #${no}`);
      await expect.poll(() => alertOf(page, no).innerText(), WAIT).toContain('Escalated to @priya');
      await page.screenshot({ path: join(SHOTS, 'ladder-1-escalated.png') });

      // The page acts as Priya: her DM from the app has the escalation with Take it; who's on now lists it as waiting.
      await actAs(page, PRIYA);
      await openConversation(page, 'app');
      const dm = messages(page)
        .filter({ hasText: `Urgent action #${no}` })
        .filter({ hasText: 'unanswered for' })
        .last();
      await dm.waitFor(WAIT);
      await send(page, '/care oncall');
      const onCall = messages(page).filter({ hasText: 'Open urgent actions' }).last();
      await onCall.waitFor(WAIT);
      expect(await onCall.innerText()).toMatch(new RegExp(`#${no}[^\\n]*nobody yet`));
      await dm.locator('button', { hasText: 'Take it' }).click();
      const confirm = page.locator('.confirm-root .confirm-box');
      if (await confirm.isVisible().catch(() => false))
        await confirm
          .locator('button', { hasText: /Take it|Yes|Confirm/ })
          .first()
          .click();
      await expect.poll(async () => (await demo!.app.care.actions.retrieve(pick.id)).assigned_to ?? null, WAIT).toBe(demo!.setup.links.get(PRIYA));

      // Back as Amelia: a third press tells the managers nothing (it was answered), and who's on now names Priya.
      await actAs(page, AMELIA);
      await openConversation(page, 'care-leads');
      expect(await simulate(page, 'minutes')).toContain('no escalation step was due');
      await openConversation(page, 'general');
      expect(
        await messages(page)
          .filter({ hasText: `#${no}` })
          .count(),
      ).toBe(0);
      await send(page, '/care oncall');
      const after = messages(page).filter({ hasText: 'Seniors on the' }).last();
      await after.waitFor(WAIT);
      expect(await after.innerText()).toMatch(new RegExp(`#${no}[^\\n]*@priya on it since`));
      await page.screenshot({ path: join(SHOTS, 'ladder-2-oncall.png') });

      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );
});
