import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import {
  actAs,
  advanceToNextDigest,
  appDmLink,
  cardFor,
  channelLink,
  CHROMIUM,
  confirmDialog,
  fillNewActionModal,
  hasChromium,
  launchChromium,
  messages,
  openConversation,
  send,
  simulate,
  submitModal,
  WAIT,
} from './page-steps.js';

if (!hasChromium) console.warn(`test/demo/browser.test.ts: SKIPPED, no Chromium at ${CHROMIUM} (Debian: apt-get install chromium).`);

const SHOTS = join('test-results', 'demo');

describe('npm run demo in a real browser', () => {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-browser-'));
    await mkdir(SHOTS, { recursive: true });
    demo = await startDemo({ port: 0, dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!hasChromium)('creates an action in the modal, completes it, sees the completion DM and the next digest', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${demo!.url}#user=U0SOPHIE&c=C0CARE`);
    await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
    await expect.poll(() => page.locator('#user-select').inputValue()).toBe('U0SOPHIE');

    // A slash command from the message box opens the app's modal; Sophie fills it in.
    const modal = await fillNewActionModal(page, demo!, 'Check the hoist in room 4', 'Willow Bank seniors');
    expect(await modal.locator('.modal-title').textContent()).toBe('New care action');
    await page.screenshot({ path: join(SHOTS, '1-modal.png') });
    await submitModal(modal);

    // The app's answer is ephemeral ("Only visible to you") with a Complete button.
    const card = cardFor(page, 'Check the hoist in room 4');
    await card.waitFor(WAIT);
    expect(await card.locator('.ephemeral-note').textContent()).toContain('Only visible to you');
    const no = /#(\d+)/.exec((await card.textContent()) ?? '')?.[1];
    expect(no, 'the card shows the action number').toBeTruthy();
    await page.screenshot({ path: join(SHOTS, '2-created.png') });
    await card.locator('button', { hasText: 'Complete' }).click();
    // The card is replaced in place: now it offers Reopen.
    await messages(page)
      .filter({ hasText: 'Check the hoist in room 4' })
      .filter({ has: page.locator('button', { hasText: 'Reopen' }) })
      .waitFor(WAIT);

    // Amelia is told through "Willow Bank seniors" (Sophie, who completed it, is not told of her own completion).
    await actAs(page, 'U0AMELIA');
    await appDmLink(page).click();
    const notice = messages(page).filter({ hasText: `#${no} was completed` });
    await notice.waitFor(WAIT);
    expect(await notice.textContent()).toContain('Willow Bank seniors');
    await page.screenshot({ path: join(SHOTS, '3-completion-dm.png') });
    await actAs(page, 'U0SOPHIE');

    // Simulate -> advance the clock to the next digest: #care-team gets it, at 08:00 on the page's clock.
    expect(await advanceToNextDigest(page)).toMatch(/digests? posted/);
    await expect.poll(() => page.locator('#clock').textContent(), WAIT).toContain('08:00');
    await channelLink(page, 'care-team').click();
    const digest = messages(page).filter({ has: page.locator('.bk-header-text', { hasText: 'Care actions ·' }) });
    await digest.waitFor(WAIT);
    expect(await digest.textContent()).toMatch(/\d+ overdue · \d+ due today · \d+ urgent/);
    await page.locator('#conv-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.screenshot({ path: join(SHOTS, '4-digest.png') });

    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('/care new with a due phrase prefills the form; More options and a time-of-day reminder work on the page', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${demo!.url}#user=U0SOPHIE&c=C0CARE`);
    await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
    await send(page, '/care new Call the GP tomorrow 3pm');
    const modal = page.locator('#modal-root form.bk-modal');
    const field = (blockId: string) => modal.locator(`.bk-input[data-block-id="${blockId}"]`);
    await field('task').waitFor(WAIT);
    expect(await field('task').locator('textarea').inputValue()).toBe('Call the GP');
    expect(await field('due_time').locator('input[type=time]').inputValue()).toBe('15:00');
    // The assignee picker is everyone on the rota (an external select); it starts with the creator.
    expect(await field('assignee').locator('.bk-chip').textContent()).toContain('Sophie Marsh');
    expect(await field('pin_to_calendar').count()).toBe(0);

    // Typed, then More options: the extra fields appear and the typed words stay.
    await field('task').locator('textarea').fill('Call the GP about the bloods');
    await modal.locator('button', { hasText: 'More options' }).click();
    await field('pin_to_calendar').waitFor(WAIT);
    expect(await field('task').locator('textarea').inputValue()).toBe('Call the GP about the bloods');

    // "At a time of day" brings its time picker.
    await field('reminder_0_method').locator('select').selectOption({ label: 'Email' });
    expect(await field('reminder_0_time').count()).toBe(0);
    await field('reminder_0_when').locator('select').selectOption({ label: 'At a time of day that day' });
    await field('reminder_0_time').waitFor(WAIT);
    await field('reminder_0_time').locator('input[type=time]').fill('08:00');
    expect(await field('task').locator('textarea').inputValue()).toBe('Call the GP about the bloods');
    await page.screenshot({ path: join(SHOTS, '5-more-options.png') });
    await submitModal(modal);
    await cardFor(page, 'Call the GP about the bloods').waitFor(WAIT);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('Sophie assigns an action to Oliver; Oliver sees the assignment DM and snoozes it to tomorrow', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${demo!.url}#user=U0SOPHIE&c=C0CARE`);
    await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
    const modal = await fillNewActionModal(page, demo!, 'Take Mr Ahmed his evening meds', 'Willow Bank seniors');
    const field = (blockId: string) => modal.locator(`.bk-input[data-block-id="${blockId}"]`);
    expect(await field('assignee').locator('.bk-chip').textContent()).toContain('Sophie Marsh'); // the creator, by default
    await field('assignee').locator('.bk-ext-query').fill('Oliver');
    await field('assignee').locator('.bk-ext-item', { hasText: 'Oliver Bennett' }).click();
    await field('assignee').locator('.bk-chip', { hasText: 'Oliver Bennett' }).waitFor(WAIT);
    await submitModal(modal);
    await cardFor(page, 'Take Mr Ahmed his evening meds').waitFor(WAIT);

    // Oliver opens his DM with the app: told it is his, by whom, with Complete and Snooze.
    await page.locator('#user-select').selectOption('U0OLIVER');
    await expect.poll(() => page.locator('#user-select').inputValue()).toBe('U0OLIVER');
    await appDmLink(page).click();
    const dm = messages(page).filter({ hasText: 'Take Mr Ahmed his evening meds' }).filter({ hasText: 'assigned' }).last();
    await dm.waitFor(WAIT);
    expect(await dm.textContent()).toContain('by @sophie');
    expect(await dm.locator('button', { hasText: 'Complete' }).count()).toBe(1);
    const dueBefore = (await dm.textContent()) ?? '';
    await page.screenshot({ path: join(SHOTS, '6-assignment-dm.png') });

    // Snooze -> Tomorrow, same time: the DM's card is updated in place with the new due time.
    await dm
      .locator('select')
      .filter({ has: page.locator('option', { hasText: 'Tomorrow, same time' }) })
      .selectOption({ label: 'Tomorrow, same time' });
    await expect.poll(async () => ((await dm.textContent()) ?? '') !== dueBefore, WAIT).toBe(true);
    await page.screenshot({ path: join(SHOTS, '7-snoozed.png') });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)("a button's confirmation dialog is drawn on the page with its own words; Cancel sends nothing, Complete does", async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const nativeDialogs: string[] = [];
    page.on('dialog', (d) => {
      nativeDialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${demo!.url}#user=U0PRIYA&c=C0LEADS`);
    await channelLink(page, 'care-leads').waitFor(WAIT);
    // The action the test above gave Oliver, marked urgent in the care system: its alert in #care-leads asks before Complete.
    const meds = (await demo!.backend.simulate.listSimulatableActions()).find((a) => a.title.includes('Take Mr Ahmed his evening meds'));
    expect(meds?.no, 'the action the test above made').toBeTruthy();
    expect(await simulate(page, 'urgent', String(meds!.no))).toMatch(/marked urgent/);
    await actAs(page, 'U0PRIYA');
    await openConversation(page, 'care-leads');
    const alert = messages(page).filter({ hasText: 'Take Mr Ahmed his evening meds' }).last();
    await alert.waitFor(WAIT);

    await alert.locator('button', { hasText: 'Complete' }).click();
    const dialog = confirmDialog(page);
    await dialog.waitFor(WAIT);
    expect(await dialog.locator('.confirm-title').textContent()).toBe(`Complete action #${meds!.no}?`);
    expect(await dialog.locator('.confirm-text').textContent()).toContain('assigned to Oliver Bennett');
    expect(await dialog.locator('button').allTextContents()).toEqual(['Cancel', 'Complete']);
    await page.screenshot({ path: join(SHOTS, '8-confirm-dialog.png') });
    await dialog.locator('button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', ...WAIT });
    await page.waitForTimeout(500);
    expect(await alert.locator('.bk-section', { hasText: /Completed by/ }).count()).toBe(0); // nothing was sent

    await alert.locator('button', { hasText: 'Complete' }).click();
    await dialog.locator('button', { hasText: 'Complete' }).click();
    // The row under the alert (the headline above it now says "was completed by" too).
    await alert.locator('.bk-section', { hasText: /Completed by/ }).waitFor(WAIT);
    expect(nativeDialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it.skipIf(!hasChromium)('Advance to next shift change moves the clock shown to the next 07:00 or 19:00 London', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${demo!.url}#user=U0AMELIA&c=C0CARE`);
    await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
    const shown = async () => ((await page.locator('#clock').textContent()) ?? '').trim();
    await expect.poll(shown, WAIT).toMatch(/\d\d:\d\d/);
    // The clock as the page shows it (Europe/London): "Thu 26 Nov, 08:00 (Europe/London)".
    const hourOf = (text: string) => Number(/(\d\d):(\d\d)/.exec(text)![1]) + Number(/(\d\d):(\d\d)/.exec(text)![2]) / 60;
    for (let i = 0; i < 3; i++) {
      const before = await shown();
      const expected = hourOf(before) >= 7 && hourOf(before) < 19 ? '19:00' : '07:00';
      const toast = await simulate(page, 'shift');
      expect(toast).toContain(`Clock moved to`);
      expect(toast).toContain(`${expected} (Europe/London): the ${expected === '07:00' ? 'Day' : 'Night'} shift begins`);
      await expect.poll(shown, WAIT).toContain(`, ${expected} (Europe/London)`);
      expect(await shown()).not.toBe(before);
    }
    await page.close();
  });

  it.skipIf(!hasChromium)(
    'works at a phone’s width: the workspace’s name whole, no sideways scrolling, no button narrower than its longest word, the thread below the header',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 400, height: 850 } });
      await page.goto(`${demo!.url}#user=U0AMELIA&c=C0CARE`);
      await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
      /** What the page would get wrong at this width: its scroll width, and buttons narrower than a word of theirs. */
      const problems = () =>
        page.evaluate(`(() => {
          const measure = document.createElement('canvas').getContext('2d');
          const narrow = [...document.querySelectorAll('button')].flatMap((b) => {
            if (b.offsetParent === null || b.getBoundingClientRect().width === 0) return [];
            const cs = getComputedStyle(b);
            measure.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
            const longest = Math.max(0, ...b.innerText.split(/\\s+/).map((w) => measure.measureText(w).width));
            const inner = b.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
            return inner + 0.5 < longest ? ['"' + b.innerText.trim() + '": ' + Math.round(inner) + 'px for a ' + Math.round(longest) + 'px word'] : [];
          });
          return { scrollWidth: document.scrollingElement.scrollWidth, narrow };
        })()`) as Promise<{ scrollWidth: number; narrow: string[] }>;
      const fits = async (where: string) => {
        const p = await problems();
        expect(p.scrollWidth, `the page's width ${where}`).toBeLessThanOrEqual(400);
        expect(p.narrow, `buttons narrower than a word ${where}`).toEqual([]);
      };
      await fits('in a channel');
      // The workspace's name is read whole, not cut to a couple of letters.
      await expect.poll(() => page.locator('#team-name').textContent(), WAIT).toBe('Brightwater Care');
      expect(await page.locator('#team-name').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await send(page, '/care mine');
      await messages(page)
        .filter({ has: page.locator('button') })
        .first()
        .waitFor(WAIT);
      await fits('with the cards of /care mine');
      await page.locator('#simulate-toggle').click();
      await fits('with the Simulate panel open');
      await page.locator('#simulate-panel [data-sim="digest"]').click();
      await page.locator('.toast', { hasText: 'Clock moved' }).first().waitFor(WAIT);
      // A real click: the open panel leaves its toggle in sight.
      await page.locator('#simulate-toggle').click();
      await fits('with a digest');
      await page.locator('.toast').evaluateAll((toasts) => {
        for (const t of toasts) t.remove();
      });
      await page.locator('#conv-body [data-kind="open-thread"]').last().dispatchEvent('click');
      const thread = page.locator('#thread');
      await thread.waitFor({ state: 'visible', ...WAIT });
      const [threadBox, headerBox] = [await thread.boundingBox(), await page.locator('.topbar').boundingBox()];
      expect(threadBox!.width).toBeGreaterThan(300);
      expect(threadBox!.y, 'the thread starts below the header').toBeGreaterThanOrEqual(headerBox!.y + headerBox!.height);
      await fits('with the thread open');
      await page.screenshot({ path: join(SHOTS, 'phone-thread.png') });
      await page.close();
    },
  );
});
