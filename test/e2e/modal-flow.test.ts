import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * The one open-then-fill helper (src/slack/listeners/modal-flow.ts) when the filling fails:
 * the "Loading…" modal becomes the failure in words, logged by the listener rules
 * (an operator's problem at warn, a person's mistake at info without its text),
 * and the app carries on.
 */
const START = new Date('2026-03-10T09:00:00Z');

interface LogEntry {
  level: string;
  msg: string;
  mistake?: string;
  error?: { name?: string };
}

describe('a modal whose filling fails', () => {
  let h: Harness;
  const entries = (from: number, msg: string) =>
    h.logs
      .slice(from)
      .map((l) => JSON.parse(l) as LogEntry)
      .filter((e) => e.msg === msg);

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    await h.control('faults', { reset: true });
    for (const u of ['sophie', 'priya']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('says the care system is busy when it answers 503 while the edit form loads; the next Edit opens the form', async () => {
    const action = await webAppAction(h, { task: 'Check the hoist batteries', due: new Date(h.now().getTime() + 3_600_000) });
    await command(h, 'sophie', `/care show ${action.action_no}`, { channel: '#care-team' });
    const from = h.logs.length;
    await h.control('faults', { errorRate: 1, errorStatus: 503 });

    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    const failed = await h.fake.waitFor(
      () => {
        const open = h.fake.openModal('sophie');
        return open && !/Loading/.test(h.fake.visibleText(open.view)) ? open : undefined;
      },
      { timeoutMs: 20_000, message: 'the edit modal was not filled' },
    );
    expect(failed.view.title).toMatchObject({ text: 'Edit care action' });
    expect(h.fake.visibleText(failed.view)).toContain('The care system is busy or unreachable right now. Try again in a minute.');
    expect(failed.stack).toHaveLength(1); // the Loading… view updated in place, not a second modal
    expect(entries(from, 'could not open the edit form').map((e) => e.level)).toEqual(['warn']);
    expect(entries(from, 'edit button failed')).toEqual([]); // the helper told the person; nothing reached the wrapper

    await h.control('faults', { reset: true });
    await h.driver.modal('sophie').close();
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    const form = await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal' ? h.fake.openModal('sophie') : undefined), {
      timeoutMs: 10_000,
      message: 'the edit form did not open once the care system answered again',
    });
    expect(JSON.stringify(form.view.blocks)).toContain('Check the hoist batteries');
    expect(h.logs.join('\n')).not.toContain('unhandled error in a Slack listener');
    expect(h.fake.ackStats().failures).toBe(0);
  });

  it('says a person’s own mistake in the modal and logs it at info, without its words', async () => {
    await h.driver.openHome('priya');
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.home('priya') ?? { blocks: [] }).includes('[Turn on]') ? true : undefined), {
      timeoutMs: 10_000,
      message: "Priya's Home tab with the morning summary row",
    });
    // An admin unlinks Priya while her Home tab still shows the summary row.
    await h.app.store.deleteLink(h.fake.teamId, 'U0PRIYA');
    const from = h.logs.length;

    await h.driver.clickButton('priya', { home: true, text: 'Turn on' });
    const failed = await h.fake.waitFor(
      () => {
        const open = h.fake.openModal('priya');
        return open && !/Loading/.test(h.fake.visibleText(open.view)) ? open : undefined;
      },
      { timeoutMs: 10_000, message: 'the summary modal was not filled' },
    );
    const said = 'Only people with a linked care account can do that.';
    expect(h.fake.visibleText(failed.view)).toContain(said);
    expect(failed.view.callback_id).not.toBe('care_summary_modal');
    expect(entries(from, 'could not fill the summary form').map((e) => [e.level, e.mistake])).toEqual([['info', 'not-linked']]);
    expect(h.logs.slice(from).join('\n')).not.toContain(said);
    expect(h.fake.ackStats().failures).toBe(0);
  });
});
