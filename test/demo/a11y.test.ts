/**
 * WCAG 2.2 AA (axe-core's A and AA rules, in Chromium) on every HTML page the app and the playground serve:
 * the many-workspace deployment's install page and its OAuth result page, and the playground (`npm run demo`) with
 * a modal and the Simulate panel open, at desktop and phone width; then a keyboard-only walk of the playground.
 *
 * The connect-care form is a Slack modal (views.open), drawn by Slack's own clients, not a page the app serves;
 * the playground's modal check covers how the playground draws Block Kit modals.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import { startMultiHarness, type MultiHarness } from '../e2e/multi-harness.js';
import { axeViolations, describeFindings, focused, pageAt, tabUntil, VIEWPORTS } from './a11y-steps.js';
import { cardFor, CHROMIUM, fillNewActionModal, hasChromium, launchChromium, messages, modalOf, openConversation, submitModal, WAIT } from './page-steps.js';

if (!hasChromium) console.warn(`test/demo/a11y.test.ts: SKIPPED, no Chromium at ${CHROMIUM} (Debian: apt-get install chromium).`);

type Viewport = keyof typeof VIEWPORTS;
const viewports = Object.keys(VIEWPORTS) as Viewport[];

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const findings = await axeViolations(page);
  console.info(`axe ${where}: ${describeFindings(findings)}`);
  expect.soft(findings, `axe-core WCAG 2.2 AA violations on ${where}:\n${describeFindings(findings)}`).toEqual([]);
}

describe('the install page and its result page (many-workspace deployment) meet WCAG 2.2 AA', () => {
  let h: MultiHarness | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    h = await startMultiHarness();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  for (const size of viewports) {
    it.skipIf(!hasChromium)(`/slack/install at ${size} width`, async () => {
      const page = await pageAt(browser!, VIEWPORTS[size]);
      const res = await page.goto(`${h!.base}/slack/install`);
      expect(res?.status()).toBe(200);
      // The person can find the way on: a link to Slack's authorize page, named "Add to Slack".
      await expect.poll(() => page.getByRole('link', { name: /Add to Slack/ }).count()).toBe(1);
      await expectNoViolations(page, `the install page (${size})`);
      await page.close();
    });

    it.skipIf(!hasChromium)(`the page after a failed install at ${size} width`, async () => {
      const page = await pageAt(browser!, VIEWPORTS[size]);
      // A callback without state (an expired or foreign link): the app's own failure page.
      const res = await page.goto(`${h!.base}/slack/oauth_redirect?code=x`);
      expect(res?.status()).toBe(400);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Care Actions was not installed');
      await expectNoViolations(page, `the install failure page (${size})`);
      await page.close();
    });
  }
});

describe('the playground (npm run demo) meets WCAG 2.2 AA, keyboard-only use included', () => {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-a11y-'));
    demo = await startDemo({ port: 0, dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function open(size: Viewport): Promise<Page> {
    const page = await pageAt(browser!, VIEWPORTS[size]);
    await page.goto(`${demo!.url}#user=U0SOPHIE&c=C0CARE`);
    await expect.poll(() => page.locator('#conv-head').textContent(), WAIT).toContain('care-team');
    await expect.poll(() => page.locator('#user-select').inputValue(), WAIT).toBe('U0SOPHIE');
    await page.locator('#sidebar .nav-item').first().waitFor(WAIT);
    return page;
  }

  for (const size of viewports) {
    it.skipIf(!hasChromium)(
      `the main screen, a modal open, a card, the Simulate panel open and the Home tab, at ${size} width`,
      async () => {
        const page = await open(size);
        await expectNoViolations(page, `the playground's main screen (${size})`);

        // A modal from a slash command, filled in (an external select's menu among its fields), then its answer: a card.
        const modal = await fillNewActionModal(page, demo!, 'Check the hoist in room 4', 'Willow Bank seniors');
        await expectNoViolations(page, `the playground with the New care action modal open (${size})`);
        await submitModal(modal);
        await cardFor(page, 'Check the hoist in room 4').waitFor(WAIT);
        await expectNoViolations(page, `the playground with the app's card (${size})`);

        await page.locator('#simulate-toggle').click();
        await page.locator('#simulate-panel').waitFor(WAIT);
        await expect.poll(() => page.locator('#sim-action option').count(), WAIT).toBeGreaterThan(0);
        await expectNoViolations(page, `the playground with the Simulate panel open (${size})`);
        await page.locator('#simulate-toggle').click();

        // The app's Home tab: lists with buttons and menus.
        await openConversation(page, 'home');
        await page.locator('#conv-body button').first().waitFor(WAIT);
        await expectNoViolations(page, `the playground's Home tab (${size})`);
        await page.close();
      },
      120_000,
    );
  }

  it.skipIf(!hasChromium)(
    'keyboard only: switch "Acting as", reach the message box, send /care help, open and close a modal, focus always visible',
    async () => {
      const page = await open('desktop');
      const isFocused = (selector: string) => () => page.locator(selector).evaluate((el) => el === el.ownerDocument.activeElement);
      const unseen: string[] = [];

      // Acting as: the first stop; the arrow keys choose another person.
      const toSelect = await tabUntil(page, isFocused('#user-select'));
      expect(toSelect.reached, 'Tab reaches "Acting as"').toBe(true);
      unseen.push(...toSelect.unseen);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(`!location.hash.includes('user=U0SOPHIE')`, undefined, WAIT);
      const actingAs = await page.locator('#user-select').inputValue();
      expect(actingAs).not.toBe('U0SOPHIE');

      // On to the message box, and /care help sent with Enter.
      const toComposer = await tabUntil(page, isFocused('#composer-input'));
      expect(toComposer.reached, 'Tab reaches the message box').toBe(true);
      unseen.push(...toComposer.unseen);
      const before = await messages(page).count();
      await page.keyboard.type('/care help');
      await page.keyboard.press('Enter');
      await expect.poll(() => messages(page).count(), WAIT).toBeGreaterThan(before);
      expect(await messages(page).last().textContent()).toContain('/care new');

      // A modal from the message box: focus goes into it, every control is reached and seen, Escape closes it
      // and the keyboard is back where it was.
      await page.keyboard.type('/care new Check the hoist in room 4');
      await page.keyboard.press('Enter');
      const modal = modalOf(page);
      await modal.waitFor(WAIT);
      expect(await modal.evaluate((m) => m.contains(m.ownerDocument.activeElement)), 'focus moves into the open modal').toBe(true);
      const submit = modal.locator('button[type=submit]');
      const toSubmit = await tabUntil(page, () => submit.evaluate((el) => el === el.ownerDocument.activeElement), 40);
      expect(toSubmit.reached, "Tab reaches the modal's submit button").toBe(true);
      unseen.push(...toSubmit.unseen);
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached', ...WAIT });
      expect.soft((await focused(page))?.name ?? 'nothing (the page)', 'focus after Escape').toContain('#composer-input');

      console.info(`keyboard walk, focus stops not seen: ${unseen.join('; ') || 'none'}`);
      expect.soft(unseen, 'every focus stop is visibly indicated and on screen').toEqual([]);
      await page.close();
    },
    120_000,
  );
});
