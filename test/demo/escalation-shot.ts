/**
 * Issue 27's picture: an urgent alert in the playground (`npm run demo`'s page) after its whole
 * escalation ladder ran — "Reminder sent in thread", "Escalated to @…", "Escalated to #general".
 * Amelia (an admin) names the seniors and the managers' channel; the Simulate menu marks an action
 * urgent (the changes poll alerts #care-leads); the demo's clock (and the care system's) is moved
 * 15, 30 and 45 minutes on, running the escalation job each time.
 *
 * Run: npx tsx test/demo/escalation-shot.ts [out.png]   (default /work/notes/shots/escalated-alert.png)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDemo } from '../../dev/demo/start-demo.js';
import { actAs, channelLink, clearToasts, hasChromium, launchChromium, messages, openConversation, simulate, WAIT } from './page-steps.js';

const OUT = process.argv[2] ?? '/work/notes/shots/escalated-alert.png';
const AMELIA = 'U0AMELIA';
const PRIYA = 'U0PRIYA';

if (!hasChromium) {
  console.error('No Chromium at /usr/bin/chromium.');
  process.exit(1);
}

const dataDir = await mkdtemp(join(tmpdir(), 'care-demo-escalation-'));
await mkdir(dirname(OUT), { recursive: true });
const demo = await startDemo({ port: 0, dataDir });
const browser = await launchChromium();
let failed = false;
try {
  const admin = { teamId: demo.fake.teamId, userId: AMELIA };
  const escalation = demo.app.deps.escalation!;
  await escalation.change(admin, { kind: 'managers', channel: { type: 'id', id: 'C0GENERAL' } });
  for (const shift of ['Day', 'Night'])
    await escalation.change(admin, {
      kind: 'seniors',
      shift,
      people: [
        { type: 'id', id: PRIYA },
        { type: 'id', id: AMELIA },
      ],
    });

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${demo.url}#user=${AMELIA}&c=C0LEADS`);
  await channelLink(page, 'care-leads').waitFor(WAIT);
  await actAs(page, AMELIA);

  const offered = await demo.backend.simulate.listSimulatableActions();
  const pick = offered.find((a) => !a.urgent && !a.completed);
  if (!pick) throw new Error('the Simulate menu offers no open, not urgent action');
  console.log(`marking #${pick.no} urgent: ${await simulate(page, 'urgent', String(pick.no))}`);
  const action = await demo.app.care.actions.retrieve(pick.id);
  const began = Date.parse(`${String(action.modified).replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(String(action.modified)) ? '' : 'Z'}`);

  for (const minutes of [15, 30, 45]) {
    const at = new Date(began + minutes * 60_000 + 2_000);
    const res = await fetch(`${demo.sandbox.controlsUrl}/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: at.toISOString() }),
    });
    if (!res.ok) throw new Error(`the care system's clock could not be moved: ${res.status}`);
    if (at.getTime() > demo.clock.nowMs()) demo.clock.jumpTo(at);
    const run = await demo.app.jobs.runOnce('escalations');
    console.log(`+${minutes} min: ${JSON.stringify(run.result)}`);
  }

  await openConversation(page, 'general');
  await openConversation(page, 'care-leads');
  const alert = messages(page)
    .filter({ hasText: `#${pick.no}` })
    .filter({ hasText: 'Escalated to' })
    .last();
  await alert.waitFor(WAIT);
  const text = await alert.innerText();
  for (const want of ['Reminder sent in thread', 'Escalated to', '#general']) {
    const ok = text.includes(want);
    console.log(`${ok ? 'ok    ' : 'NOT OK'} the alert says "${want}"`);
    failed ||= !ok;
  }
  await clearToasts(page);
  await alert.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  await page.mouse.move(5, 5);
  await page.screenshot({ path: OUT });
  console.log(`shot ${OUT}`);
} finally {
  await browser.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
