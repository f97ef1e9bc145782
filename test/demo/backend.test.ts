import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlaygroundInputError, type PlaygroundMessage, type PlaygroundState } from '../../dev/playground/backend.js';
import { startDemo, type RunningDemo } from '../../dev/demo/start-demo.js';

const SOPHIE = 'U0SOPHIE';
const CARE_TEAM = 'C0CARE';
const CARE_LEADS = 'C0LEADS';

describe('the demo backend (playground acts over the Slack fake, the real app and the sandbox)', () => {
  let demo: RunningDemo;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-backend-'));
    demo = await startDemo({ port: 0, dataDir });
  });
  afterAll(async () => {
    await demo?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Waits until the page's view of the state satisfies `pick`. */
  const until = <T>(pick: (s: PlaygroundState) => T, timeoutMs = 10_000) => demo.fake.waitFor(async () => pick(await demo.backend.snapshot()), { timeoutMs });
  const blocksText = (m: PlaygroundMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${demo.sandbox.controlsUrl}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { _id: string; action_no: string };
  };
  const willowSeniors = async () => {
    const groups = await demo.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    return groups.find((g) => g.name === 'Willow Bank seniors')!._id;
  };

  it('starts with linked people, a fresh database under the data dir, and everyone greeted in their DM', async () => {
    expect(await readdir(dataDir)).toContain('care-slack.sqlite');
    const links = await demo.app.store.listLinks(demo.fake.teamId);
    expect(links.map((l) => l.slackUserId).sort()).toEqual(['U0AMELIA', 'U0OLIVER', 'U0PRIYA', 'U0SOPHIE']);
    expect(links.every((l) => l.method === 'email')).toBe(true);
    const s = await demo.backend.snapshot();
    expect(s.users.find((u) => u.id === 'U0AMELIA')?.is_admin).toBe(true);
    const sophieIm = s.ims.find((d) => d.members.includes(SOPHIE))!;
    expect(s.messages[sophieIm.id]?.[0]?.text).toContain('Welcome');
    expect(s.clock?.time_zone).toBe('Europe/London');
  });

  it('answers a slash command with an ephemeral message that only the sender sees', async () => {
    const result = await demo.backend.sendSlashCommand(SOPHIE, CARE_TEAM, '/care help');
    expect(result.ok).toBe(true);
    const answer = await until((s) => s.ephemeral[SOPHIE]?.[CARE_TEAM]?.find((m) => blocksText(m).includes('/care new')));
    expect(answer.ephemeral).toBe(true);
    const s = await demo.backend.snapshot();
    expect(s.ephemeral.U0PRIYA?.[CARE_TEAM]).toBeUndefined();
    expect((s.messages[CARE_TEAM] ?? []).some((m) => blocksText(m).includes('/care new'))).toBe(false);
  });

  it('creates an action through the modal and completes it with a click named by block_id/action_id; the group is told', async () => {
    expect((await demo.backend.sendSlashCommand(SOPHIE, CARE_TEAM, '/care new Check the hoist in room 4')).ok).toBe(true);
    // The form replaces a "Loading…" view once the app knows Sophie's time zone.
    const modal = await until((s) => (s.modals[SOPHIE]?.at(-1)?.callback_id === 'care_action_modal' ? s.modals[SOPHIE]?.at(-1) : undefined));
    expect(modal.title?.text).toBe('New care action');
    const options = await demo.backend.suggestOptions(SOPHIE, { blockId: 'notify_on_complete', actionId: 'value', value: 'willow', viewId: modal.id });
    const willow = options.find((o) => o.text.text === 'Willow Bank seniors');
    expect(willow).toBeTruthy();
    const tomorrow = new Date(demo.clock.nowMs() + 86_400_000).toISOString().slice(0, 10);
    const submitted = await demo.backend.submitModal(
      SOPHIE,
      {
        task: { value: { type: 'plain_text_input', value: 'Check the hoist in room 4' } },
        due_date: { value: { type: 'datepicker', selected_date: tomorrow } },
        due_time: { value: { type: 'timepicker', selected_time: '10:30' } },
        notify_on_complete: { value: { type: 'multi_external_select', selected_options: [willow!] } },
      },
      modal.id,
    );
    expect(submitted).toEqual({ ok: true, message: 'Submitted' });
    const card = await until((s) =>
      s.ephemeral[SOPHIE]?.[CARE_TEAM]?.find((m) => blocksText(m).includes('Check the hoist') && blocksText(m).includes('care_complete')),
    );
    const no = /#(\d+)/.exec(card.text)![1]!;
    const buttons = card.blocks!.find((b) => JSON.stringify(b).includes('care_complete'))!;

    const click = await demo.backend.clickButton(SOPHIE, {
      where: 'message',
      channelId: CARE_TEAM,
      ts: card.ts,
      isEphemeral: true,
      blockId: buttons.block_id!,
      actionId: 'care_complete',
    });
    expect(click).toEqual({ ok: true, message: 'Clicked “Complete”' });

    // Amelia gets it by the group's email_to, saying which group; the group is routed to #care-team. Sophie is in
    // the group too, but she completed it herself: no notice about her own completion.
    const ameliaIm = (await demo.backend.snapshot()).ims.find((d) => d.members.includes('U0AMELIA'))!.id;
    const notice = await until((s) => s.messages[ameliaIm]?.find((m) => m.text.includes(`#${no}`) && m.text.includes('completed')));
    expect(blocksText(notice)).toContain('Willow Bank seniors');
    await until((s) => s.messages[CARE_TEAM]?.find((m) => m.text.includes(`#${no}`) && m.text.includes('completed')));
    const sophieIm = (await demo.backend.snapshot()).ims.find((d) => d.members.includes(SOPHIE))?.id;
    const own = sophieIm
      ? (await demo.backend.snapshot()).messages[sophieIm]?.filter((m) => m.text.includes(`#${no}`) && m.text.includes('was completed'))
      : [];
    expect(own ?? []).toEqual([]);
  });

  it('simulates the care system: a web-app completion, an urgent action and the next digest all arrive at once', async () => {
    const listed = await demo.backend.simulate.listSimulatableActions();
    expect(listed.length).toBeGreaterThan(5);
    const group = await willowSeniors();
    const due = new Date(demo.clock.nowMs() + 3 * 3600_000).toISOString();
    const done = await control('actions', { task: 'Order more dressings', due, notify_on_complete: [group] });

    const completed = await demo.backend.simulate.completeActionInWebApp(Number(done.action_no));
    expect(completed.ok).toBe(true);
    const sophieIm = (await demo.backend.snapshot()).ims.find((d) => d.members.includes(SOPHIE))!.id;
    await until((s) => s.messages[sophieIm]?.find((m) => m.text.includes(`#${done.action_no}`)), 3000);
    expect((await demo.backend.simulate.completeActionInWebApp(done.action_no)).ok).toBe(false);

    const hot = await control('actions', { task: 'Replace the broken bed rail', due });
    expect((await demo.backend.simulate.markActionUrgent(hot.action_no)).ok).toBe(true);
    const alert = await until((s) => s.messages[CARE_LEADS]?.find((m) => m.text.includes(`Urgent action #${hot.action_no}`)), 3000);
    expect(blocksText(alert)).toContain('Replace the broken bed rail'); // #care-leads is private: task text shown

    const before = demo.clock.nowMs();
    const advanced = await demo.backend.simulate.advanceClockToNextDigest();
    expect(advanced.ok).toBe(true);
    const s = await demo.backend.snapshot();
    const now = new Date(s.clock!.now);
    expect(now.getTime()).toBeGreaterThan(before);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' }).format(now)).toBe('08:00');
    const digest = s.messages[CARE_TEAM]?.find((m) => m.text.startsWith('Care actions for'));
    expect(digest, 'a digest in #care-team').toBeTruthy();
    expect(blocksText(digest!)).toContain('task text hidden in this channel');
    expect((await demo.backend.simulate.completeActionInWebApp(999_999)).ok).toBe(false);
  });

  it('refuses what a person could not do, and answers 400-style errors for things that do not exist', async () => {
    await expect(demo.backend.sendSlashCommand('U0NOBODY', CARE_TEAM, '/care help')).rejects.toBeInstanceOf(PlaygroundInputError);
    await expect(demo.backend.sendSlashCommand(SOPHIE, 'C0NOWHERE', '/care help')).rejects.toBeInstanceOf(PlaygroundInputError);
    const privateChannel = await demo.backend.sendSlashCommand(SOPHIE, CARE_LEADS, '/care help');
    expect(privateChannel.ok).toBe(false);
    expect(privateChannel.message).toContain('not a member');
    expect((await demo.backend.sendSlashCommand(SOPHIE, CARE_TEAM, '/giphy cats')).message).toContain('not a valid command');
    await expect(
      demo.backend.clickButton(SOPHIE, { where: 'message', channelId: CARE_TEAM, ts: '1.000001', blockId: 'x', actionId: 'care_complete' }),
    ).rejects.toBeInstanceOf(PlaygroundInputError);
    await expect(demo.backend.submitModal(SOPHIE, {})).rejects.toBeInstanceOf(PlaygroundInputError);
    const reply = await demo.backend.postMessage(SOPHIE, CARE_TEAM, 'Tea at <b>3</b> & cake');
    expect(reply.ok).toBe(true);
    const posted = (await demo.backend.snapshot()).messages[CARE_TEAM]!.find((m) => m.user === SOPHIE)!;
    expect(posted.text).toBe('Tea at &lt;b&gt;3&lt;/b&gt; &amp; cake');
  });
});
