/**
 * Issue 27's and 28's screens in the playground (`npm run demo`'s page), shot in headless Chromium, each
 * checked for what a person would read there:
 *   reassign-confirm.png  Amelia (admin) types `/care reassign @sophie to @priya`: the confirmation counts what moves
 *   reassign-done.png     after Move: the result, exactly what moved
 *   history.png           Priya opens History on one of the moved actions: who did what, when
 *   home-shift.png        Priya's Home tab: the shift on now
 * Run: npx tsx test/demo/shot-shift-work.ts [outdir]   (default /work/notes/shots)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../dev/demo/start-demo.js';
import { actAs, appDmLink, clearToasts, hasChromium, launchChromium, messages, modalOf, openConversation, send, WAIT } from './page-steps.js';

const outDir = process.argv[2] ?? '/work/notes/shots';
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';
if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}
await mkdir(outDir, { recursive: true });
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-shift-work-'));
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok    ' : 'NOT OK'} ${what}`);
  failed ||= !ok;
};
const shoot = async (page: import('playwright-core').Page, name: string) => {
  await clearToasts(page);
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(outDir, name) });
  console.log(`shot ${join(outDir, name)}`);
};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${demo.url}#user=${AMELIA}`);
  await appDmLink(page).waitFor(WAIT);
  await actAs(page, AMELIA);
  await openConversation(page, 'app');

  await send(page, '/care reassign @sophie to @priya');
  const modal = modalOf(page);
  await modal.waitFor(WAIT);
  const question = await modal.innerText();
  check(
    /Move \d+ open actions? from/.test(question),
    `the confirmation counts what moves: "${question.split('\n').find((l) => l.includes('Move')) ?? question.slice(0, 80)}"`,
  );
  await shoot(page, 'reassign-confirm.png');

  await modal.locator('button[type=submit]').click();
  await page.locator('#modal-root form.bk-modal', { hasText: /moved/i }).waitFor({ timeout: 120_000 });
  await page.locator('#modal-root form.bk-modal', { hasNotText: /Moving|moved \d+ of/i }).waitFor({ timeout: 120_000 });
  const result = await modalOf(page).innerText();
  check(/\d+ moved|moved \d+/i.test(result), `the result says what moved: "${result.split('\n').find((l) => /moved/i.test(l)) ?? ''}"`);
  await shoot(page, 'reassign-done.png');
  await page.keyboard.press('Escape');

  // Priya: the summary DM, History on one of the moved actions, and the Home tab's shift line.
  await actAs(page, PRIYA);
  await openConversation(page, 'app');
  const summary = messages(page)
    .filter({ hasText: /moved|reassigned|from @?Sophie/i })
    .last();
  await summary.waitFor(WAIT);
  check(true, `Priya's summary DM: "${(await summary.innerText()).split('\n').slice(0, 2).join(' ')}"`);

  await openConversation(page, 'home');
  const home = page.locator('#conv-body');
  await home.locator('text=/shift/').first().waitFor(WAIT);
  check(/(Day|Night) shift/.test(await home.innerText()), 'the Home tab shows the shift on now');
  await shoot(page, 'home-shift.png');

  const history = home.locator('button', { hasText: 'History' }).first();
  await history.waitFor(WAIT);
  await history.click();
  const historyModal = modalOf(page);
  await historyModal.waitFor(WAIT);
  const lines = await historyModal.innerText();
  check(/Reassigned|reassigned/.test(lines) && /Amelia|amelia/.test(lines), 'History names the reassign and who did it');
  await shoot(page, 'history.png');
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
