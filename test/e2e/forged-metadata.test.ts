import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { careUserIdByEmail, linkDirectly, webAppAction, type Harness, startHarness } from './harness.js';

/**
 * A modal's private_metadata says where its confirmation goes and which action an
 * edit changes. Slack hands it back as the app wrote it, but anyone holding a
 * valid request signature path (here: the driver) can send any view_submission:
 * the app must only act on metadata it issued, to that person, recently.
 */
const START = new Date('2026-03-10T09:00:00Z');
const DAMAGED = 'This form arrived damaged or expired. Please close it and start again.';

describe('hidden form data (private_metadata) is not trusted', () => {
  let h: Harness;
  let priyasAction: { _id: string; action_no: string };

  const openForm = async (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });

  /** A view_submission as Slack would send it, with whatever metadata and values the sender chose. */
  const forge = async (userId: string, view: Record<string, unknown>, metadata: string, task: string) => {
    const answer = await h.driver.sendPayload('view_submission', 'care_action_modal', userId, {
      type: 'view_submission',
      user: { id: userId, name: userId.toLowerCase(), team_id: 'T0CARE' },
      team: { id: 'T0CARE', domain: 'brightwater' },
      api_app_id: 'A0CAREAPP',
      trigger_id: h.fake.issueTrigger(userId),
      view: {
        ...view,
        private_metadata: metadata,
        state: {
          values: {
            task: { value: { type: 'plain_text_input', value: task } },
            due_date: { value: { type: 'datepicker', selected_date: '2026-03-20' } },
            due_time: { value: { type: 'timepicker', selected_time: '10:00' } },
          },
        },
      },
      response_urls: [],
    });
    expect(answer.status).toBe(200);
    return answer.json as { response_action?: string; view?: unknown } | undefined;
  };

  const auditCount = async () => (await h.app.store.listAudit({ limit: 500 })).length;
  /** Everything the bot posted or changed in #care-leads (private; Sophie is not a member). */
  const leadsPosts = () =>
    h.fake.calls().filter((c) => ['chat.postMessage', 'chat.update', 'chat.postEphemeral'].includes(c.method) && c.args.channel === 'C0LEADS');
  /** Let anything a wrongly accepted submission set off finish before looking. */
  const settle = async () => {
    await h.driver.slash('sophie', '/care help', { channel: '#care-team' });
    await new Promise((r) => setTimeout(r, 300));
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    const priya = await linkDirectly(h, 'priya');
    priyasAction = await webAppAction(h, { task: 'Priya’s handover notes', due: new Date(START.getTime() + 86_400_000), assigned_to: priya });
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    for (const u of ['sophie', 'priya']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('refuses a create form whose metadata points its confirmation at a private channel the person is not in', async () => {
    const thread = h.driver.postAsUser('amelia', '#care-leads', 'Leads only: staffing for the weekend');
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    const open = await openForm('sophie');
    const audit = await auditCount();

    const forged = JSON.stringify({ mode: 'create', tz: 'Europe/London', channelId: 'C0LEADS', threadTs: thread.ts });
    const answer = await forge('U0SOPHIE', open.view as unknown as Record<string, unknown>, forged, 'Mrs Patel’s new diagnosis');
    await settle();

    expect(answer?.response_action).toBe('update');
    expect(JSON.stringify(answer?.view)).toContain(DAMAGED);
    expect(leadsPosts()).toEqual([]);
    expect(h.fake.thread('#care-leads', thread.ts)).toEqual([]);
    expect(await auditCount()).toBe(audit); // nothing was created
  });

  it('refuses an edit of an action the person never opened, and leaves the action alone', async () => {
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    const open = await openForm('sophie');
    const audit = await auditCount();

    const forged = JSON.stringify({ mode: 'edit', actionId: priyasAction._id, tz: 'Europe/London', channelId: 'C0CARE' });
    const answer = await forge('U0SOPHIE', open.view as unknown as Record<string, unknown>, forged, 'Overwritten by someone else');
    await settle();

    expect(answer?.response_action).toBe('update');
    expect(JSON.stringify(answer?.view)).toContain(DAMAGED);
    expect((await h.control(`actions/${priyasAction._id}`)).task).toBe('Priya’s handover notes');
    expect(await auditCount()).toBe(audit);
  });

  it('refuses metadata issued to another person (Priya’s form from #care-leads, submitted by Sophie)', async () => {
    const msg = h.driver.postAsUser('amelia', '#care-leads', 'Check the controlled drugs register');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-leads', ts: msg.ts });
    const priyasForm = await openForm('priya');
    const audit = await auditCount();

    const answer = await forge('U0SOPHIE', priyasForm.view as unknown as Record<string, unknown>, priyasForm.view.private_metadata, 'Sophie’s secret task');
    await settle();

    expect(answer?.response_action).toBe('update');
    expect(JSON.stringify(answer?.view)).toContain(DAMAGED);
    expect(leadsPosts()).toEqual([]);
    expect(await auditCount()).toBe(audit);

    // Priya's own submission of the same form still works, in her thread.
    expect((await h.driver.modal('priya').fill('Due time', '11:00').submit()).outcome).toBe('closed');
    const reply = await h.fake.waitFor(() => h.fake.thread('#care-leads', msg.ts)[0], { timeoutMs: 10_000 });
    expect(h.fake.visibleText(reply, { viewer: 'priya' })).toContain('Created by @priya');
  });

  it('refuses an Approve form whose metadata names another message to overwrite, and leaves the request pending', async () => {
    const msg = h.driver.postAsUser('amelia', '#care-leads', 'Night shift: check the fire exits');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-leads', ts: msg.ts });
    await openForm('priya');
    expect((await h.driver.modal('priya').fill('Due time', '12:00').submit()).outcome).toBe('closed');
    const card = await h.fake.waitFor(() => h.fake.thread('#care-leads', msg.ts)[0], { timeoutMs: 10_000 });

    await h.driver.slash('visitor', '/care link', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => m.text.includes('<@U0VISITOR>')), { timeoutMs: 10_000 });
    await h.driver.clickButton('amelia', { dm: true, text: 'Approve' });
    // The form (after its "Loading…" view) with the requester's name and the fields to pick the care user.
    const approve = await h.fake.waitFor(
      () => (h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user_id') ? h.fake.openModal('amelia') : undefined),
      { timeoutMs: 10_000 },
    );
    const [request] = await h.app.store.listLinkRequests({ state: 'pending', teamId: 'T0CARE' });
    const before = leadsPosts().length;

    const answer = await h.driver.sendPayload('view_submission', 'care_link_approve_modal', 'U0AMELIA', {
      type: 'view_submission',
      user: { id: 'U0AMELIA', name: 'amelia', team_id: 'T0CARE' },
      team: { id: 'T0CARE', domain: 'brightwater' },
      api_app_id: 'A0CAREAPP',
      trigger_id: h.fake.issueTrigger('U0AMELIA'),
      view: {
        ...approve.view,
        private_metadata: JSON.stringify({ requestId: String(request!.id), channel: 'C0LEADS', ts: card.ts }),
        state: { values: { link_care_user_id: { value: { type: 'plain_text_input', value: '0123456789abcdef01234567' } } } },
      },
      response_urls: [],
    });
    await settle();

    expect((answer.json as { response_action?: string } | undefined)?.response_action).toBe('update');
    expect(JSON.stringify(answer.json)).toContain(DAMAGED);
    expect(leadsPosts().length).toBe(before);
    expect(h.fake.visibleText(h.fake.thread('#care-leads', msg.ts)[0]!, { viewer: 'priya' })).toContain('Created by @priya');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();

    // Amelia's own form, as Slack sends it back, still links Val (to a care user that exists: an unknown Id is refused).
    const chloe = await careUserIdByEmail(h, 'chloe.evans@brightwatercare.example');
    expect((await h.driver.modal('amelia').fill('Care user Id', chloe).submit()).outcome).toBe('closed');
    expect((await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR'))?.careUserId).toBe(chloe);
  });

  it('a genuine submission still creates the action and confirms where the person typed', async () => {
    await h.driver.slash('sophie', '/care new Order more gloves', { channel: '#care-team' });
    await openForm('sophie');
    expect((await h.driver.modal('sophie').fill('Due time', '10:00').submit()).outcome).toBe('closed');
    const confirmation = await h.fake.waitFor(
      () => h.fake.ephemerals('sophie').find((e) => h.fake.visibleText(e, { viewer: 'sophie' }).includes('Order more gloves')),
      { timeoutMs: 10_000 },
    );
    expect(confirmation.channel).toBe('C0CARE');
  });

  it('refuses a form submitted more than a day after it was opened', async () => {
    await h.driver.slash('sophie', '/care new Change the bed linen', { channel: '#care-team' });
    await openForm('sophie');
    const audit = await auditCount();
    await h.setTime(new Date(h.now().getTime() + 25 * 3_600_000));

    const result = await h.driver.modal('sophie').fill('Due date', '2026-03-20').fill('Due time', '10:00').submit();
    await settle();

    expect(result.outcome).toBe('updated');
    expect(h.fake.visibleText(h.fake.openModal('sophie')!.view)).toContain(DAMAGED);
    expect(await auditCount()).toBe(audit);
  });
});
