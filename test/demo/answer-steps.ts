/**
 * The answers to an urgent alert as a person gives them on the playground page (issue 33): "I can't" with a
 * reason, "I'm on it" (its form is the question asked first), Join as the second of two, Complete with note.
 * Shared by the browser test (answers.test.ts) and the screenshot tour (shot-answers.ts).
 */
import type { Locator, Page } from 'playwright-core';
import { confirmDialog, modalOf, WAIT } from './page-steps.js';

/** The urgent alert of action `no` in the open channel (not the app's private replies that name it too). */
export const urgentAlertOf = (page: Page, no: string): Locator =>
  page
    .locator('#conv-body article.msg:not(.msg-ephemeral)')
    .filter({ hasText: `Urgent action #${no}` })
    .first();

/** Who the page acts as, by handle (the "Acting as" menu says "Name (@handle)"). */
async function handleOf(page: Page): Promise<string> {
  const label = (await page.locator('#user-select option:checked').textContent()) ?? '';
  const m = /\(@([^)]+)\)/.exec(label);
  if (!m) throw new Error(`cannot tell who the page acts as: "${label}"`);
  return m[1]!;
}

async function submitForm(page: Page, note: string | null): Promise<void> {
  const form = modalOf(page);
  if (note) await form.locator('textarea').last().fill(note);
  await form.locator('button[type=submit]').click();
  await form.waitFor({ state: 'detached', ...WAIT });
}

/** "I can't" on the alert, with a reason from the list (its words) and an optional note; waits for the post to show it. */
export async function answerCant(page: Page, no: string, reason: string, note: string | null): Promise<void> {
  const me = await handleOf(page);
  await urgentAlertOf(page, no).locator('button', { hasText: 'I can’t' }).click();
  await modalOf(page).locator('select').first().selectOption({ label: reason });
  await submitForm(page, note);
  await urgentAlertOf(page, no)
    .filter({ hasText: `@${me} can't: ${reason}` })
    .waitFor(WAIT);
}

/** "I'm on it" on the alert, confirmed in its form with an optional note; waits for the post to say so. */
export async function answerOnIt(page: Page, no: string, note: string | null): Promise<void> {
  const me = await handleOf(page);
  await urgentAlertOf(page, no).locator('button', { hasText: 'I’m on it' }).click();
  await modalOf(page).waitFor(WAIT);
  await submitForm(page, note);
  await urgentAlertOf(page, no)
    .filter({ hasText: `@${me} is on it since` })
    .waitFor(WAIT);
}

/** Join (the second of two staff), accepting Slack's question; waits for the post to say so. */
export async function joinAsSecond(page: Page, no: string): Promise<void> {
  const me = await handleOf(page);
  await urgentAlertOf(page, no).locator('button', { hasText: 'Join' }).click();
  await confirmDialog(page).locator('button', { hasText: 'Join' }).click();
  await urgentAlertOf(page, no)
    .filter({ hasText: `@${me} joined at` })
    .waitFor(WAIT);
}

/** "Complete with note…" from the alert's ⋯ menu; waits for the alert to say it was completed. */
export async function completeWithNote(page: Page, no: string, note: string): Promise<void> {
  await urgentAlertOf(page, no).locator('select.bk-overflow').selectOption({ label: 'Complete with note…' });
  await modalOf(page).waitFor(WAIT);
  await submitForm(page, note);
  await urgentAlertOf(page, no).filter({ hasText: 'was completed' }).waitFor(WAIT);
}
