/**
 * Post redraw (issue 32): 200 live urgent alerts in 20 channels (10 a channel) whose actions are all completed in
 * the care system's web app, seen by one poll: every alert is drawn again, as completed, under Slack's limits.
 *   npx tsx bench/post-redraw.ts          (npm run bench:redraw)
 *
 * The real app (composeApp through test/e2e/harness.ts), the care API sandbox, the Slack fake with today's rate
 * limits on (chat.update Tier 3: 50 a minute per workspace; posts 1 a second per channel), on loopback. The bench
 * posts the alerts itself (10 a channel, at Slack's pace) and records each in the app's delivery ledger as the
 * urgent-alert path does, so only the redraws are timed. Then one web-app completion each, and the changes poll run
 * until every alert reads completed.
 * Prints a markdown table (Measure | Result | Bound); asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { WebClient } from '@slack/web-api';
import { careWorkspace } from '../dev/demo/care-workspace.js';
import { deliveryActionId, deliveryKind, poll } from '../test/e2e/fixtures/jobs-support.js';
import { type Harness, startHarness, webAppAction } from '../test/e2e/harness.js';

const CHANNELS = 20;
const PER_CHANNEL = 10;
const ALERTS = CHANNELS * PER_CHANNEL;
const START = new Date('2027-06-15T09:00:00Z');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const workspace = careWorkspace();
  const channelIds = Array.from({ length: CHANNELS }, (_, i) => `C0WARD${String(i).padStart(2, '0')}`);
  workspace.channels.push(...channelIds.map((id, i) => ({ id, name: `ward-${i}`, isPrivate: true, members: ['U0AMELIA', 'U0BOT'], purpose: 'Ward' })));
  const h: Harness = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, workspace, logLevel: 'error' });
  try {
    const team = h.fake.teamId;
    await poll(h); // the first look
    // 200 urgent actions made in the web app, and their alerts: posted in the ward channels (10 each) and recorded in
    // the ledger as the urgent-alert path records them (kind `urgent`, occurrence: the version alerted).
    const due = new Date(START.getTime() + 3 * 3_600_000);
    const slack = new WebClient(h.fake.botToken, { slackApiUrl: h.fake.apiUrl });
    const actions: { _id: string; action_no: string; modified?: unknown }[] = [];
    for (let i = 0; i < ALERTS; i++) actions.push(await webAppAction(h, { task: `Urgent round check ${i}`, due, urgent: true }));
    await Promise.all(
      channelIds.map(async (channel, c) => {
        for (let k = 0; k < PER_CHANNEL; k++) {
          const a = actions[c * PER_CHANNEL + k]!;
          const key = { kind: 'urgent', actionId: a._id, occurrence: String(a.modified), recipient: `channel:${team}/${channel}` };
          const claim = await h.app.store.claimDelivery(key, { holder: 'bench', staleAfterMs: 60_000 });
          const res = await slack.chat.postMessage({
            channel,
            text: `Urgent action #${a.action_no}`,
            metadata: { event_type: 'care_delivery', event_payload: { delivery_id: String(claim.delivery.id), kind: 'urgent', action_id: a._id } },
          });
          await h.app.store.markSent(claim.delivery.id, { channel, ts: res.ts! });
        }
      }),
    );
    const posted = alerts(h, channelIds);
    console.error(`${posted.length} alerts in ${new Set(posted.map((m) => m.channel)).size} channels`);

    await h.setTime(new Date(h.now().getTime() + 5_000));
    for (const a of actions) await h.control(`actions/${a._id}/complete`, {});
    await h.setTime(new Date(h.now().getTime() + 2_000));
    const calls0 = h.fake.state.calls.length;
    const limited0 = h.fake.rateLimits().limited;
    const started = performance.now();
    let polls = 0;
    let last = 0;
    while (redrawn(h, channelIds) < posted.length && polls < 40) {
      await poll(h);
      polls++;
      last = performance.now() - started;
    }
    const calls = h.fake.state.calls.slice(calls0);
    const count = (method: string, ok?: boolean) => calls.filter((c) => c.method === method && (ok === undefined || (c.result.ok === true) === ok)).length;
    const perChannel = new Map<string, number>();
    for (const c of calls)
      if (c.method === 'chat.update' && c.result.ok === true) perChannel.set(String(c.args.channel), (perChannel.get(String(c.args.channel)) ?? 0) + 1);
    const done = redrawn(h, channelIds);
    const rows: [string, string, string][] = [
      ['Alerts drawn again as completed', `${done} of ${posted.length}`, `${posted.length}`],
      ['Polls run until the last redraw', String(polls), '1 (the rest: Slack’s pace)'],
      [
        'Time to the last redraw',
        secs(last),
        `${secs(PER_CHANNEL * 1000)} at 1 post/s per channel; ${secs(((ALERTS - 50) / 50) * 60_000)} at Tier 3 (50/min, burst 50)`,
      ],
      ['chat.update (ok / refused)', `${count('chat.update', true)} / ${count('chat.update', false)}`, `${ALERTS} / 0`],
      ['chat.update per channel (max)', String(Math.max(0, ...perChannel.values())), String(PER_CHANNEL)],
      ['Slack 429s answered by the fake', String(h.fake.rateLimits().limited - limited0), '0 (paced under the limits)'],
      ['Other Slack calls', summary(calls.filter((c) => c.method !== 'chat.update')), ''],
    ];
    console.log('| Measure | Result | Bound |\n|---|---|---|');
    for (const [m, r, b] of rows) console.log(`| ${m} | ${r} | ${b} |`);
  } finally {
    await h.close();
  }
}

function summary(calls: { method: string }[]): string {
  const by = new Map<string, number>();
  for (const c of calls) by.set(c.method, (by.get(c.method) ?? 0) + 1);
  return [...by].map(([m, n]) => `${m} ${n}`).join(', ') || 'none';
}

function alerts(h: Harness, channels: string[]) {
  return channels.flatMap((c) => h.fake.messages(c).filter((m) => deliveryKind(m) === 'urgent'));
}

function redrawn(h: Harness, channels: string[]): number {
  return alerts(h, channels).filter((m) => (m.text ?? '').includes('was completed') && deliveryActionId(m)).length;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
