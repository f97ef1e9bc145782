import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, type Harness, startHarness } from './harness.js';

/**
 * Snooze on action cards (an ephemeral card, an urgent alert in a channel, the
 * Home tab, the date and time form) and the "Open in care system" link.
 * Clocks: 2026-03-10 10:00 UTC, a Tuesday = 10:00 in London (GMT), 06:00 in New York (EDT).
 */
const START = new Date('2026-03-10T10:00:00Z');
const WEB = 'https://care.example/actions/{id}';

type CareAction = Record<string, unknown> & { _id: string; action_no: string; due: string };

describe('Snooze and the care system link', () => {
  let h: Harness;
  let priya: string;
  let oliver: string;

  const read = async (id: string): Promise<CareAction> => h.control(`actions/${id}`);
  const dueOf = async (id: string) => parseApiDateTime((await read(id)).due)?.toISOString();
  /** Every field but the due time and the modified stamp. */
  const allBut = (a: CareAction) => {
    const { due: _due, modified: _modified, ...rest } = a;
    return rest;
  };
  const dateToken = (iso: string) => `<!date^${new Date(iso).getTime() / 1000}^`;
  const snoozes = async (id: string) => (await h.app.store.listAudit({ actionId: id })).filter((e) => e.verb === 'action.snooze');
  /** An action with every field set: reminders, notify groups, pin, urgent, assignee, tags. */
  const fullAction = async (task: string, due: string, assignee: string): Promise<CareAction> => {
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id'], limit: 2 });
    return h.control('actions', {
      task,
      due,
      assigned_to: assignee,
      urgent: true,
      pin_to_calendar: 'user',
      notify_on_complete: groups.map((g) => g._id),
      user_tags: ['5f0c0ffee0ddba11ab1e0001', '5f0c0ffee0ddba11ab1e0002'],
      reminders: [
        { method: 'email', offset_type: 'delta', offset_delta: 30 },
        { method: 'sms_or_whatsapp', offset_type: 'time', offset_time_str: '08:00' },
      ],
    });
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, careWebUrl: WEB });
    await linkDirectly(h, 'sophie');
    priya = await linkDirectly(h, 'priya');
    oliver = await linkDirectly(h, 'oliver');
  });
  afterAll(async () => h?.close());

  it('"Tomorrow, same time" on a card keeps every other field, updates the card in place and is audited', async () => {
    const a = await fullAction('Chase the district nurse about dressings', '2026-03-10T09:00:00Z', priya);
    const before = await read(a._id);
    expect(before.reminders).toHaveLength(2);
    const card = await command(h, 'sophie', `/care show ${a.action_no}`);
    expect(card.text).toContain('[Complete] [Edit] [Snooze… ▾] [History] [Open in care system]');
    const ephemerals = h.fake.ephemerals('sophie').length;

    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: 'Tomorrow, same time' });

    await h.fake.waitFor(async () => (await dueOf(a._id)) === '2026-03-11T09:00:00.000Z', { timeoutMs: 10_000 });
    expect(allBut(await read(a._id))).toEqual(allBut(before));
    const replaced = await h.fake.waitFor(
      () => {
        const e = h.fake.ephemerals('sophie').find((x) => x.ts === card.message.ts);
        return e && JSON.stringify(e.blocks).includes(dateToken('2026-03-11T09:00:00Z')) ? e : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(h.fake.visibleText(replaced)).toContain('Chase the district nurse');
    expect(h.fake.ephemerals('sophie')).toHaveLength(ephemerals); // replaced, not a new message
    const [audit, ...more] = await snoozes(a._id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ userId: 'U0SOPHIE', details: { from: before.due, to: (await read(a._id)).due } });
    expect(parseApiDateTime(String(audit!.details.from))?.toISOString()).toBe('2026-03-10T09:00:00.000Z');
  });

  it('"Pick a date and time…" opens a form in the person\'s zone, refuses the past inline, and updates the card it came from', async () => {
    const a = await fullAction('Order more continence pads', '2026-03-10T16:00:00Z', priya);
    const before = await read(a._id);
    const card = await command(h, 'sophie', `/care show ${a.action_no}`);
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: 'Pick a date and time…' });
    const modal = await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_snooze_modal' ? h.fake.openModal('sophie') : undefined), {
      timeoutMs: 10_000,
    });
    // It starts from the current due time (still ahead), on Sophie's London clock.
    const shown = (id: string) => modal.view.blocks.find((b) => b.block_id === id) as { element: { initial_date?: string; initial_time?: string } };
    expect(shown('due_date').element.initial_date).toBe('2026-03-10');
    expect(shown('due_time').element.initial_time).toBe('16:00');
    expect(h.fake.visibleText(modal.view)).toContain('Europe/London');

    const refused = await h.driver.modal('sophie').fill('Date', '2026-03-10').fill('Time', '08:00').submit();
    expect(refused.outcome).toBe('errors');
    expect(h.fake.inlineError('sophie', 'Time')).toContain('That time has passed');
    expect(await dueOf(a._id)).toBe('2026-03-10T16:00:00.000Z');

    const saved = await h.driver.modal('sophie').fill('Date', '2026-03-31').fill('Time', '14:30').submit();
    expect(saved.outcome).toBe('closed');
    // 31 March is after the clocks go forward: 14:30 BST.
    await h.fake.waitFor(async () => (await dueOf(a._id)) === '2026-03-31T13:30:00.000Z', { timeoutMs: 10_000 });
    expect(allBut(await read(a._id))).toEqual(allBut(before));
    await h.fake.waitFor(
      () => JSON.stringify(h.fake.ephemerals('sophie').find((x) => x.ts === card.message.ts)?.blocks).includes(dateToken('2026-03-31T13:30:00Z')) || undefined,
      { timeoutMs: 10_000 },
    );
    expect(await snoozes(a._id)).toHaveLength(1);
  });

  it("the form's hidden data is sealed: another person's or a tampered copy is refused, and nothing changes", async () => {
    const a = await fullAction('Renew the hoist service contract', '2026-03-12T10:00:00Z', priya);
    await command(h, 'sophie', `/care show ${a.action_no}`);
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: 'Pick a date and time…' });
    const modal = await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_snooze_modal' ? h.fake.openModal('sophie') : undefined), {
      timeoutMs: 10_000,
    });
    const sealed = String(modal.view.private_metadata);
    await h.driver.modal('sophie').close();
    const forge = async (userId: string, metadata: string) => {
      const answer = await h.driver.sendPayload('view_submission', 'care_snooze_modal', userId, {
        type: 'view_submission',
        user: { id: userId, name: userId.toLowerCase(), team_id: 'T0CARE' },
        team: { id: 'T0CARE', domain: 'brightwater' },
        api_app_id: 'A0CAREAPP',
        trigger_id: h.fake.issueTrigger(userId),
        view: {
          id: modal.view.id,
          team_id: 'T0CARE',
          type: 'modal',
          callback_id: 'care_snooze_modal',
          private_metadata: metadata,
          state: {
            values: {
              due_date: { value: { type: 'datepicker', selected_date: '2026-04-20' } },
              due_time: { value: { type: 'timepicker', selected_time: '10:00' } },
            },
          },
        },
        response_urls: [],
      });
      return answer.json as { response_action?: string; view?: unknown } | undefined;
    };
    const [, body, tag] = sealed.split('.');
    for (const [who, metadata] of [
      ['U0PRIYA', sealed],
      ['U0SOPHIE', `v1.${body}x.${tag}`],
    ] as const) {
      const answer = await forge(who, metadata);
      expect(answer?.response_action).toBe('update');
      expect(JSON.stringify(answer?.view)).toContain('This form arrived damaged or expired');
    }
    expect(await dueOf(a._id)).toBe('2026-03-12T10:00:00.000Z');
    expect(await snoozes(a._id)).toEqual([]);
    // The same submission with Sophie's own seal is taken (10:00 BST on 20 April).
    expect((await forge('U0SOPHIE', sealed))?.response_action).toBeUndefined();
    await h.fake.waitFor(async () => (await dueOf(a._id)) === '2026-04-20T09:00:00.000Z', { timeoutMs: 10_000 });
  });

  it('"This evening" on the Home tab is 18:00 on the person\'s own clock (Oliver, New York)', async () => {
    const a = await fullAction('Call the Gloucester office about the rota', '2026-03-10T12:00:00Z', oliver);
    const before = await read(a._id);
    await h.driver.openHome('oliver');
    await h.fake.waitFor(() => (h.fake.home('oliver') && h.fake.visibleText(h.fake.home('oliver')!).includes('Gloucester office')) || undefined, {
      timeoutMs: 10_000,
    });
    await h.driver.selectOption('oliver', { home: true, control: 'Snooze…', option: 'This evening (18:00)' });
    // 18:00 EDT on the 10th.
    await h.fake.waitFor(async () => (await dueOf(a._id)) === '2026-03-10T22:00:00.000Z', { timeoutMs: 10_000 });
    expect(allBut(await read(a._id))).toEqual(allBut(before));
    await h.fake.waitFor(() => JSON.stringify(h.fake.home('oliver')?.blocks).includes(dateToken('2026-03-10T22:00:00Z')) || undefined, { timeoutMs: 10_000 });
  });

  describe('on an urgent alert in a channel', () => {
    let a: CareAction;
    const alertIn = (channel: string) => h.fake.messages(channel).find((m) => JSON.stringify(m.blocks).includes(`alert_${a._id}`));

    beforeAll(async () => {
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-team' });
      await poll(h);
      await h.setTime(new Date(h.now().getTime() + 5_000));
      a = await fullAction('Fix the bed rail in room 12', '2026-03-10T15:00:00Z', priya);
      await poll(h);
      await h.fake.waitFor(() => (alertIn('#care-leads') && alertIn('#care-team')) || undefined, { timeoutMs: 10_000 });
    });

    it('carries Snooze and the care system link', () => {
      const blocks = JSON.stringify(alertIn('#care-leads')!.blocks);
      expect(h.fake.visibleText(alertIn('#care-leads')!)).toContain('[Snooze… ▾]');
      expect(blocks).toContain(`"url":"https://care.example/actions/${a._id}"`);
    });

    it('"+1 hour" asks first on a channel post, then moves an action due later an hour past its due time, and updates that post in place', async () => {
      const before = await read(a._id);
      const cardTs = alertIn('#care-leads')!.ts;
      await h.driver.selectOption('priya', { channel: '#care-leads', ts: cardTs, control: 'Snooze…', option: '+1 hour' });
      await h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_snooze_confirm' ? true : undefined), { timeoutMs: 10_000 });
      expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
      await h.fake.waitFor(async () => (await dueOf(a._id)) === '2026-03-10T16:00:00.000Z', { timeoutMs: 10_000 });
      expect(allBut(await read(a._id))).toEqual(allBut(before));
      await h.fake.waitFor(() => h.fake.calls('chat.update').find((c) => c.args.ts === cardTs), { timeoutMs: 10_000 });
      expect(JSON.stringify(alertIn('#care-leads')!.blocks)).toContain(dateToken('2026-03-10T16:00:00Z'));
      // Still urgent, the same episode: the next poll posts no second alert.
      await poll(h);
      expect(h.fake.messages('#care-leads').filter((m) => JSON.stringify(m.blocks).includes(`alert_${a._id}`))).toHaveLength(1);
    });

    it('someone not linked is told how to link, and nothing changes', async () => {
      const due = await dueOf(a._id);
      // Where task text is hidden the alert offers View (the card, to the clicker only) instead of Snooze.
      expect(h.fake.visibleText(alertIn('#care-team')!)).not.toContain('Snooze');
      await h.driver.clickButton('visitor', { channel: '#care-team', ts: alertIn('#care-team')!.ts, text: 'View' });
      const told = await h.fake.waitFor(() => h.fake.ephemerals('visitor', { channel: '#care-team' }).find((e) => e.text.includes('/care link')), {
        timeoutMs: 10_000,
      });
      expect(told.text).toContain('linked care account');
      expect(await dueOf(a._id)).toBe(due);
      expect(await snoozes(a._id)).toHaveLength(1);
    });

    it('a card whose action was completed meanwhile is not snoozed, and then shows no Snooze', async () => {
      await h.control(`actions/${a._id}/complete`, {});
      const due = await dueOf(a._id);
      const cardTs = alertIn('#care-leads')!.ts;
      await h.driver.selectOption('priya', { channel: '#care-leads', ts: cardTs, control: 'Snooze…', option: 'Next Monday, same time' });
      await h.fake.waitFor(() => (h.fake.visibleText(h.fake.openModal('priya')?.view ?? { blocks: [] }).includes('already complete') ? true : undefined), {
        timeoutMs: 10_000,
      });
      await h.driver.modal('priya').close();
      expect(await dueOf(a._id)).toBe(due);
      expect(await snoozes(a._id)).toHaveLength(1);
      const seen = await h.fake.waitFor(
        () => (h.fake.visibleText(alertIn('#care-leads')!).includes('[Reopen]') ? h.fake.visibleText(alertIn('#care-leads')!) : undefined),
        {
          timeoutMs: 10_000,
        },
      );
      expect(seen).not.toContain('[Snooze… ▾]'); // the menu; the row of the earlier snooze stays ("Snoozed to … by @priya")
      expect(seen).toContain('[Open in care system]');
    });
  });

  it('"Open in care system" is a link to the action\'s page, and Slack\'s notice of the click is acknowledged', async () => {
    const a = await fullAction('Book the chiropodist', '2026-03-12T10:00:00Z', priya);
    const card = await command(h, 'sophie', `/care show ${a.action_no}`);
    const buttons = (card.message.blocks ?? []).flatMap((b) => ((b as { elements?: unknown[] }).elements ?? []) as { url?: string; text?: { text: string } }[]);
    expect(buttons.find((b) => b.text?.text === 'Open in care system')?.url).toBe(`https://care.example/actions/${a._id}`);
    const click = await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Open in care system' });
    expect(click.acked).toBe(true);
    expect(h.logs.some((l) => l.includes('Unhandled') || l.includes('not acknowledged'))).toBe(false);
  });
});

describe('without CARE_WEB_URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
  });
  afterAll(async () => h?.close());

  it('cards have Snooze but no care system link', async () => {
    const a = await h.control('actions', { task: 'Check the fire doors', due: '2026-03-11T09:00:00Z' });
    const card = await command(h, 'sophie', `/care show ${a.action_no}`);
    expect(card.text).toContain('[Snooze… ▾]');
    expect(card.text).not.toContain('Open in care system');
    expect(card.raw).not.toContain('"url"');
  });
});
