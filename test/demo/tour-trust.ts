/**
 * Issue 23's proof, again on demand: the playground (`npm run demo`'s page) driven in
 * headless Chromium as Sophie, Priya, Amelia and Val through each fixed moment, a
 * screenshot of each in .shots/issue-23/NN-name.png (git-ignored).
 *
 * Run: npx tsx test/demo/tour-trust.ts [out-dir]
 * It checks what each moment should show as it goes and prints one line per check
 * (ok / NOT OK); it exits 1 when a check failed. Emoji need a colour emoji font on the
 * machine (Debian: fonts-noto-color-emoji).
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';
import {
  actAs,
  channelLink,
  clearToasts,
  confirmDialog,
  field,
  hasChromium,
  launchChromium,
  messages,
  modalOf,
  openConversation,
  send,
  simulate,
  snoozeSelect,
  submitModal,
  WAIT,
} from './page-steps.js';

const OUT = process.argv[2] ?? join('.shots', 'issue-23');
const SOPHIE = 'U0SOPHIE';
const PRIYA = 'U0PRIYA';
const AMELIA = 'U0AMELIA';
const VAL = 'U0VISITOR';

if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}

// ---- checks and shots ----------------------------------------------------------
const failures: string[] = [];
function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok    ' : 'NOT OK'} ${what}${!ok && detail ? `\n         ${detail.replace(/\s+/g, ' ').slice(0, 400)}` : ''}`);
  if (!ok) failures.push(what);
}
/** Waits up to WAIT for `locator` to be there; false (not a throw) when it is not. */
async function appears(locator: Locator, timeout = WAIT.timeout): Promise<boolean> {
  return locator
    .first()
    .waitFor({ timeout })
    .then(() => true)
    .catch(() => false);
}
const textOf = async (l: Locator) => ((await l.count()) ? ((await l.first().innerText()) ?? '') : '');

let shotNo = 0;
async function shot(page: Page, name: string, options: { keepToasts?: boolean; fullPage?: boolean } = {}): Promise<void> {
  if (!options.keepToasts) await clearToasts(page);
  await page.mouse.move(5, 5); // no hover toolbar on a message
  const path = join(OUT, `${String(++shotNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  console.log(`  shot ${path}`);
}

/** Scrolls the conversation so `el` is at the top (or the bottom) of the pane. */
async function scrollTo(el: Locator, block: 'start' | 'end' | 'center' = 'start'): Promise<void> {
  await el.evaluate((node, b) => node.scrollIntoView({ block: b }), block);
}

// ---- the demo's data -------------------------------------------------------------
interface CareAction {
  id: string;
  no: string;
  task: string;
  urgent: boolean;
  due: Date | null;
  assignee: string | null;
}

async function careActions(demo: RunningDemo): Promise<CareAction[]> {
  const all = await demo.app.care.actions.collect({
    attributes: ['_id', 'action_no', 'task', 'completed', 'urgent', 'due', 'assigned_to'],
    filters: { completed: 'no' },
    per_page: 100,
    limit: 2000,
  } as never);
  return (all as Array<Record<string, unknown>>).map((a) => {
    const to = a.assigned_to as string | { _id?: string } | null | undefined;
    return {
      id: String(a._id),
      no: String(a.action_no ?? ''),
      task: String(a.task ?? ''),
      urgent: Boolean(a.urgent),
      due: typeof a.due === 'string' ? new Date(`${a.due.replace(' ', 'T')}Z`) : null,
      assignee: (typeof to === 'object' ? to?._id : to) ?? null,
    };
  });
}

/** The Slack person linked to a care user. */
function slackOf(demo: RunningDemo, careUserId: string | null): string | undefined {
  for (const [slack, care] of demo.setup.links) if (care === careUserId) return slack;
  return undefined;
}

/** The demo's clock, as a date two days back (dd/mm) for a due time that has passed. */
function twoDaysBack(demo: RunningDemo): string {
  const d = new Date(demo.clock.nowMs() - 2 * 86_400_000);
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: '2-digit', month: '2-digit' }).formatToParts(d);
  const part = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${part('day')}/${part('month')}`;
}

// ---- the tour --------------------------------------------------------------------
const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-tour-'));
await mkdir(OUT, { recursive: true });
for (const old of await readdir(OUT)) if (/^\d\d-.*\.png$/.test(old)) await rm(join(OUT, old)); // numbers start again
const demo = await startDemo({ port: 0, dataDir });
let browser: Browser | undefined;
try {
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${demo.url}#user=${SOPHIE}&c=C0CARE`);
  await channelLink(page, 'care-team').waitFor(WAIT);

  const open = await careActions(demo);
  const sophieCare = demo.setup.links.get(SOPHIE)!;
  const ownUrgent = open.find((a) => a.urgent && a.assignee === sophieCare);
  if (!ownUrgent) throw new Error('the demo data has no urgent open action of Sophie’s');
  // Someone else's overdue, not urgent action the Simulate menu offers: marked urgent, its alert (with Overdue) is Priya's to snooze.
  const offered = new Set((await demo.backend.simulate.listSimulatableActions()).map((a) => String(a.no)));
  const now = demo.clock.nowMs();
  const overdue = open.find(
    (a) =>
      !a.urgent &&
      a.due &&
      a.due.getTime() < now &&
      offered.has(a.no) &&
      [AMELIA, 'U0OLIVER'].includes(slackOf(demo, a.assignee) ?? '') &&
      !/[*_~`]/.test(a.task),
  );
  if (!overdue) throw new Error('the demo data has no overdue action of Amelia’s or Oliver’s in the Simulate menu');
  const overdueOwner = slackOf(demo, overdue.assignee)!;
  console.log(`Sophie's urgent action: #${ownUrgent.no} ${ownUrgent.task}; overdue action to mark urgent: #${overdue.no} ${overdue.task} (${overdueOwner})`);

  // 1. Sophie snoozes her own urgent action by +1 hour from /care mine; the poll finds no news in it.
  console.log('1. Sophie snoozes her own urgent action');
  await actAs(page, SOPHIE);
  await openConversation(page, 'app');
  await send(page, '/care mine');
  const mine = messages(page).filter({ hasText: 'Your open actions' }).last();
  await mine.waitFor(WAIT);
  const dueBefore = await textOf(mine.locator(`[data-block-id^="task_${ownUrgent.id}"], .bk-section`).filter({ hasText: `#${ownUrgent.no}` }));
  await snoozeSelect(mine, ownUrgent.id).selectOption({ label: '+1 hour' });
  const ownCard = messages(page)
    .filter({ hasText: `#${ownUrgent.no}` })
    .last();
  await page.waitForTimeout(500);
  check(`#${ownUrgent.no} snoozed at once (no question on her own card)`, await appears(modalOf(page), 1000).then((m) => !m));
  const dueAfter = await textOf(ownCard.locator('.bk-section').filter({ hasText: `#${ownUrgent.no}` }));
  check(`the card shows #${ownUrgent.no}'s new due time`, dueAfter !== '' && dueAfter !== dueBefore, `${dueBefore} -> ${dueAfter}`);
  await scrollTo(
    ownCard
      .locator('.bk-section')
      .filter({ hasText: `#${ownUrgent.no}` })
      .first(),
    'center',
  );
  await shot(page, 'sophie-snoozes-own-urgent');

  // The care system changes: the changes poll runs (Simulate marks someone else's overdue action urgent).
  const simText = await simulate(page, 'urgent', overdue.no);
  check('Simulate → Mark urgent ran the changes poll', /polled/.test(simText), simText);
  await page.waitForTimeout(1500);
  const assignedDm = messages(page).filter({ hasText: 'You were assigned' });
  check(`no "You were assigned" DM to Sophie about #${ownUrgent.no}`, (await assignedDm.count()) === 0, await textOf(assignedDm));
  await page.locator('#conv-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await shot(page, 'sophie-dm-after-poll-no-assigned', { keepToasts: true });
  await actAs(page, PRIYA);
  await openConversation(page, 'care-leads');
  const realAlert = messages(page)
    .filter({ hasText: `#${overdue.no}` })
    .filter({ hasText: /Urgent/ });
  check(`#care-leads: the real change (#${overdue.no} made urgent) is alerted`, await appears(realAlert));
  const falseAlert = messages(page).filter({ hasText: `Urgent action #${ownUrgent.no}` });
  check(`#care-leads: no "Urgent action #${ownUrgent.no}" alert for Sophie's snooze`, (await falseAlert.count()) === 0, await textOf(falseAlert));
  check(`the alert for overdue #${overdue.no} says Overdue`, /Overdue/.test(await textOf(realAlert)), await textOf(realAlert));
  await shot(page, 'care-leads-only-the-real-alert');

  // 2. An urgent action made in Slack is alerted at once.
  console.log('2. Sophie makes an urgent action in Slack');
  await actAs(page, SOPHIE);
  await openConversation(page, 'care-team');
  const bedRail = 'Bed rail loose in room 12';
  await send(page, `/care new ${bedRail} today 6pm`);
  const newForm = modalOf(page);
  await field(newForm, 'task').waitFor(WAIT);
  await field(newForm, 'urgent').locator('input[type=checkbox]').check();
  await shot(page, 'sophie-new-urgent-form');
  const clockBefore = demo.clock.nowMs();
  await submitModal(newForm);
  await actAs(page, PRIYA);
  await openConversation(page, 'care-leads');
  const bedAlert = messages(page).filter({ hasText: bedRail });
  const alertedAtOnce = await appears(bedAlert, 10_000);
  check(`#care-leads alerted "${bedRail}" at once (${Math.round((demo.clock.nowMs() - clockBefore) / 1000)} s, no poll waited for)`, alertedAtOnce);
  await scrollTo(bedAlert.first(), 'end');
  await shot(page, 'care-leads-urgent-from-slack-at-once');

  // 6. The Complete confirmation on a channel post: plain text with a name.
  console.log('6. Complete asks first on a channel post');
  await bedAlert.first().locator('button', { hasText: 'Complete' }).click();
  const dialog = confirmDialog(page);
  await dialog.waitFor(WAIT);
  const dialogText = await dialog.innerText();
  check('the Complete dialog names the assignee, no * or <@…>', /Sophie Marsh/.test(dialogText) && !/[*]|<@/.test(dialogText), dialogText);
  await shot(page, 'complete-confirm-dialog-plain-text');
  await dialog.locator('button', { hasText: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached', ...WAIT });

  // 4. Priya snoozes the overdue urgent action from its alert: asked first, then "Snoozed to … by @priya · Undo", and the assignee told.
  console.log('4. Priya snoozes an urgent overdue action from its alert in #care-leads');
  await scrollTo(realAlert.first(), 'start');
  await snoozeSelect(realAlert.first(), overdue.id).selectOption({ label: 'Next Monday, same time' });
  const ask = modalOf(page);
  await ask.waitFor(WAIT);
  await ask.locator('.modal-title', { hasText: 'Snooze action' }).waitFor(WAIT);
  await ask.locator('button[type=submit]').waitFor(WAIT);
  const askText = await ask.innerText();
  const ownerName = overdueOwner === AMELIA ? 'amelia' : 'oliver';
  check(
    `the question names #${overdue.no}, its assignee and the new time`,
    askText.includes(`#${overdue.no}`) && askText.includes(ownerName) && /to .+ at \d{1,2}:\d{2}/.test(askText),
    askText,
  );
  await shot(page, 'priya-snooze-asks-first');
  await submitModal(ask);
  const snoozedRow = realAlert.first().locator('.bk-section', { hasText: 'Snoozed to' });
  check('the post says "Snoozed to … by @priya · Undo"', await appears(snoozedRow), await textOf(realAlert));
  check('with an Undo button', await appears(realAlert.first().locator('button', { hasText: 'Undo' })));
  await scrollTo(realAlert.first(), 'start');
  await shot(page, 'care-leads-snoozed-by-priya-undo');

  await actAs(page, overdueOwner);
  await openConversation(page, 'app');
  const toldOwner = messages(page)
    .filter({ hasText: `#${overdue.no}` })
    .filter({ hasText: /snoozed/i });
  check(`the assignee (@${ownerName}) gets a DM saying Priya snoozed #${overdue.no}`, await appears(toldOwner), await textOf(messages(page).last()));
  await scrollTo(toldOwner.last(), 'end');
  await shot(page, `${ownerName}-told-of-snooze`);

  // 7. Undo pressed twice (her laptop and her phone, at once): one undoes, the other is refused with the reason.
  console.log('7. Undo pressed twice');
  await actAs(page, PRIYA);
  await openConversation(page, 'care-leads');
  const phone = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  phone.on('pageerror', (err) => pageErrors.push(err.message));
  await phone.goto(`${demo.url}#user=${PRIYA}&c=C0LEADS`);
  const undoHere = realAlert.first().locator('button', { hasText: 'Undo' });
  const undoThere = messages(phone)
    .filter({ hasText: `#${overdue.no}` })
    .filter({ hasText: /Urgent/ })
    .first()
    .locator('button', { hasText: 'Undo' });
  await undoHere.waitFor(WAIT);
  await undoThere.waitFor(WAIT);
  await Promise.all([undoHere.click(), undoThere.click()]);
  await page.waitForTimeout(2500); // both answers in
  const dueNow = (await careActions(demo)).find((a) => a.id === overdue.id)?.due;
  check(`the snooze was undone once: #${overdue.no} is due when it was before`, dueNow?.getTime() === overdue.due?.getTime(), `${dueNow?.toISOString()}`);
  const postText = await textOf(realAlert);
  check(
    'the post ends saying "Undone by @priya" with the due time put back (not still "Snoozed")',
    /Undone by/.test(postText) && !/Snoozed/.test(postText),
    postText,
  );
  const refusal = messages(page).filter({ hasText: 'This Undo was already used' });
  const refusalThere = messages(phone).filter({ hasText: 'This Undo was already used' });
  const refused = (await appears(refusal, 5000)) || (await appears(refusalThere, 1000));
  check('the other Undo is refused: "This Undo was already used…"', refused);
  const refusedPage = (await refusal.count()) ? page : phone;
  await refusedPage.locator('#conv-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await shot(refusedPage, 'undo-twice-second-refused', { keepToasts: true });
  await phone.close();
  await actAs(page, overdueOwner);
  await openConversation(page, 'app');
  const toldUndone = messages(page)
    .filter({ hasText: `#${overdue.no}` })
    .filter({ hasText: /undid|undone|put back/i });
  check(`@${ownerName} is told the snooze was undone`, await appears(toldUndone, 5000), await textOf(messages(page).last()));
  await page.locator('#conv-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await shot(page, `${ownerName}-told-snooze-undone`);

  // 3. Val asks to be linked; Amelia's approval form picks nobody and marks who is linked or has another email; Sophie is refused.
  console.log('3. Val asks to link; Amelia approves');
  await actAs(page, VAL);
  await openConversation(page, 'app');
  await send(page, '/care link');
  const asked = messages(page).filter({ hasText: /admin/ }).last();
  await asked.waitFor(WAIT);
  await shot(page, 'val-link-request-sent');
  await openConversation(page, 'home');
  const waiting = page.locator('#conv-body', { hasText: 'waiting for an admin' });
  check("Val's Home tab says the request is waiting for an admin", await appears(waiting));
  await shot(page, 'val-home-waiting-for-admin');

  await actAs(page, AMELIA);
  await openConversation(page, 'app');
  const request = messages(page)
    .filter({ has: page.locator('button', { hasText: 'Approve' }) })
    .last();
  await request.waitFor(WAIT);
  await scrollTo(request, 'end');
  await shot(page, 'amelia-link-request');
  await request.locator('button', { hasText: 'Approve' }).click();
  const approve = modalOf(page);
  await field(approve, 'link_care_user').waitFor(WAIT);
  check('the approval form picks nobody', (await field(approve, 'link_care_user').locator('.bk-chip').count()) === 0);
  await field(approve, 'link_care_user').locator('.bk-ext-query').focus();
  const options = field(approve, 'link_care_user').locator('.bk-ext-item');
  await options.first().waitFor(WAIT);
  const listed = (await options.allInnerTexts()).join('\n');
  check('the list marks care users already linked (⛔ linked)', /⛔/.test(listed), listed);
  check('and care users with another email (⚠ other email)', /⚠/.test(listed), listed);
  await shot(page, 'amelia-approve-form-marks');
  await field(approve, 'link_care_user').locator('.bk-ext-query').fill('Sophie');
  const sophieOption = options.filter({ hasText: 'Sophie Marsh' });
  await sophieOption.waitFor(WAIT);
  await sophieOption.dispatchEvent('mousedown');
  await field(approve, 'link_care_user').locator('.bk-chip', { hasText: 'Sophie Marsh' }).waitFor(WAIT);
  await approve.locator('button[type=submit]').click();
  const refusedLink = approve.locator('.bk-error, .modal-banner');
  check('linking Val to Sophie Marsh is refused, naming the existing link', await appears(refusedLink), await textOf(approve));
  check('  … with the name of whom she is linked to', /sophie|Sophie/.test(await textOf(refusedLink)), await textOf(refusedLink));
  await shot(page, 'amelia-approve-sophie-refused');
  await approve.locator('.modal-foot button', { hasText: 'Cancel' }).click();
  await approve.waitFor({ state: 'detached', ...WAIT });

  // 8. /care links → Unlink asks first.
  console.log('8. /care links → Unlink asks first');
  await send(page, '/care links');
  const links = messages(page)
    .filter({ has: page.locator('button', { hasText: 'Unlink' }) })
    .last();
  await links.waitFor(WAIT);
  await scrollTo(links, 'end');
  await shot(page, 'amelia-care-links');
  await links.locator('.bk-section', { hasText: '@sophie' }).locator('button', { hasText: 'Unlink' }).click();
  const unlinkAsk = confirmDialog(page);
  check('Unlink asks first', await appears(unlinkAsk));
  await shot(page, 'unlink-asks-first');
  await unlinkAsk.locator('button', { hasText: 'Cancel' }).click();
  await unlinkAsk.waitFor({ state: 'detached', ...WAIT });

  // 5. Task text in a public channel's digest takes a second yes.
  console.log('5. /care digest here --show-tasks in public #general');
  await openConversation(page, 'general');
  await send(page, '/care digest here 07:45 daily --show-tasks');
  const showReply = messages(page).filter({ hasText: 'Digest set for this channel' }).last();
  await showReply.waitFor(WAIT);
  check('the reply keeps task text hidden until confirmed', /hidden until you confirm/.test(await showReply.innerText()), await showReply.innerText());
  await scrollTo(showReply, 'end');
  await shot(page, 'general-digest-show-tasks-asks-again');
  await send(page, '/care digest now');
  const hiddenDigest = messages(page)
    .filter({ has: page.locator('.bk-header-text', { hasText: 'Care actions ·' }) })
    .last();
  await hiddenDigest.waitFor(WAIT);
  await page.waitForTimeout(1500);
  await scrollTo(hiddenDigest, 'start');
  await shot(page, 'general-digest-text-still-hidden');
  const digestHidden = await hiddenDigest.innerText();
  check('the digest names no task text before the second yes', !open.some((a) => a.task.length > 12 && digestHidden.includes(a.task)), digestHidden);
  await showReply.locator('button', { hasText: 'Show task text' }).click();
  const shownReply = messages(page).filter({ hasText: 'Task text is now shown' });
  check('pressed: "Task text is now shown … as you confirmed"', await appears(shownReply));
  await scrollTo(shownReply.first(), 'center');
  await shot(page, 'general-show-tasks-confirmed');
  const digestsBefore = await messages(page)
    .filter({ has: page.locator('.bk-header-text', { hasText: 'Care actions ·' }) })
    .count();
  await send(page, '/care digest now');
  const shownDigest = messages(page)
    .filter({ has: page.locator('.bk-header-text', { hasText: 'Care actions ·' }) })
    .nth(digestsBefore);
  await shownDigest.waitFor(WAIT);
  await page.waitForTimeout(1500);
  const digestShown = await shownDigest.innerText();
  check(
    'the next digest shows task text',
    open.some((a) => a.task.length > 12 && digestShown.includes(a.task)),
    digestShown,
  );
  check('  … and no longer says it is hidden', !/task text hidden/.test(digestShown), digestShown.slice(0, 300));
  await scrollTo(shownDigest.locator('.bk-section', { hasText: 'Most pressing' }).first(), 'start');
  await shot(page, 'general-digest-text-shown-after-yes');

  // 9. Typed due times.
  console.log('9. Typed due times');
  await actAs(page, SOPHIE);
  await openConversation(page, 'app');
  const past = twoDaysBack(demo);
  await send(page, `/care Check fridge temps ${past} 14:00`);
  const pastForm = modalOf(page);
  const passed = page.locator('#modal-root, #conv-body').filter({ hasText: /has passed/ });
  check(
    `"/care Check fridge temps ${past} 14:00" says it has passed`,
    await appears(passed),
    (await textOf(pastForm)) || (await textOf(messages(page).last())),
  );
  await shot(page, 'typed-date-just-past');
  if (await pastForm.count()) {
    // Create as it stands: what does a due time that has passed do?
    await pastForm.locator('button[type=submit]').click();
    await page.waitForTimeout(1500);
    const stillOpen = await modalOf(page).count();
    console.log(
      `  Create with the past due time: ${stillOpen ? `the form stays: ${(await textOf(modalOf(page).locator('.bk-error, .modal-banner'))) || '(no error shown)'}` : 'created'}`,
    );
    await shot(page, 'typed-date-just-past-create');
    if (stillOpen) {
      await modalOf(page).locator('.modal-foot button', { hasText: 'Cancel' }).click();
      await modalOf(page).waitFor({ state: 'detached', ...WAIT });
    }
  }
  await send(page, '/care Call the GP tomorrow');
  const gpForm = modalOf(page);
  await field(gpForm, 'task').waitFor(WAIT);
  check('"/care Call the GP tomorrow" opens the form saying "Read as /care new"', /Read as/.test(await gpForm.innerText()), await gpForm.innerText());
  check('  … task "Call the GP"', (await field(gpForm, 'task').locator('textarea').inputValue()) === 'Call the GP');
  await shot(page, 'typed-words-read-as-new');
  await gpForm.locator('.modal-foot button', { hasText: 'Cancel' }).click();
  await gpForm.waitFor({ state: 'detached', ...WAIT });
  await send(page, '/care new Check :fire: doors tomorrow 10am');
  const fireForm = modalOf(page);
  await field(fireForm, 'task').waitFor(WAIT);
  const fireTask = await field(fireForm, 'task').locator('textarea').inputValue();
  check('"/care new Check :fire: doors tomorrow 10am" keeps "Check :fire: doors"', fireTask === 'Check :fire: doors', fireTask);
  await shot(page, 'typed-emoji-task-kept');
  await fireForm.locator('.modal-foot button', { hasText: 'Cancel' }).click();
  await fireForm.waitFor({ state: 'detached', ...WAIT });

  // 10. Task text verbatim on an urgent alert; Admin Status after a quiet spell.
  console.log('10. Verbatim task text; Admin Status after a quiet spell');
  await actAs(page, AMELIA);
  await openConversation(page, 'care-team');
  const starred = '*URGENT* call bell not working in room 7';
  await send(page, `/care new ${starred}`);
  const starForm = modalOf(page);
  await field(starForm, 'task').waitFor(WAIT);
  await field(starForm, 'task').locator('textarea').fill(starred);
  await field(starForm, 'due_date').locator('input[type=date]').fill(new Date(demo.clock.nowMs()).toISOString().slice(0, 10));
  await field(starForm, 'due_time').locator('input[type=time]').fill('23:30');
  await field(starForm, 'urgent').locator('input[type=checkbox]').check();
  await submitModal(starForm);
  await openConversation(page, 'care-leads');
  // Slack has no escape for * in mrkdwn: the app shows the typed stars as look-alikes (∗, U+2217), so they are not bold.
  const starAlert = messages(page).filter({ hasText: /[*\u2217]URGENT[*\u2217] call bell/ });
  check('the alert shows "*URGENT*" as typed (stars, not bold)', await appears(starAlert), await textOf(messages(page).last()));
  check(
    '  … no bold inside the task text',
    !(await starAlert
      .first()
      .locator('b, strong', { hasText: /URGENT/ })
      .count()),
  );
  await scrollTo(starAlert.first(), 'end');
  await shot(page, 'care-leads-task-text-verbatim');

  // A quiet spell: the clock moves to the next morning's digests; the poll runs on its own (every 60 s).
  const moved = await simulate(page, 'digest');
  check('Simulate → Advance clock to next digest', /Clock moved/.test(moved), moved);
  const jumpedAt = Date.now();
  await openConversation(page, 'home');
  const status = page.locator('#conv-body .bk', { hasText: 'Changes poll' });
  let statusText = '';
  while (Date.now() - jumpedAt < 150_000) {
    await openConversation(page, 'app');
    await openConversation(page, 'home');
    await page.waitForTimeout(3000);
    statusText = await textOf(status);
    if (/no changes since/.test(statusText) && !/late/.test(statusText)) break;
  }
  check('Admin Status says "no changes since …", not a lag of hours', /no changes since/.test(statusText) && !/lag:/.test(statusText), statusText);
  await scrollTo(status.first(), 'center');
  await shot(page, 'amelia-home-status-quiet-night');

  // After every poll of the tour (the quiet night's too): still no false news about Sophie's snooze.
  await actAs(page, SOPHIE);
  await openConversation(page, 'app');
  check('at the end: Sophie has had no "You were assigned" DM', (await messages(page).filter({ hasText: 'You were assigned' }).count()) === 0);
  await actAs(page, PRIYA);
  await openConversation(page, 'care-leads');
  check(
    `at the end: #care-leads has no alert for #${ownUrgent.no}`,
    (await messages(page)
      .filter({ hasText: `Urgent action #${ownUrgent.no}` })
      .count()) === 0,
  );

  // 11. The Home tab at a phone's width.
  console.log("11. The Home tab at a phone's width");
  const narrow = await browser.newPage({ viewport: { width: 400, height: 860 } });
  narrow.on('pageerror', (err) => pageErrors.push(err.message));
  await narrow.goto(`${demo.url}#user=${SOPHIE}&c=home`);
  await narrow.locator('#conv-body .bk-home').waitFor(WAIT);
  await narrow.waitForTimeout(1000);
  await shot(narrow, 'sophie-home-400px');
  await narrow.locator('#conv-body').evaluate((el) => (el.scrollTop = el.clientHeight - 80));
  await shot(narrow, 'sophie-home-400px-scrolled');
  await narrow.close();

  check('no errors on the page', pageErrors.length === 0, pageErrors.join(' | '));
} finally {
  await browser?.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
console.log(failures.length ? `\n${failures.length} check(s) NOT OK:\n- ${failures.join('\n- ')}` : '\nAll checks ok.');
process.exit(failures.length ? 1 : 0);
