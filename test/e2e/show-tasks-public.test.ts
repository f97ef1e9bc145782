import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOW_TASKS_BUTTON } from '../../src/slack/views/show-tasks.js';
import { digestsIn } from './fixtures/jobs-support.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * Task text in a public channel's digest needs a second, explicit step: the
 * flag alone leaves it hidden, and a button in the reply says who can read the
 * channel; an admin's press shows it (and is in the audit log). Private
 * channels are as before. Clock: Tuesday 15 June 2027, 08:30 in London.
 */
const RESIDENT_TASK = 'Medication review for Ms Robinson with the GP';

describe('task text in a public channel', () => {
  let h: Harness;
  const lastDigest = (channel: string) => h.fake.visibleText(digestsIn(h, channel).at(-1)!, { viewer: 'amelia' });
  /** Posts the channel's digest now and reads it. */
  const digestNow = async (channel: string) => {
    expect((await command(h, 'amelia', '/care digest now', { channel })).text).toContain('Digest posted.');
    return lastDigest(channel);
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T07:30:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    await webAppAction(h, { task: RESIDENT_TASK, due: new Date(h.now().getTime() - 3600_000), assigned_to: sophie });
  });
  afterAll(async () => h?.close());

  it('stays hidden on the flag alone: the reply asks, with a button that says everyone in the workspace, guests included, can read it', async () => {
    const reply = await command(h, 'amelia', '/care digest here 07:45 daily --show-tasks', { channel: '#general' });
    expect(reply.text).toContain('Task text stays hidden until you confirm below.');
    expect(reply.text).toContain('#general is a public channel: everyone in the workspace, guests included, can read it');
    expect(reply.text).toContain(`[${SHOW_TASKS_BUTTON}]`);
    expect(reply.text).not.toContain('Task text is shown');
    const digest = await digestNow('#general');
    expect(digest).toContain('task text hidden in this channel');
    expect(digest).not.toContain(RESIDENT_TASK);
  });

  it('a press by someone who is not an admin shows nothing', async () => {
    const sub = (await h.app.store.getSubscription(h.fake.teamId, 'C0GENERAL'))!;
    const forged = await h.driver.sendPayload('block_actions', 'care_show_tasks_confirm', 'U0SOPHIE', {
      type: 'block_actions',
      user: { id: 'U0SOPHIE', team_id: h.fake.teamId },
      team: { id: h.fake.teamId, domain: 'brightwater' },
      api_app_id: 'A0CAREAPP',
      trigger_id: h.fake.issueTrigger('U0SOPHIE'),
      container: { type: 'message', channel_id: 'C0GENERAL', is_ephemeral: true },
      channel: { id: 'C0GENERAL', name: 'general' },
      actions: [{ type: 'button', action_id: 'care_show_tasks_confirm', block_id: 'show_tasks', value: String(sub.setUpAt), action_ts: '1' }],
    });
    expect(forged.status).toBe(200);
    await h.fake.waitFor(() => h.fake.dms('sophie').some((m) => m.text.includes('Only admins')), { timeoutMs: 10_000 });
    expect((await h.app.store.getSubscription(h.fake.teamId, 'C0GENERAL'))!.showTaskText).toBe(false);
    expect(await digestNow('#general')).not.toContain(RESIDENT_TASK);
  });

  it('an admin’s press shows it from the next digest on, says so, and is in the audit log', async () => {
    const pressed = await h.driver.clickButton('amelia', { ephemeral: true, channel: '#general', text: SHOW_TASKS_BUTTON });
    expect(pressed.acked).toBe(true);
    // The reply with the button now says what was done (and the button is gone).
    const answered = await h.fake.waitFor(
      () => h.fake.ephemerals('amelia').find((e) => h.fake.visibleText(e, { viewer: 'amelia' }).includes('Task text is now shown')),
      { timeoutMs: 10_000 },
    );
    expect(h.fake.visibleText(answered, { viewer: 'amelia' })).toContain("Task text is now shown in #general's digest and posts, as you confirmed.");
    expect(h.fake.visibleText(answered, { viewer: 'amelia' })).not.toContain(SHOW_TASKS_BUTTON);
    expect(await digestNow('#general')).toContain(RESIDENT_TASK);
    const audit = await h.app.store.listAudit({ verb: 'subscription.show-tasks' });
    expect(audit.map((e) => [e.userId, e.details.channelId])).toEqual([['U0AMELIA', 'C0GENERAL']]);
  });

  it('set again, the digest hides the text until confirmed again', async () => {
    const reply = await command(h, 'amelia', '/care digest here 07:45 daily --show-tasks', { channel: '#general' });
    expect(reply.text).toContain('Task text stays hidden until you confirm below.');
    expect(await digestNow('#general')).not.toContain(RESIDENT_TASK);
  });

  it('a private channel shows it on the flag, as before', async () => {
    const reply = await command(h, 'amelia', '/care digest here 07:45 daily --show-tasks', { channel: '#care-leads' });
    expect(reply.text).toContain('Task text is shown (private channel).');
    expect(reply.text).not.toContain(SHOW_TASKS_BUTTON);
    expect(await digestNow('#care-leads')).toContain(RESIDENT_TASK);
  });
});
