/**
 * Issue 33's answers in the playground (`npm run demo`'s page), driven in headless Chromium as Amelia (an admin
 * and senior) and Priya (a carer) would, each state shot at desktop (1280 wide) and phone (390 wide) width:
 *   alert-cant-{desktop,phone}.png          Amelia says "I can't" (with another resident) on an urgent alert
 *   alert-on-it-{desktop,phone}.png         Priya says "I'm on it" (confirmed in its form): "@priya is on it since …"
 *   two-person-1-of-2-{desktop,phone}.png   a two-person action after Priya's "I'm on it": "1 of 2 … need one more"
 *   history-notes-{desktop,phone}.png       the first action completed with a note: History lists the answers and notes
 * and checks what a person reads at each step (Advance 15 minutes sends nothing once someone is on it; the
 * two-person alert says it needs two before anyone answers, and closes when Amelia joins).
 * Run: npx tsx test/demo/shot-answers.ts [outdir]   (default docs/screens)
 * Emoji need a colour emoji font on the machine (Debian: fonts-noto-color-emoji).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import { actAs, channelLink, clearToasts, hasChromium, launchChromium, messages, modalOf, openConversation, send, simulate, WAIT } from './page-steps.js';
import { answerCant, answerOnIt, completeWithNote, joinAsSecond, urgentAlertOf } from './answer-steps.js';

const outDir = process.argv[2] ?? join('docs', 'screens');
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}
await mkdir(outDir, { recursive: true });
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-answers-'));
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok    ' : 'NOT OK'} ${what}`);
  failed ||= !ok;
};
const lineOf = (text: string, re: RegExp) => text.split('\n').find((l) => re.test(l)) ?? '(none)';

/** The page as `userId` sees #care-leads, at `size`. */
async function openAs(b: Browser, d: RunningDemo, userId: string, size: { width: number; height: number }): Promise<Page> {
  const page = await b.newPage({ viewport: size });
  page.on('pageerror', (err) => check(false, `the page has no script errors: ${err.message}`));
  await page.goto(`${d.url}#user=${userId}&c=C0LEADS`);
  await channelLink(page, 'care-leads').waitFor(WAIT);
  await actAs(page, userId);
  // A form the person has open (History) is open on every page of theirs, over the conversation.
  if (!(await modalOf(page).isVisible())) await openConversation(page, 'care-leads');
  return page;
}

/** Shoots `focus(page)` on `page` (desktop) and on a fresh phone-width page of the same person; `open` is done there first (e.g. a modal). */
async function shoot(page: Page, userId: string, name: string, focus: (p: Page) => Locator | null, open?: (p: Page) => Promise<void>): Promise<void> {
  const one = async (p: Page, file: string) => {
    await clearToasts(p);
    const el = focus(p);
    if (el) {
      await el.waitFor(WAIT);
      await el.evaluate((node) => node.scrollIntoView({ block: 'center' }));
    }
    await p.mouse.move(1, 1);
    await p.screenshot({ path: join(outDir, file) });
    console.log(`shot ${join(outDir, file)}`);
  };
  await one(page, `${name}-desktop.png`);
  const phone = await openAs(browser, demo, userId, PHONE);
  if (open) await open(phone);
  await one(phone, `${name}-phone.png`);
  await phone.close();
}

try {
  const amelia = await openAs(browser, demo, AMELIA, DESKTOP);
  const offered = await demo.backend.simulate.listSimulatableActions();
  const [first, second] = offered.filter((a) => !a.urgent && !a.completed);
  if (!first?.no || !second?.no) throw new Error('the Simulate menu offers fewer than two open, not urgent actions');
  const one = String(first.no);
  const two = String(second.no);

  // 1. An urgent alert; Amelia, busy with another resident, says she can't (with a note only History keeps).
  console.log(await simulate(amelia, 'urgent', one));
  await urgentAlertOf(amelia, one).waitFor(WAIT);
  await answerCant(amelia, one, 'with another resident', 'Helping Mr Jones back to bed; free in 10 minutes');
  const cantText = await urgentAlertOf(amelia, one).innerText();
  check(/@amelia can.t: with another resident/.test(cantText), `the alert shows the reason: "${lineOf(cantText, /can.t:/)}"`);
  check(!cantText.includes('Helping Mr Jones'), 'the alert does not show the note');
  await shoot(amelia, AMELIA, 'alert-cant', (p) => urgentAlertOf(p, one));

  // 2. Priya, acting as herself, says she is on it (asked first in its form).
  const priya = await openAs(browser, demo, PRIYA, DESKTOP);
  await answerOnIt(priya, one, 'Going now; will call the GP after');
  const onItText = await urgentAlertOf(priya, one).innerText();
  check(/@priya is on it since/.test(onItText), `the alert says who is on it: "${lineOf(onItText, /on it since/)}"`);
  check(!/I’m on it\nI can’t/.test(onItText), 'the alert stops asking');
  await shoot(priya, PRIYA, 'alert-on-it', (p) => urgentAlertOf(p, one));
  const advanced = await simulate(priya, 'minutes');
  check(advanced.includes('no escalation step was due'), `Advance 15 minutes sends nothing more: "${advanced}"`);

  // 3. A two-person action (a hoist): it says it needs two before anyone answers; Priya is 1 of 2; Amelia joins.
  await send(amelia, `/care two-staff ${two} on`);
  await messages(amelia)
    .filter({ hasText: `#${two} needs two staff` })
    .last()
    .waitFor(WAIT);
  console.log(await simulate(amelia, 'urgent', two));
  await urgentAlertOf(amelia, two).waitFor(WAIT);
  const fresh = await urgentAlertOf(amelia, two).innerText();
  check(fresh.includes('Needs two staff'), `the new alert says it needs two: "${lineOf(fresh, /two staff/)}"`);
  await priya.reload();
  await openConversation(priya, 'care-leads');
  await answerOnIt(priya, two, null);
  const oneOfTwo = await urgentAlertOf(priya, two).innerText();
  check(/1 of 2: @priya — need one more/.test(oneOfTwo), `the alert keeps asking: "${lineOf(oneOfTwo, /1 of 2/)}"`);
  check(oneOfTwo.includes('Join (I’ll be the second)'), 'the alert offers Join to the second person');
  await shoot(priya, PRIYA, 'two-person-1-of-2', (p) => urgentAlertOf(p, two));
  await joinAsSecond(amelia, two);
  const closed = await urgentAlertOf(amelia, two).innerText();
  check(
    /@amelia joined at/.test(closed) && !closed.includes('need one more') && !closed.includes('Join ('),
    `the alert closes: "${lineOf(closed, /joined at/)}"`,
  );

  // 4. Priya completes the first with a note; History lists the answers and notes.
  await completeWithNote(priya, one, 'Mrs Patel comfortable, GP called at 10:20, obs normal');
  const openHistory = async (p: Page) => {
    if (await modalOf(p).isVisible()) return;
    await urgentAlertOf(p, one).locator('button', { hasText: 'History' }).click();
    await p.locator('#modal-root form.bk-modal', { hasText: 'History of action' }).waitFor(WAIT);
  };
  await openHistory(priya);
  const history = await priya.locator('#modal-root form.bk-modal').innerText();
  for (const words of ['Helping Mr Jones back to bed', 'Going now; will call the GP after', 'Mrs Patel comfortable', 'with another resident'])
    check(history.includes(words), `History shows "${words}"`);
  await shoot(priya, PRIYA, 'history-notes', () => null, openHistory);
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
