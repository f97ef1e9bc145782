/**
 * A handover post in the playground (`npm run demo`'s page), shot in headless Chromium:
 * Amelia sets #care-leads up for handovers (task text shown: a private channel), the
 * handover job runs for the shift on now, and the post is shot as Priya sees it; then
 * Priya presses Accept handover and the post, updated, is shot again.
 * Run: npx tsx test/demo/shot-handover.ts [out.png]  (the accepted one: out-accepted.png)
 * Emoji need a colour emoji font on the machine (Debian: fonts-noto-color-emoji).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../dev/demo/start-demo.js';
import { actAs, channelLink, clearToasts, confirmDialog, hasChromium, launchChromium, messages, openConversation, WAIT } from './page-steps.js';

const out = process.argv[2] ?? join('.shots', 'handover.png');
if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-handover-'));
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
try {
  // Set up as at the start of the shift on now, so the job hands it over at once (the command would wait for the next change).
  const channels = [{ channelId: 'C0LEADS', showTasks: true, channelPrivate: true, publicConfirmed: false, setUpBy: 'U0AMELIA', at: 0 }];
  await demo.app.store.setHomeSetting(demo.fake.teamId, 'handover-channels', JSON.stringify(channels), 'U0AMELIA');
  const run = await demo.app.jobs.runOnce('handovers');
  console.log('handover job:', JSON.stringify(run));
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await page.goto(`${demo.url}#user=U0PRIYA&c=C0LEADS`);
  await channelLink(page, 'care-leads').waitFor(WAIT);
  await actAs(page, 'U0PRIYA');
  await openConversation(page, 'care-leads');
  const post = messages(page).filter({ has: page.locator('.bk-header-text', { hasText: 'Handover:' }) });
  await post.waitFor(WAIT);
  await clearToasts(page);
  await post.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.mouse.move(5, 5);
  await page.screenshot({ path: out });
  console.log(`Saved ${out}`);
  await post.locator('button', { hasText: 'Accept handover' }).click();
  const dialog = confirmDialog(page);
  if (await dialog.isVisible().catch(() => false)) await dialog.locator('button', { hasText: 'Accept' }).last().click();
  await post.filter({ hasText: 'Accepted by' }).waitFor(WAIT);
  await clearToasts(page);
  await post.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await page.mouse.move(5, 5);
  const accepted = out.replace(/\.png$/, '-accepted.png');
  await page.screenshot({ path: accepted });
  console.log(`Saved ${accepted}`);
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
