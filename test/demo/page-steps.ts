/**
 * What a person does on the playground page, as Playwright steps (shared by
 * the browser test and the README screenshot script).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { RunningDemo } from '../../dev/demo/start-demo.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const WAIT = { timeout: 15_000 };

/** This process's environment less libfaketime's (the page takes its clock from the demo, not the machine). */
function browserEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'LD_PRELOAD' && !k.startsWith('FAKETIME')) env[k] = v;
  return env;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Under `npm run test:clock` Chromium would run with libfaketime in every one of its processes,
    // many times slower; the playground reads "now" from the demo's clock, so it needs no moved clock.
    env: browserEnv(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const messages = (page: Page): Locator => page.locator('#conv-body article.msg');
export const channelLink = (page: Page, name: string): Locator => page.locator('#sidebar .nav-item', { hasText: new RegExp(`^\\W*${name}$`) });
export const appDmLink = (page: Page): Locator => page.locator('#sidebar .nav-item:has(.nav-app)');

/** Types a line in the message box and sends it with Enter. */
export async function send(page: Page, line: string): Promise<void> {
  await page.locator('#composer-input').fill(line);
  await page.locator('#composer-input').press('Enter');
}

/** `/care new <task>`, then fills Task, Due date (tomorrow), Due time and "Notify on completion" in the modal. */
export async function fillNewActionModal(page: Page, demo: RunningDemo, task: string, group: string): Promise<Locator> {
  await send(page, `/care new ${task}`);
  const modal = page.locator('#modal-root form.bk-modal');
  await modal.waitFor(WAIT);
  const field = (blockId: string) => modal.locator(`.bk-input[data-block-id="${blockId}"]`);
  await field('task').locator('textarea').fill(task);
  await field('due_date')
    .locator('input[type=date]')
    .fill(new Date(demo.clock.nowMs() + 86_400_000).toISOString().slice(0, 10));
  await field('due_time').locator('input[type=time]').fill('10:30');
  // An external select: the options come from the app (block_suggestion).
  await field('notify_on_complete').locator('.bk-ext-query').fill(group.split(' ')[0]!);
  const option = field('notify_on_complete').locator('.bk-ext-item', { hasText: group });
  await option.waitFor(WAIT);
  await option.click();
  await field('notify_on_complete').locator('.bk-chip', { hasText: group }).waitFor(WAIT);
  return modal;
}

/** Submits the open modal and waits for it to close. */
export async function submitModal(modal: Locator): Promise<void> {
  await modal.locator('button[type=submit]').click();
  await modal.waitFor({ state: 'detached', ...WAIT });
}

/** The app's (ephemeral) card for `task` with a Complete button. */
export function cardFor(page: Page, task: string): Locator {
  return messages(page)
    .filter({ hasText: task })
    .filter({ has: page.locator('button', { hasText: 'Complete' }) })
    .last();
}

/** Simulate -> "Advance clock to next digest"; waits for the result toast and closes the panel. */
export async function advanceToNextDigest(page: Page): Promise<string> {
  await page.locator('#simulate-toggle').click();
  await page.locator('#simulate-panel [data-sim="digest"]').click();
  const toast = page.locator('.toast', { hasText: 'Clock moved' }).first();
  await toast.waitFor(WAIT);
  const text = (await toast.textContent()) ?? '';
  await page.locator('#simulate-toggle').click();
  return text;
}

/** Acting as (top right): switches the page to `userId` and waits for it. */
export async function actAs(page: Page, userId: string): Promise<void> {
  await page.locator('#user-select').selectOption(userId);
  await page.waitForFunction(`location.hash.includes(${JSON.stringify(`user=${userId}`)})`, undefined, WAIT);
}

/** Opens the Home tab ('home'), the DM with the app ('app') or a channel by name, from the sidebar. */
export async function openConversation(page: Page, which: 'home' | 'app' | string): Promise<void> {
  const link = which === 'home' ? page.locator('#sidebar .nav-item[data-nav="home"]') : which === 'app' ? appDmLink(page) : channelLink(page, which);
  await link.click();
  await link.and(page.locator('.active')).waitFor(WAIT);
  if (which === 'home') await page.locator('#conv-head', { hasText: 'Home' }).waitFor(WAIT);
}

/** The modal on top (the app's form), and one of its inputs by block_id. */
export const modalOf = (page: Page): Locator => page.locator('#modal-root form.bk-modal');
export const field = (modal: Locator, blockId: string): Locator => modal.locator(`.bk-input[data-block-id="${blockId}"]`);

/** Slack's confirmation dialog of a button or menu (the page draws it in place of the browser's confirm box). */
export const confirmDialog = (page: Page): Locator => page.locator('.confirm-root .confirm-box');

/** The Snooze menu for the action with care Id `actionId` within `scope` (a card, a post, a list). */
export const snoozeSelect = (scope: Locator, actionId: string): Locator => scope.locator(`select:has(option[value$=":${actionId}"])`).first();

/** Simulate -> Complete in web app / Mark urgent (on action `no`) / Advance clock; waits for the result toast, closes the panel, returns its text. */
export async function simulate(page: Page, kind: 'complete' | 'urgent' | 'digest' | 'shift' | 'minutes', no?: string): Promise<string> {
  await page.locator('#simulate-toggle').click();
  if (no !== undefined) {
    const option = page.locator(`#sim-action option[value="${no}"]`);
    await option.waitFor({ state: 'attached', ...WAIT });
    await page.locator('#sim-action').selectOption(no);
  }
  // Toasts already shown are marked, so the one this act brings is told apart.
  await page.locator('.toast').evaluateAll((toasts) => {
    for (const t of toasts) t.setAttribute('data-seen', '');
  });
  await page.locator(`#simulate-panel [data-sim="${kind}"]`).click();
  const toast = page.locator('.toast:not([data-seen])').first();
  await toast.waitFor(WAIT);
  const text = (await toast.textContent()) ?? '';
  await page.locator('#simulate-toggle').click();
  return text.replace(/×$/, '');
}

/** Takes every toast off the page (before a screenshot whose point is elsewhere). */
export async function clearToasts(page: Page): Promise<void> {
  await page.locator('.toast').evaluateAll((toasts) => {
    for (const t of toasts) t.remove();
  });
}
