import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/**
 * The core flows, once over HTTP (signed requests to /slack/events) and once in
 * Socket Mode (the app's WebSocket connections to the fake, envelopes and acks):
 * a person sees the same thing either way.
 * Clocks: 2026-03-10 10:00 UTC = 10:00 in London.
 */
const START = new Date('2026-03-10T10:00:00Z');

describe.each(['http', 'socket'] as const)('core flows over %s', (transport) => {
  let h: Harness;
  let priya: string;

  const homeText = (user: string) => {
    const home = h.fake.home(user);
    return home ? h.fake.visibleText(home, { viewer: user }) : '';
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, transport });
    await linkDirectly(h, 'sophie');
    priya = await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('/care help answers the person privately with what they can do', async () => {
    const help = await command(h, 'oliver', '/care help');
    expect(help.text).toContain('/care mine');
    expect(help.text).toContain('not linked');
    expect(h.fake.messages('#care-team')).toHaveLength(0);
  });

  it('/care new opens the form; filled in and submitted, the action exists in the care system and the person is told', async () => {
    const sent = await h.driver.slash('sophie', '/care new Order more incontinence pads', { channel: '#care-team' });
    expect(sent.acked).toBe(true);
    await h.fake.waitFor(() => h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal', { timeoutMs: 10_000 });
    const result = await h.driver.modal('sophie').fill('Due date', '2026-03-12').fill('Due time', '15:00').submit();
    expect(result.outcome).toBe('closed');
    expect(h.fake.openModal('sophie')).toBeUndefined();

    const confirmation = await h.fake.waitFor(() => h.fake.ephemerals('sophie').find((e) => e.text.startsWith('Created')), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(confirmation, { viewer: 'sophie' })).toContain('Order more incontinence pads');
    const created = await h.app.care.actions.collect({ filters: { completed: 'unset' }, attributes: ['_id', 'task', 'due'], limit: 100 });
    const pads = created.find((a) => a.task === 'Order more incontinence pads');
    expect(pads?.due).toBe('2026-03-12 15:00:00');
  });

  it('Complete on a /care mine card completes the action and shows it done in place', async () => {
    const action = await webAppAction(h, { task: 'Check the fire alarm log', due: new Date('2026-03-10T16:00:00Z'), assigned_to: priya });
    const list = await command(h, 'priya', '/care mine');
    expect(list.text).toContain('Check the fire alarm log');
    const click = await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-team', text: 'Complete' });
    expect(click.acked).toBe(true);
    await h.fake.waitFor(
      () => {
        const e = h.fake.ephemerals('priya').find((x) => x.ts === list.message.ts);
        return e && h.fake.visibleText(e).includes('[Reopen]');
      },
      { timeoutMs: 10_000 },
    );
    expect((await h.control(`actions/${action._id}`)).completed).not.toBeNull();
  });

  it('opening the Home tab shows the person their open actions', async () => {
    await webAppAction(h, { task: 'Restock the first aid box', due: new Date('2026-03-11T09:00:00Z'), assigned_to: priya });
    const opened = await h.driver.openHome('priya');
    expect(opened.acked).toBe(true);
    await h.fake.waitFor(() => homeText('priya').includes('Restock the first aid box'), { timeoutMs: 10_000 });
    expect(h.fake.calls('views.publish').filter((c) => c.args.user_id === 'U0PRIYA').length).toBeGreaterThan(0);
  });

  it('every request was acked in time', () => {
    expect(h.fake.ackStats().failures).toBe(0);
    if (transport === 'socket') {
      expect(h.fake.socket.envelopes().length).toBe(h.fake.acks().length);
    } else {
      expect(h.fake.socket.envelopes()).toHaveLength(0);
    }
  });
});

describe('Socket Mode: health and stopping', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, transport: 'socket' });
  });
  afterAll(async () => h?.close());

  it('serves /healthz on the app port; nothing there takes Slack requests', async () => {
    const health = await fetch(h.appUrl('/healthz'));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, checks: { store: { ok: true }, careApi: { ok: true } } });
    const events = await fetch(h.appUrl('/slack/events'), { method: 'POST', body: 'command=%2Fcare&text=help' });
    expect(events.status).toBe(404);
  });

  it('stop() closes every connection with a close handshake and opens no new one', async () => {
    const opens = h.fake.calls('apps.connections.open').length;
    expect(h.fake.socket.openConnections()).toHaveLength(2);
    await h.app.stop();
    await h.fake.waitFor(() => h.fake.socket.connections().every((c) => c.state === 'closed'));
    expect(h.fake.socket.connections().map((c) => [c.closedBy, c.closeCode])).toEqual([
      ['app', 1000],
      ['app', 1000],
    ]);
    await expect(fetch(h.appUrl('/healthz'))).rejects.toThrow();
    // Past the client's reconnect delay (about 5 s): still nothing.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(h.fake.calls('apps.connections.open')).toHaveLength(opens);
  });
});
