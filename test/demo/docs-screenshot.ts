/**
 * Makes docs/playground.png for the README (1280x800): Sophie creates and
 * completes an action (the completion is routed to #care-team), then the
 * clock moves to the next digest and its thread is opened: the digest from
 * its top in the channel, the thread from its first section.
 * Run: npx tsx test/demo/docs-screenshot.ts [out.png]
 * Emoji need a colour emoji font on the machine (Debian: fonts-noto-color-emoji).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../dev/demo/start-demo.js';
import { advanceToNextDigest, cardFor, channelLink, fillNewActionModal, hasChromium, launchChromium, messages, submitModal, WAIT } from './page-steps.js';

const out = process.argv[2] ?? join('docs', 'playground.png');
if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-docs-'));
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${demo.url}#user=U0SOPHIE&c=C0CARE`);
  await channelLink(page, 'care-team').waitFor(WAIT);
  await submitModal(await fillNewActionModal(page, demo, 'Check the hoist in room 4', 'Willow Bank seniors'));
  await cardFor(page, 'Check the hoist in room 4').locator('button', { hasText: 'Complete' }).click();
  await messages(page).filter({ hasText: 'was completed' }).first().waitFor(WAIT);
  await advanceToNextDigest(page);
  const digest = messages(page).filter({ has: page.locator('.bk-header-text', { hasText: 'Care actions ·' }) });
  await digest.waitFor(WAIT);
  await digest.locator('.msg-replies').click();
  await page.locator('#thread-body article.msg').nth(1).waitFor(WAIT);
  await page.locator('.toast').evaluateAll((toasts) => {
    for (const t of toasts) t.remove();
  });
  // The digest from its top in the channel; the thread from its first reply (the parent is in the channel already).
  await digest.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page
    .locator('#thread-body article.msg')
    .nth(1)
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.mouse.move(640, 20); // no hover toolbar on a message
  await page.screenshot({ path: out });
  console.log(`Saved ${out}`);
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
