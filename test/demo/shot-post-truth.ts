/**
 * Issue 32's tour in the playground (`npm run demo`'s page), driven in headless Chromium as Amelia (an admin),
 * Priya (a carer) and Val (a visitor with no care account); each state shot and checked for what a person reads:
 *   1-alert-open.png          an urgent alert in #care-leads (Take it)
 *   2-managers-post.png       its escalation in #general with no seniors named: says so, never "the seniors were asked"
 *   3-alert-completed.png     the same alert after the action was completed in the care system's web app: redrawn
 *   4-managers-completed.png  the managers' post, redrawn too
 *   5-edit-asks.png           Priya presses Edit on another alert: the form names the assignee; Save asks once
 *   6-edited.png              the post says "Edited by @priya: …" with Undo
 *   7-handover-refused.png    Val presses Accept handover: refused, the post unchanged
 * Run: npx tsx test/demo/shot-post-truth.ts [outdir]   (default /work/notes/shots/post-truth)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startDemo } from '../../dev/demo/start-demo.js';
import {
  actAs,
  channelLink,
  clearToasts,
  confirmDialog,
  hasChromium,
  launchChromium,
  messages,
  modalOf,
  openConversation,
  send,
  simulate,
  WAIT,
} from './page-steps.js';

const outDir = process.argv[2] ?? '/work/notes/shots/post-truth';
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';
const VAL = 'U0VISITOR';
if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}
await mkdir(outDir, { recursive: true });
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-post-truth-'));
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok    ' : 'NOT OK'} ${what}`);
  failed ||= !ok;
};
const shoot = async (page: Page, name: string, focus?: import('playwright-core').Locator) => {
  await clearToasts(page);
  if (focus) await focus.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  await page.mouse.move(5, 5);
  await page.screenshot({ path: join(outDir, name) });
  console.log(`shot ${join(outDir, name)}`);
};
const firstLine = (text: string, re: RegExp) => text.split('\n').find((l) => re.test(l)) ?? text.slice(0, 100);

/** The care system's clock and the app's, moved together (as the escalation picture does). */
async function moveClocksTo(at: Date): Promise<void> {
  const res = await fetch(`${demo.sandbox.controlsUrl}/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ set: at.toISOString() }),
  });
  if (!res.ok) throw new Error(`the care system's clock could not be moved: ${res.status}`);
  if (at.getTime() > demo.clock.nowMs()) demo.clock.jumpTo(at);
}

try {
  // Amelia names a managers' channel and no seniors (the default): the ladder's seniors step has nobody to reach.
  await demo.app.deps.escalation!.change({ userId: AMELIA }, { kind: 'managers', channel: { type: 'id', id: 'C0GENERAL' } });

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${demo.url}#user=${AMELIA}&c=C0LEADS`);
  await channelLink(page, 'care-leads').waitFor(WAIT);
  await actAs(page, AMELIA);

  const offered = await demo.backend.simulate.listSimulatableActions();
  const open = offered.filter((a) => !a.urgent && !a.completed);
  const [first, second] = open;
  if (!first || !second) throw new Error('the Simulate menu offers fewer than two open, not urgent actions');

  // 1. An urgent alert.
  console.log(`marking #${first.no} urgent: ${await simulate(page, 'urgent', String(first.no))}`);
  await openConversation(page, 'care-leads');
  const alert = messages(page)
    .filter({ hasText: `#${first.no}` })
    .last();
  await alert.waitFor(WAIT);
  check((await alert.innerText()).includes('Take it'), 'the new alert offers Take it');
  await shoot(page, '1-alert-open.png', alert);

  // 2. Its ladder: the thread reminder, the seniors' step (nobody named), the managers' post.
  const action = await demo.app.care.actions.retrieve(first.id);
  const began = Date.parse(`${String(action.modified).replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(String(action.modified)) ? '' : 'Z'}`);
  for (const minutes of [15, 30, 45]) {
    await moveClocksTo(new Date(began + minutes * 60_000 + 2_000));
    await demo.app.jobs.runOnce('escalations');
  }
  await openConversation(page, 'general');
  const managers = messages(page)
    .filter({ hasText: `#${first.no}` })
    .last();
  await managers.waitFor(WAIT);
  const managersText = await managers.innerText();
  check(!/seniors on shift were asked/i.test(managersText), 'the managers\u2019 post does not claim the seniors were asked');
  check(/no seniors are named/i.test(managersText), `the managers\u2019 post says why nobody was DMed: "${firstLine(managersText, /seniors/i)}"`);
  await shoot(page, '2-managers-post.png', managers);

  // 3 and 4. Completed in the care system's web app: the alert and the managers' post are redrawn within one poll.
  console.log(`completing #${first.no} in the web app: ${await simulate(page, 'complete', String(first.no))}`);
  await openConversation(page, 'care-leads');
  const redrawn = messages(page)
    .filter({ hasText: `#${first.no}` })
    .filter({ hasText: /completed/i })
    .last();
  await redrawn.waitFor({ timeout: 60_000 });
  const redrawnText = await redrawn.innerText();
  check(!redrawnText.includes('Take it'), `the alert no longer offers Take it: "${firstLine(redrawnText, /completed/i)}"`);
  await shoot(page, '3-alert-completed.png', redrawn);
  await openConversation(page, 'general');
  const managersNow = messages(page)
    .filter({ hasText: `#${first.no}` })
    .filter({ hasText: /completed/i })
    .last();
  await managersNow.waitFor({ timeout: 60_000 });
  check(true, `the managers\u2019 post follows: "${firstLine(await managersNow.innerText(), /completed/i)}"`);
  await shoot(page, '4-managers-completed.png', managersNow);

  // 5 and 6. Priya edits another alert from the channel: asked first, then "Edited by @priya" with Undo.
  console.log(`marking #${second.no} urgent: ${await simulate(page, 'urgent', String(second.no))}`);
  await actAs(page, PRIYA);
  await openConversation(page, 'care-leads');
  const other = messages(page)
    .filter({ hasText: `#${second.no}` })
    .last();
  await other.waitFor(WAIT);
  await other.locator('button', { hasText: 'Edit' }).first().click();
  const form = modalOf(page);
  await form.waitFor(WAIT);
  check(
    /Assigned to|Everyone in this channel/i.test(await form.innerText()),
    'the form opened from a channel post names the assignee and who will see the change',
  );
  await form
    .locator('input[type=checkbox]')
    .filter({ has: page.locator('xpath=..', { hasText: /urgent/i }) })
    .first()
    .uncheck()
    .catch(async () => {
      // The Urgent box by its label, however the form draws it.
      await form
        .locator('label', { hasText: /urgent/i })
        .first()
        .click();
    });
  await form.locator('button[type=submit]').click();
  await page.locator('#modal-root form.bk-modal', { hasText: /Save this change/i }).waitFor(WAIT);
  check(true, `Save asks once: "${firstLine(await modalOf(page).innerText(), /Save this change/i)}"`);
  await shoot(page, '5-edit-asks.png');
  await modalOf(page).locator('button[type=submit]').click();
  const edited = messages(page)
    .filter({ hasText: `#${second.no}` })
    .filter({ hasText: 'Edited by' })
    .last();
  await edited.waitFor({ timeout: 30_000 });
  const editedText = await edited.innerText();
  check(
    /Edited by @?priya/i.test(editedText) && editedText.includes('Undo'),
    `the post says who edited it, with Undo: "${firstLine(editedText, /Edited by/)}"`,
  );
  await shoot(page, '6-edited.png', edited);

  // 7. Handover: Val, with no care account, presses Accept handover.
  await actAs(page, AMELIA);
  await openConversation(page, 'care-team');
  await send(page, '/care handover here');
  await messages(page)
    .filter({ hasText: /handover/i })
    .last()
    .waitFor(WAIT);
  console.log(`shift change: ${await simulate(page, 'shift')}`);
  await actAs(page, VAL);
  await openConversation(page, 'care-team');
  const handover = messages(page)
    .filter({ has: page.locator('button', { hasText: 'Accept handover' }) })
    .last();
  await handover.waitFor({ timeout: 60_000 });
  await handover.locator('button', { hasText: 'Accept handover' }).click();
  // Slack's own "Accept the Day handover?" question comes first.
  await confirmDialog(page).locator('button', { hasText: 'Accept' }).click();
  const refusal = page.locator('.toast, article.msg-ephemeral', { hasText: /care account|link|only/i }).last();
  await refusal.waitFor(WAIT).catch(async (err) => {
    await page.screenshot({ path: join(outDir, 'debug-handover.png') });
    throw err;
  });
  check(
    !(await handover.innerText()).includes('Accepted by'),
    `Val is refused and the post is unchanged: "${(await refusal.innerText()).split('\n').filter(Boolean).pop()}"`,
  );
  await shoot(page, '7-handover-refused.png', handover);
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
