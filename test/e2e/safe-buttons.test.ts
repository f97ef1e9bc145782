/**
 * Issue 14, "blind one-click Complete": buttons on posts everyone in a channel
 * sees. Where task text is hidden a post carries View (the card, to the clicker
 * only), never Complete; Complete and Reopen on a channel post ask first, naming
 * the action and its assignee. Clocks: 2027-06-15 09:00 UTC (10:00 in London).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

type Element = { type: string; action_id?: string; text?: { text: string }; confirm?: { title: { text: string }; text: { text: string } } };

/** Every interactive element of a message (accessories and actions blocks). */
function elementsOf(m: { blocks?: unknown[] }): Element[] {
  return (m.blocks ?? []).flatMap((b) => {
    const block = b as { accessory?: Element; elements?: Element[]; type: string };
    return [...(block.accessory ? [block.accessory] : []), ...(block.type === 'actions' ? (block.elements ?? []) : [])];
  });
}
const buttonNamed = (m: { blocks?: unknown[] }, label: string) => elementsOf(m).find((e) => e.type === 'button' && e.text?.text === label);

describe('safe buttons on channel posts (issue 14)', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const posted = (channel: string, kind: string, actionId: string) =>
    h.fake.messages(channel).filter((m) => deliveryKind(m) === kind && deliveryActionId(m) === actionId);
  /** The urgent alert of an action in a channel, as it is now (waits for it). */
  const alertIn = (channel: string, actionId: string) => h.fake.waitFor(() => posted(channel, 'urgent', actionId)[0], { timeoutMs: 10_000 });
  /** The DMs telling someone that another person changed their action. */
  const changeDms = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryKind(m) === 'change' && deliveryActionId(m) === actionId);
  const inSandbox = (id: string): Promise<{ completed: string | null; assigned_to: string | null }> => h.control(`actions/${id}`);
  /** A new urgent action made in the web app, alerted in both channels by a poll. */
  const urgentAction = async (task: string, assignee: string | null) => {
    await later();
    const a = await webAppAction(h, { task, due: new Date('2027-06-15T16:00:00Z'), urgent: true, assigned_to: assignee });
    await poll(h);
    await alertIn('#care-leads', a._id);
    await alertIn('#care-team', a._id);
    return a;
  };
  const seen = async (channel: string, actionId: string, viewer = 'amelia') => h.fake.visibleText(await alertIn(channel, actionId), { viewer });

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-team' }); // public: task text hidden
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('an urgent alert where task text is hidden offers View, not Complete; where shown, Complete asks first naming the action and assignee', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Check the medication chart', due: new Date('2027-06-15T15:00:00Z'), urgent: true, assigned_to: care.oliver! });
    await poll(h);
    const hidden = await h.fake.waitFor(() => posted('#care-team', 'urgent', a._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(hidden, 'Complete')).toBeUndefined();
    expect(buttonNamed(hidden, 'Reopen')).toBeUndefined();
    expect(buttonNamed(hidden, 'View')).toMatchObject({ action_id: 'care_view' });

    const shown = await h.fake.waitFor(() => posted('#care-leads', 'urgent', a._id)[0], { timeoutMs: 10_000 });
    const complete = buttonNamed(shown, 'Complete');
    expect(complete?.confirm?.text.text).toContain(`#${a.action_no}`);
    expect(complete?.confirm?.text.text).toContain('assigned to Oliver Bennett?');
  });

  it('a routed completion notice: View where hidden, and Reopen asks first where shown', async () => {
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    const group = (name: string) => groups.find((g) => g.name === name)!._id;
    expect((await command(h, 'amelia', '/care route Willow Bank seniors <#C0LEADS|care-leads>')).text).toContain('will also be posted in');
    expect((await command(h, 'amelia', '/care route Home care coordinators <#C0CARE|care-team>')).text).toContain('will also be posted in');
    await later();
    const b = await webAppAction(h, {
      task: 'Fit the new door lock',
      due: new Date('2027-06-15T15:00:00Z'),
      assigned_to: care.oliver!,
      notify_on_complete: [group('Willow Bank seniors'), group('Home care coordinators')],
    });
    await h.control(`actions/${b._id}/complete`, {});
    await poll(h);
    const hidden = await h.fake.waitFor(() => posted('#care-team', 'completion', b._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(hidden, 'Reopen')).toBeUndefined();
    expect(buttonNamed(hidden, 'View')).toBeDefined();
    const shown = await h.fake.waitFor(() => posted('#care-leads', 'completion', b._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(shown, 'Reopen')?.confirm?.text.text).toContain(`#${b.action_no}`);
  });

  describe('View, where task text is hidden', () => {
    it('shows the full card to a linked clicker only; the channel post does not change', async () => {
      const a = await urgentAction('Give Mr Jones his 2pm insulin', care.oliver!);
      const post = await alertIn('#care-team', a._id);
      const updatesBefore = h.fake.calls('chat.update').length;
      await h.driver.clickButton('sophie', { channel: '#care-team', ts: post.ts, text: 'View' });
      const card = await h.fake.waitFor(
        () => h.fake.ephemerals('sophie', { channel: '#care-team' }).find((e) => JSON.stringify(e.blocks).includes(`task_${a._id}`)),
        {
          timeoutMs: 10_000,
        },
      );
      const text = h.fake.visibleText(card, { viewer: 'sophie' });
      expect(text).toContain('Give Mr Jones his 2pm insulin');
      expect(text).toContain('[Complete] [Edit] [Snooze… ▾]');
      expect(text).toContain('Only you can see this card.');
      // Nobody else sees it, and the post is as it was.
      for (const other of ['oliver', 'priya', 'amelia', 'visitor']) expect(JSON.stringify(h.fake.ephemerals(other))).not.toContain('insulin');
      expect(h.fake.visibleText(await alertIn('#care-team', a._id))).not.toContain('insulin');
      expect((await alertIn('#care-team', a._id)).edited).toBeFalsy();
      expect(h.fake.calls('chat.update').length).toBe(updatesBefore);
      expect(h.fake.messages('#care-team').filter((m) => JSON.stringify(m).includes('insulin'))).toEqual([]);
    });

    it("Complete on that card works as on one's own card (no dialog: only the clicker sees it), and the assignee is told once", async () => {
      const a = await urgentAction('Check the fridge temperatures', care.oliver!);
      await h.driver.clickButton('sophie', { channel: '#care-team', ts: (await alertIn('#care-team', a._id)).ts, text: 'View' });
      await h.fake.waitFor(() => h.fake.ephemerals('sophie', { channel: '#care-team' }).find((e) => JSON.stringify(e.blocks).includes(`task_${a._id}`)), {
        timeoutMs: 10_000,
      });
      // No confirm: the driver would refuse a click on a button with a dialog it was not told to answer.
      await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Complete' });
      await h.fake.waitFor(async () => (await inSandbox(a._id)).completed, { timeoutMs: 10_000, message: 'not completed' });
      const replaced = await h.fake.waitFor(
        () =>
          h.fake
            .ephemerals('sophie', { channel: '#care-team' })
            .find((e) => h.fake.visibleText(e).includes('Completed') && JSON.stringify(e.blocks).includes(a._id)),
        { timeoutMs: 10_000 },
      );
      expect(h.fake.visibleText(replaced, { viewer: 'sophie' })).toContain('[Reopen]');
      const dm = await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      const told = h.fake.visibleText(dm, { viewer: 'oliver' });
      expect(told).toContain(`@sophie completed your action #${a.action_no}`);
      expect(told).toContain('Check the fridge temperatures');
      expect(dm.text).not.toContain('fridge'); // the notification names no task
      await poll(h);
      expect(changeDms('oliver', a._id)).toHaveLength(1);
      expect(changeDms('sophie', a._id)).toHaveLength(0);
    });

    it('someone not linked is told how to link and sees no card', async () => {
      const a = await urgentAction('Phone the pharmacy about the blister packs', null);
      await h.driver.clickButton('visitor', { channel: '#care-team', ts: (await alertIn('#care-team', a._id)).ts, text: 'View' });
      const told = await h.fake.waitFor(() => h.fake.ephemerals('visitor', { channel: '#care-team' }).find((e) => e.text.includes('/care link')), {
        timeoutMs: 10_000,
      });
      expect(told.text).toContain('linked care account');
      expect(JSON.stringify(h.fake.ephemerals('visitor'))).not.toContain('blister');
    });
  });

  describe('Complete and Reopen on a channel post', () => {
    it('ask first, naming the action and assignee; Cancel sends nothing', async () => {
      const a = await urgentAction('Weigh Mrs Patel', care.oliver!);
      const post = await alertIn('#care-leads', a._id);
      const acks = h.fake.acks().length;
      const result = await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Complete', confirm: 'cancel' });
      expect(result.cancelled).toBe(true);
      const [dialog] = h.fake.confirmations('priya').slice(-1);
      expect(dialog).toMatchObject({ title: `Complete action #${a.action_no}?`, confirmLabel: 'Complete', denyLabel: 'Cancel', answer: 'deny' });
      expect(dialog!.text).toContain('assigned to Oliver Bennett?');
      expect(h.fake.acks().length).toBe(acks); // the app heard nothing
      expect((await inSandbox(a._id)).completed).toBeNull();
      expect((await alertIn('#care-leads', a._id)).edited).toBeFalsy();
    });

    it('once confirmed, the post says who did it with Undo, the assignee is DMed once (a second click, a poll), and Undo reverses it', async () => {
      const a = await urgentAction('Replace the call bell in room 5', care.oliver!);
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Complete', confirm: 'accept' });
      const after = await h.fake.waitFor(async () => ((await alertIn('#care-leads', a._id)).edited ? seen('#care-leads', a._id) : undefined), {
        timeoutMs: 10_000,
      });
      expect(after).toContain('Completed by @priya · Undo (for 5 minutes)');
      expect(after).toContain('[Undo]');
      expect(after).toContain('[Reopen]');
      expect((await inSandbox(a._id)).completed).not.toBeNull();
      await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      // A second Complete (the command) finds it complete: nothing new; neither does the poll.
      expect((await command(h, 'priya', `/care done ${a.action_no}`)).text).toMatch(/already complete/i);
      await poll(h);
      await poll(h);
      expect(changeDms('oliver', a._id)).toHaveLength(1);
      expect(h.fake.visibleText(changeDms('oliver', a._id)[0]!, { viewer: 'oliver' })).toContain(`@priya completed your action #${a.action_no}`);

      // Someone else's Undo is refused and changes nothing.
      await h.driver.clickButton('amelia', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Undo' });
      const refused = await h.fake.waitFor(() => h.fake.ephemerals('amelia', { channel: '#care-leads' }).find((e) => e.text.includes('can undo this')), {
        timeoutMs: 10_000,
      });
      expect(refused.text).toContain('Only <@U0PRIYA> can undo this');
      expect((await inSandbox(a._id)).completed).not.toBeNull();

      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Undo' });
      await h.fake.waitFor(async () => ((await inSandbox(a._id)).completed === null ? true : undefined), {
        timeoutMs: 10_000,
        message: 'Undo did not reopen it',
      });
      const undone = await h.fake.waitFor(
        async () => ((await seen('#care-leads', a._id)).includes('Undone by @priya') ? seen('#care-leads', a._id) : undefined),
        {
          timeoutMs: 10_000,
        },
      );
      expect(undone).not.toContain('[Undo]');
      expect(undone).toContain('[Complete]');
      await h.fake.waitFor(() => (changeDms('oliver', a._id).length === 2 ? true : undefined), { timeoutMs: 10_000, message: 'the reopen was not told' });
      expect(h.fake.visibleText(changeDms('oliver', a._id)[1]!, { viewer: 'oliver' })).toContain(`@priya reopened your action #${a.action_no}`);
      const verbs = (await h.app.store.listAudit({ actionId: a._id })).map((e) => [e.verb, e.userId]);
      expect(verbs).toEqual(
        expect.arrayContaining([
          ['action.complete', 'U0PRIYA'],
          ['action.reopen', 'U0PRIYA'],
        ]),
      );
    });

    it('two confirmed clicks at once (a double click, two people): the assignee is told once', async () => {
      const a = await urgentAction('Empty the clinical waste bin', care.oliver!);
      const ts = (await alertIn('#care-leads', a._id)).ts;
      await Promise.all([
        h.driver.clickButton('priya', { channel: '#care-leads', ts, text: 'Complete', confirm: 'accept' }),
        h.driver.clickButton('priya', { channel: '#care-leads', ts, text: 'Complete', confirm: 'accept' }),
      ]);
      await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      await h.fake.waitFor(async () => ((await h.app.store.listAudit({ actionId: a._id })).some((e) => e.verb === 'action.complete') ? true : undefined), {
        timeoutMs: 10_000,
      });
      await poll(h);
      expect(changeDms('oliver', a._id)).toHaveLength(1);
      expect((await h.app.store.listDeliveries({ kind: 'change', actionId: a._id })).map((d) => d.state)).toEqual(['sent']);
    });

    it('Undo after 5 minutes says it is too late and how to reopen instead; the post keeps who did it without Undo', async () => {
      const a = await urgentAction('Check the hoist sling', care.oliver!);
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Complete', confirm: 'accept' });
      await h.fake.waitFor(async () => ((await seen('#care-leads', a._id)).includes('[Undo]') ? true : undefined), { timeoutMs: 10_000 });
      await h.setTime(new Date(h.now().getTime() + 5 * 60_000 + 1_000));
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Undo' });
      const late = await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('too late')), {
        timeoutMs: 10_000,
      });
      expect(late.text).toContain('Undo works for 5 minutes');
      expect(late.text).toContain(`\`/care reopen ${a.action_no}\``);
      expect(late.text).toContain('Reopen on its card');
      expect((await inSandbox(a._id)).completed).not.toBeNull();
      const post = await h.fake.waitFor(async () => (!(await seen('#care-leads', a._id)).includes('[Undo]') ? seen('#care-leads', a._id) : undefined), {
        timeoutMs: 10_000,
      });
      expect(post).toContain('Completed by @priya');
    });

    it('a Reopen on a routed completion notice asks first and then says who reopened it; a forged Undo does nothing', async () => {
      const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
      await later();
      const b = await webAppAction(h, {
        task: 'Sign the fire drill log',
        due: new Date('2027-06-15T16:00:00Z'),
        assigned_to: care.oliver!,
        notify_on_complete: [groups.find((g) => g.name === 'Willow Bank seniors')!._id],
      });
      await h.control(`actions/${b._id}/complete`, {});
      await poll(h);
      const notice = await h.fake.waitFor(() => posted('#care-leads', 'completion', b._id)[0], { timeoutMs: 10_000 });
      await expect(h.driver.clickButton('priya', { channel: '#care-leads', ts: notice.ts, text: 'Reopen' })).rejects.toThrow(/asks "Reopen action #/);
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: notice.ts, text: 'Reopen', confirm: 'accept' });
      await h.fake.waitFor(async () => ((await inSandbox(b._id)).completed === null ? true : undefined), { timeoutMs: 10_000 });
      const reopened = await h.fake.waitFor(
        () => {
          const m = posted('#care-leads', 'completion', b._id)[0]!;
          return h.fake.visibleText(m).includes('Reopened by @priya') ? h.fake.visibleText(m) : undefined;
        },
        { timeoutMs: 10_000 },
      );
      expect(reopened).toContain('[Undo]');
      await h.fake.waitFor(() => changeDms('oliver', b._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told of the reopen' });

      // An Undo button the app did not sign (another action, person or time written in) is refused.
      const forged = `U0PRIYA:v1.${Buffer.from(JSON.stringify({ m: { a: b._id, k: 'reopen', x: 4_000_000_000 }, e: 4_000_000_000 })).toString('base64url')}.AAAA`;
      const { ts } = await h.app.slack.chat.postMessage({
        channel: 'C0LEADS',
        text: 'forged',
        blocks: [
          {
            type: 'section',
            block_id: `by_${b._id}`,
            text: { type: 'mrkdwn', text: 'Reopened' },
            accessory: { type: 'button', action_id: 'care_undo', text: { type: 'plain_text', text: 'Undo' }, value: forged },
          },
        ],
      });
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: ts!, text: 'Undo' });
      await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('no longer valid')), { timeoutMs: 10_000 });
      expect((await inSandbox(b._id)).completed).toBeNull();
    });
  });

  describe('Take it', () => {
    it('on an urgent alert already assigned: asks first naming the assignee, assigns it to the clicker, says "Taken by", tells the one it was taken from', async () => {
      const a = await urgentAction('Escort Mrs Khan to the clinic', care.oliver!);
      const take = buttonNamed(await alertIn('#care-leads', a._id), 'Take it');
      expect(take?.confirm?.text.text).toContain('assigned to Oliver Bennett.');
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Take it', confirm: 'accept' });
      await h.fake.waitFor(async () => ((await inSandbox(a._id)).assigned_to === care.priya ? true : undefined), { timeoutMs: 10_000, message: 'not taken' });
      const post = await h.fake.waitFor(async () => ((await seen('#care-leads', a._id)).includes('Taken by @priya') ? seen('#care-leads', a._id) : undefined), {
        timeoutMs: 10_000,
      });
      expect(post).toContain('@priya'); // the card names the new assignee
      const dm = await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      expect(h.fake.visibleText(dm, { viewer: 'oliver' })).toContain(`@priya took your action #${a.action_no}`);
      expect((await h.app.store.listAudit({ actionId: a._id })).find((e) => e.verb === 'action.assign')).toMatchObject({
        userId: 'U0PRIYA',
        details: { from: care.oliver, to: care.priya, via: 'take-it' },
      });
      // Priya made it hers: no assignment DM about herself.
      await poll(h);
      expect(h.fake.dms('priya').filter((m) => deliveryActionId(m) === a._id)).toEqual([]);
      expect(changeDms('oliver', a._id)).toHaveLength(1);
    });

    it('an unassigned one is taken without a dialog, also where task text is hidden; someone not linked is told how to link', async () => {
      const a = await urgentAction('Collect the prescriptions', null);
      await h.driver.clickButton('visitor', { channel: '#care-team', ts: (await alertIn('#care-team', a._id)).ts, text: 'Take it' });
      await h.fake.waitFor(() => h.fake.ephemerals('visitor', { channel: '#care-team' }).find((e) => e.text.includes('/care link') && e.ts), {
        timeoutMs: 10_000,
      });
      expect((await inSandbox(a._id)).assigned_to ?? null).toBeNull();
      // The other channel's alert is redrawn after Sophie's take (post-redraw.ts): Slack holds that edit for a while,
      // so that alert is still the stale one when Priya presses it below.
      h.fake.faults.failNext('chat.update', 1, { delayMs: 8_000, args: { channel: h.fake.channel('care-leads')!.id } });
      await h.driver.clickButton('sophie', { channel: '#care-team', ts: (await alertIn('#care-team', a._id)).ts, text: 'Take it' });
      await h.fake.waitFor(async () => ((await inSandbox(a._id)).assigned_to === care.sophie ? true : undefined), { timeoutMs: 10_000, message: 'not taken' });
      const post = await h.fake.waitFor(async () => ((await seen('#care-team', a._id)).includes('Taken by @sophie') ? seen('#care-team', a._id) : undefined), {
        timeoutMs: 10_000,
      });
      expect(post).not.toContain('prescriptions'); // still hidden in this channel
      expect(post).toContain('[View]');
      expect(post).not.toContain('[Complete]');

      // The other channel's alert, not yet redrawn, still shows it as nobody's: its Take it does not take it from Sophie unasked.
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn('#care-leads', a._id)).ts, text: 'Take it' });
      const left = await h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('took it meanwhile')), {
        timeoutMs: 10_000,
      });
      expect(left.text).toContain('assigned to <@U0SOPHIE> now');
      expect((await inSandbox(a._id)).assigned_to).toBe(care.sophie);
      expect(changeDms('sophie', a._id)).toEqual([]);
    });
  });

  it('the assignee is not DMed about their own change, nor about an unassigned action', async () => {
    const own = await urgentAction('Oliver’s own round', care.oliver!);
    expect((await command(h, 'oliver', `/care done ${own.action_no}`)).text).toContain('Completed');
    const nobodys = await urgentAction('Nobody’s job', null);
    expect((await command(h, 'sophie', `/care done ${nobodys.action_no}`)).text).toContain('Completed');
    await poll(h);
    expect(changeDms('oliver', own._id)).toEqual([]);
    expect(await h.app.store.listDeliveries({ kind: 'change', actionId: own._id })).toEqual([]);
    expect(await h.app.store.listDeliveries({ kind: 'change', actionId: nobodys._id })).toEqual([]);
  });

  it('a change DM that could not be sent is sent by the next poll, once', async () => {
    const a = await urgentAction('Order more gloves', care.priya!);
    // Priya's first change DM: her DM is opened inside the delivery's claim, and that fails.
    h.fake.faults.failNext('conversations.open', 2, 'internal_error');
    expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('Completed');
    await h.fake.waitFor(async () => ((await h.app.store.listDeliveries({ kind: 'change', actionId: a._id }))[0]?.state === 'failed' ? true : undefined), {
      timeoutMs: 10_000,
      message: 'the DM did not fail',
    });
    expect(changeDms('priya', a._id)).toEqual([]);
    await poll(h);
    await poll(h);
    expect(changeDms('priya', a._id)).toHaveLength(1);
    expect((await h.app.store.listDeliveries({ kind: 'change', actionId: a._id })).map((d) => d.state)).toEqual(['sent']);
  });
});
