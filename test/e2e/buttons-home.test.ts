import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, webAppAction, type Harness, startHarness } from './harness.js';

/**
 * Complete / Reopen / Edit buttons on action cards (ephemeral answers, channel
 * messages, the Home tab) and the Home tab itself.
 * Clocks: 2026-03-10 10:00 UTC = 10:00 in London.
 */
const START = new Date('2026-03-10T10:00:00Z');

describe('action card buttons and the Home tab', () => {
  let h: Harness;
  let sophie: string;
  let priya: string;
  let oliver: string;

  const homeText = (user: string) => {
    const home = h.fake.home(user);
    return home ? h.fake.visibleText(home, { viewer: user }) : '';
  };
  const publishedFor = (user: string) => h.fake.calls('views.publish').filter((c) => c.args.user_id === user).length;
  const completeInSandbox = async (id: string) => (await h.control(`actions/${id}`)).completed as string | null;

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophie = await linkDirectly(h, 'sophie');
    priya = await linkDirectly(h, 'priya');
    oliver = await linkDirectly(h, 'oliver');
  });
  afterAll(async () => h?.close());

  it('Complete on an ephemeral list replaces that answer in place, and refreshes the Home tab of the assignee', async () => {
    const first = await webAppAction(h, {
      task: 'Collect prescriptions from the pharmacy',
      due: new Date('2026-03-11T09:00:00Z'),
      assigned_to: priya,
      urgent: true,
    });
    await webAppAction(h, { task: 'Label the new medicine trolley', due: new Date('2026-03-12T09:00:00Z'), assigned_to: priya });
    await h.driver.openHome('priya');
    await h.fake.waitFor(() => homeText('priya').includes('Collect prescriptions'), { timeoutMs: 10_000 });

    const list = await command(h, 'sophie', '/care due week <@U0PRIYA|priya>');
    const ephemeralsBefore = h.fake.ephemerals('sophie').length;
    expect(list.text.indexOf('Collect prescriptions')).toBeLessThan(list.text.indexOf('Label the new medicine trolley'));
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Complete' });

    const replaced = await h.fake.waitFor(
      () => {
        const e = h.fake.ephemerals('sophie').find((x) => x.ts === list.message.ts);
        return e && h.fake.visibleText(e).includes('[Reopen]') ? e : undefined;
      },
      { timeoutMs: 10_000 },
    );
    const seen = h.fake.visibleText(replaced, { viewer: 'sophie' });
    expect(seen).toContain(':white_check_mark: Complete');
    expect(seen).toContain('Label the new medicine trolley'); // the rest of the list is untouched
    expect(seen.match(/\[Complete\] \[Edit\]/g)).toHaveLength(1);
    expect(h.fake.ephemerals('sophie')).toHaveLength(ephemeralsBefore); // replaced, not a new message
    expect(await completeInSandbox(first._id)).not.toBeNull();
    await h.fake.waitFor(() => (homeText('priya').includes('Collect prescriptions') ? undefined : true), { timeoutMs: 10_000 });
    expect(homeText('priya')).toContain('Label the new medicine trolley');

    // Reopen from the same answer puts it back.
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Reopen' });
    await h.fake.waitFor(
      () => (h.fake.visibleText(h.fake.ephemerals('sophie').find((x) => x.ts === list.message.ts)!).includes('[Reopen]') ? undefined : true),
      { timeoutMs: 10_000 },
    );
    expect(await completeInSandbox(first._id)).toBeNull();
    await h.fake.waitFor(() => homeText('priya').includes('Collect prescriptions'), { timeoutMs: 10_000 });
    const audit = await h.app.store.listAudit({ actionId: first._id });
    expect(audit.map((e) => [e.verb, e.userId]).sort()).toEqual([
      ['action.complete', 'U0SOPHIE'],
      ['action.reopen', 'U0SOPHIE'],
    ]);
  });

  describe('a card posted in a channel thread', () => {
    let threadTs: string;
    let cardTs: string;
    let actionId: string;

    beforeAll(async () => {
      const msg = h.driver.postAsUser('amelia', '#care-leads', 'The lift at Willow Bank is making a grinding noise');
      threadTs = msg.ts;
      await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-leads', ts: msg.ts });
      await h.fake.waitFor(() => h.fake.openModal('priya'), { timeoutMs: 10_000 });
      await h.driver.modal('priya').fill('Due date', '2026-03-10').fill('Due time', '17:00').fill('Assignee', 'Sophie Marsh').submit();
      const card = await h.fake.waitFor(() => h.fake.thread('#care-leads', threadTs)[0], { timeoutMs: 10_000 });
      cardTs = card.ts;
      actionId = (await h.app.store.listAudit({ limit: 50 })).find((e) => e.verb === 'action.create')!.actionId!;
    });

    it('Complete updates that message in place with chat.update and refreshes the Home tabs', async () => {
      const sophieHomes = publishedFor('U0SOPHIE');
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: cardTs, text: 'Complete', confirm: 'accept' });
      const updated = await h.fake.waitFor(
        () => {
          const m = h.fake.thread('#care-leads', threadTs).find((r) => r.ts === cardTs);
          return m?.edited ? m : undefined;
        },
        { timeoutMs: 10_000 },
      );
      const seen = h.fake.visibleText(updated, { viewer: 'amelia' });
      expect(seen).toContain('Completed');
      expect(seen).toContain('[Reopen]');
      expect(seen).toContain('The lift at Willow Bank');
      expect(seen).toContain('Completed by @priya · Undo'); // a channel post says who did it
      expect(h.fake.thread('#care-leads', threadTs)).toHaveLength(1); // no new message
      expect(h.fake.calls('chat.update').some((c) => c.args.ts === cardTs)).toBe(true);
      await h.fake.waitFor(() => publishedFor('U0SOPHIE') > sophieHomes, { timeoutMs: 10_000 });
      expect(await completeInSandbox(actionId)).not.toBeNull();
    });

    it('a second click on a stale card (reopened meanwhile in the web app) is answered gracefully', async () => {
      await h.control(`actions/${actionId}/reopen`, {});
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: cardTs, text: 'Reopen', confirm: 'accept' });
      const note = await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('already open')), {
        timeoutMs: 10_000,
      });
      expect(note.text).toContain('the card now shows its current state');
      await h.fake.waitFor(() => (h.fake.visibleText(h.fake.thread('#care-leads', threadTs)[0]!).includes('[Complete] [Edit]') ? true : undefined), {
        timeoutMs: 10_000,
      });
      expect((await h.app.store.listAudit({ actionId })).filter((e) => e.verb === 'action.reopen')).toHaveLength(0);
    });

    it('and one completed in the web app meanwhile', async () => {
      await h.control(`actions/${actionId}/complete`, {});
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: cardTs, text: 'Complete', confirm: 'accept' });
      await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('already complete')), {
        timeoutMs: 10_000,
      });
      await h.fake.waitFor(() => (h.fake.visibleText(h.fake.thread('#care-leads', threadTs)[0]!).includes('[Reopen]') ? true : undefined), {
        timeoutMs: 10_000,
      });
      expect((await h.app.store.listAudit({ actionId })).filter((e) => e.verb === 'action.complete')).toHaveLength(1);
    });

    it('someone not linked is told how to link, and nothing changes', async () => {
      await h.driver.clickButton('amelia', { channel: '#care-leads', ts: cardTs, text: 'Reopen', confirm: 'accept' });
      const told = await h.fake.waitFor(() => h.fake.ephemerals('amelia', { channel: '#care-leads' }).find((e) => e.text.includes('/care link')), {
        timeoutMs: 10_000,
      });
      expect(told.text).toContain('linked care account');
      expect(await completeInSandbox(actionId)).not.toBeNull();
    });

    it('a card for an action deleted from the care system says so in a plain sentence', async () => {
      await h.driver.sendPayload('block_actions', 'care_complete', 'U0PRIYA', {
        type: 'block_actions',
        user: { id: 'U0PRIYA', name: 'priya', team_id: 'T0CARE' },
        team: { id: 'T0CARE', domain: 'brightwater' },
        api_app_id: 'A0CAREAPP',
        trigger_id: h.fake.issueTrigger('U0PRIYA'),
        container: { type: 'message', message_ts: cardTs, channel_id: 'C0LEADS', is_ephemeral: false },
        channel: { id: 'C0LEADS', name: 'care-leads' },
        message: { ts: cardTs, text: 'Care action', blocks: [] },
        response_url: h.fake.issueResponseUrl({ kind: 'message', channel: 'C0LEADS', user: 'U0PRIYA', messageTs: cardTs, ephemeral: false }),
        actions: [{ type: 'button', action_id: 'care_complete', block_id: 'card_x', value: 'ffffffffffffffffffffffff', action_ts: '1' }],
      });
      const told = await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('No such action')), {
        timeoutMs: 10_000,
      });
      expect(told.text).not.toMatch(/Error|at \w+ \(/);
    });
  });

  describe('the Home tab', () => {
    beforeAll(async () => {
      await webAppAction(h, { task: 'Replace the batteries in the hoist remote', due: new Date('2026-03-08T09:00:00Z'), assigned_to: sophie, urgent: true });
      await webAppAction(h, { task: 'Check the fridge temperatures', due: new Date('2026-03-10T15:00:00Z'), assigned_to: sophie });
      await webAppAction(h, { task: 'Book the optician', due: new Date('2026-03-14T11:00:00Z'), assigned_to: sophie });
      await webAppAction(h, { task: 'Summer outing', due: new Date('2026-05-01T11:00:00Z'), assigned_to: sophie });
      for (let i = 1; i <= 45; i++) {
        await webAppAction(h, { task: `Oliver task ${String(i).padStart(2, '0')}`, due: new Date(Date.UTC(2026, 2, 11, 9, i)), assigned_to: oliver });
      }
    });

    it('shows link status, a New action button and your overdue, today and upcoming actions', async () => {
      await h.driver.openHome('sophie');
      await h.fake.waitFor(() => homeText('sophie').includes('Book the optician'), { timeoutMs: 10_000 });
      const text = homeText('sophie');
      expect(text).toContain('Linked as Sophie Marsh');
      expect(text).toContain('[New action]');
      expect(text.indexOf('Overdue')).toBeLessThan(text.indexOf('Replace the batteries'));
      expect(text.indexOf('Replace the batteries')).toBeLessThan(text.indexOf('Due today'));
      expect(text.indexOf('Due today')).toBeLessThan(text.indexOf('Check the fridge temperatures'));
      expect(text.indexOf('Next 7 days')).toBeLessThan(text.indexOf('Book the optician'));
      expect(text).toContain('Urgent');
      expect(text).not.toContain('Summer outing');
    });

    it('Complete on the Home tab republishes it without that action', async () => {
      await h.driver.clickButton('sophie', { home: true, text: 'Complete' }); // the first: the urgent overdue one
      await h.fake.waitFor(() => (homeText('sophie').includes('Replace the batteries') ? undefined : true), { timeoutMs: 10_000 });
      expect(homeText('sophie')).toContain('Check the fridge temperatures');
      const audit = await h.app.store.listAudit({ limit: 100 });
      expect(audit.some((e) => e.verb === 'action.complete' && e.userId === 'U0SOPHIE')).toBe(true);
    });

    it('New action on the Home tab opens the create form', async () => {
      await h.driver.clickButton('sophie', { home: true, text: 'New action' });
      const modal = await h.fake.waitFor(() => h.fake.openModal('sophie'), { timeoutMs: 10_000 });
      expect(h.fake.visibleText(modal.view)).toContain('New care action');
      await h.driver.modal('sophie').close();
    });

    it('Edit on the Home tab saves and the Home tab shows the change', async () => {
      await h.driver.clickButton('sophie', { home: true, text: 'Edit' });
      await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
      const result = await h.driver.modal('sophie').fill('Task', 'Check the fridge and freezer temperatures').submit();
      expect(result.outcome).toBe('closed');
      await h.fake.waitFor(() => homeText('sophie').includes('fridge and freezer'), { timeoutMs: 10_000 });
    });

    it('pages through many actions with Show more, within the 100-block limit', async () => {
      await h.driver.openHome('oliver');
      await h.fake.waitFor(() => homeText('oliver').includes('Oliver task 01'), { timeoutMs: 10_000 });
      const page1 = homeText('oliver');
      expect(page1).toContain('Oliver task 20');
      expect(page1).not.toContain('Oliver task 21');
      expect(page1).toContain('[Show more (25 more)]');

      await h.driver.clickButton('oliver', { home: true, text: 'Show more (25 more)' });
      await h.fake.waitFor(() => homeText('oliver').includes('Oliver task 40'), { timeoutMs: 10_000 });
      const page2 = homeText('oliver');
      expect(page2).toContain('Oliver task 21');
      expect(page2).not.toContain('Oliver task 20');
      expect(page2).toContain('[Show more (5 more)]');

      await h.driver.clickButton('oliver', { home: true, text: 'Show more (5 more)' });
      await h.fake.waitFor(() => homeText('oliver').includes('Oliver task 45'), { timeoutMs: 10_000 });
      expect(homeText('oliver')).not.toContain('Show more');
      expect(homeText('oliver')).toContain('Oliver task 41');

      await h.driver.clickButton('oliver', { home: true, text: 'Back to the top' });
      await h.fake.waitFor(() => homeText('oliver').includes('Oliver task 01'), { timeoutMs: 10_000 });

      for (const call of h.fake.calls('views.publish')) {
        expect(call.result.ok).toBe(true);
        const view = (typeof call.args.view === 'string' ? JSON.parse(call.args.view) : call.args.view) as { blocks: unknown[] };
        expect(view.blocks.length).toBeLessThanOrEqual(100);
      }
    });

    it('tells someone not linked how to link, with no New action button', async () => {
      await h.driver.openHome('visitor');
      await h.fake.waitFor(() => homeText('visitor').includes('not linked'), { timeoutMs: 10_000 });
      expect(homeText('visitor')).toContain('/care link');
      expect(homeText('visitor')).not.toContain('[New action]');
    });

    it('shows a plain sentence instead of actions when the care system fails', async () => {
      await h.control('faults', { errorRate: 1, errorStatus: 500 });
      try {
        await h.driver.openHome('priya');
        await h.fake.waitFor(() => homeText('priya').includes('care system is busy'), { timeoutMs: 10_000 });
        expect(homeText('priya')).toContain('Linked');
      } finally {
        await h.control('faults', { reset: true });
      }
    });
  });

  it('Complete on a /care mine answer keeps the list and shows the completed action on top, to undo', async () => {
    const list = await command(h, 'priya', '/care mine');
    expect(list.text).toContain('Collect prescriptions');
    await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-team', text: 'Complete' });
    const after = await h.fake.waitFor(
      () => {
        const e = h.fake.ephemerals('priya').find((x) => x.ts === list.message.ts);
        const t = e ? h.fake.visibleText(e, { viewer: 'priya' }) : '';
        return t.includes('Just completed') ? t : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(after).toContain('Your open actions');
    expect(after).toContain('Label the new medicine trolley');
    expect(after.indexOf('Just completed')).toBeLessThan(after.indexOf('Collect prescriptions'));
    expect(after).toContain('[Reopen]');

    await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-team', text: 'Reopen' });
    const back = await h.fake.waitFor(
      () => {
        const t = h.fake.visibleText(h.fake.ephemerals('priya').find((x) => x.ts === list.message.ts)!, { viewer: 'priya' });
        return t.includes('Just completed') ? undefined : t;
      },
      { timeoutMs: 10_000 },
    );
    expect(back).toContain('Collect prescriptions');
    expect(back).not.toContain('[Reopen]');
  });

  it('Complete on a /care find answer moves the action under Complete in the same answer', async () => {
    const list = await command(h, 'priya', '/care find medicine trolley');
    expect(list.text).toContain('Open (1)');
    await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-team', text: 'Complete' });
    const after = await h.fake.waitFor(
      () => {
        const t = h.fake.visibleText(h.fake.ephemerals('priya').find((x) => x.ts === list.message.ts)!, { viewer: 'priya' });
        return t.includes('Complete (1)') ? t : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(after).toContain('Label the new medicine trolley');
    expect(after).not.toContain('Open (');
  });

  it('acked every request in time', () => {
    expect(h.fake.ackStats().failures).toBe(0);
  });
});
