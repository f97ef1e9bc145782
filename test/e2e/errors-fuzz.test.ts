import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { slackSignature } from '../../dev/slack-fake/index.js';
import { command, dayOn, linkDirectly, webAppAction, type Harness, type Reply, startHarness } from './harness.js';

/** Anything a person can see must read as a sentence, not as a program's insides. */
const NOT_A_STACK = /\n\s+at \S+ \(|TypeError|ReferenceError|RangeError|SyntaxError|undefined|\[object Object\]|NaN/;
/** Broadcast mentions a person typed must never come back as real ones. */
const BROADCAST = /<!(channel|here|everyone|subteam)/;

const FULL_KEY = { apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' };

/** A small deterministic PRNG (mulberry32), so a failing run can be repeated with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('errors from the care system and from Slack', () => {
  let h: Harness;
  let action: { _id: string; action_no: string };

  const sentence = (reply: Reply) => {
    expect(reply.text).not.toMatch(NOT_A_STACK);
    return reply.text;
  };

  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    action = await webAppAction(h, { task: 'Check the bed rails', due: new Date(h.now().getTime() + 3_600_000), assigned_to: sophie });
  });
  afterEach(async () => {
    await h.control('faults', { reset: true });
    await h.control('keys', FULL_KEY);
    h.fake.faults.clear();
  });
  afterAll(async () => h?.close());

  it('a 404 becomes "no such action"', async () => {
    expect(sentence(await command(h, 'sophie', '/care done ffffffffffffffffffffffff'))).toContain('There is no action with the Id');
  });

  it('a 403 says what the API key may not do', async () => {
    await h.control('keys', { ...FULL_KEY, permissions: { actions: ['read'], users: ['read'], locations: ['read'], 'notification-groups': ['read'] } });
    const done = sentence(await command(h, 'sophie', `/care done ${action.action_no}`));
    expect(done).toContain("The care system's API key may not complete actions");
    expect((await h.control(`actions/${action._id}`)).completed).toBeNull();

    await h.control('keys', { ...FULL_KEY, permissions: { users: ['read'] } });
    expect(sentence(await command(h, 'sophie', '/care mine'))).toContain('API key may not read actions');
    expect(sentence(await command(h, 'sophie', '/care literature'))).toContain('may not read literature items');
  });

  it('a 403 on create is shown in the modal, not swallowed', async () => {
    await h.control('keys', { ...FULL_KEY, permissions: { actions: ['read'], users: ['read'], 'notification-groups': ['read'] } });
    await h.driver.slash('sophie', '/care new Replace the shower head', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.openModal('sophie'), { timeoutMs: 10_000 });
    const result = await h.driver.modal('sophie').fill('Due date', dayOn(h, 1)).fill('Due time', '10:00').submit();
    expect(result.outcome).toBe('updated');
    const shown = h.fake.visibleText(h.fake.openModal('sophie')!.view);
    expect(shown).toContain('may not create actions');
    expect(shown).not.toMatch(NOT_A_STACK);
    await h.driver.modal('sophie').close();
  });

  it('429s past the client’s own retries: "busy, try again", and the next command works', async () => {
    await h.control('faults', { force429: 10 });
    expect(sentence(await command(h, 'sophie', '/care find bed', { channel: '#care-team' }, 20_000))).toContain('The care system is busy');
    await h.control('faults', { reset: true });
    expect((await command(h, 'sophie', '/care find bed')).text).toContain('Check the bed rails');
  });

  it('a 429 the client waits out is invisible to the person', async () => {
    await h.control('faults', { force429: 2 });
    expect((await command(h, 'sophie', '/care find bed', { channel: '#care-team' }, 20_000)).text).toContain('Check the bed rails');
  });

  it('5xx after the client’s retries: "busy, try again", for commands and buttons', async () => {
    await h.control('faults', { errorRate: 1, errorStatus: 503 });
    expect(sentence(await command(h, 'sophie', `/care show ${action._id}`, { channel: '#care-team' }, 20_000))).toContain('The care system is busy');
    await h.control('faults', { errorRate: 1, errorStatus: 500 });
    expect(sentence(await command(h, 'sophie', '/care mine'))).toContain('Try again');

    await h.control('faults', { reset: true });
    const card = await command(h, 'sophie', `/care show ${action.action_no}`);
    await h.control('faults', { errorRate: 1, errorStatus: 500 });
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', ts: card.message.ts, text: 'Complete' });
    const told = await h.fake.waitFor(() => h.fake.ephemerals('sophie').find((e) => e.text.includes('busy')), { timeoutMs: 10_000 });
    expect(told.text).not.toMatch(NOT_A_STACK);
    await h.control('faults', { reset: true });
    expect((await h.control(`actions/${action._id}`)).completed).toBeNull();
  });

  it('a Slack Web API failure while opening the form is told to the person', async () => {
    h.fake.faults.failNext('views.open', 1, 'internal_error');
    const reply = await command(h, 'sophie', '/care new Anything');
    expect(sentence(reply)).toContain('Something went wrong on our side');
    expect(h.fake.openModal('sophie')).toBeUndefined();
  });

  it('keeps running and healthy after all that', async () => {
    expect((await command(h, 'sophie', '/care help')).text).toContain('/care mine');
    expect(h.logs.join('\n')).not.toContain('unhandled error in a Slack listener');
    expect(h.fake.ackStats().failures).toBe(0);
  });
});

describe('Slack request signatures', () => {
  let h: Harness;
  let action: { _id: string; action_no: string };
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    action = await webAppAction(h, { task: 'Test the fire alarm', due: new Date(h.now().getTime() + 3_600_000), assigned_to: sophie });
  });
  afterAll(async () => h?.close());

  const doneBody = () =>
    new URLSearchParams({
      command: '/care',
      text: `done ${action.action_no}`,
      team_id: 'T0CARE',
      user_id: 'U0SOPHIE',
      user_name: 'sophie',
      channel_id: 'C0CARE',
      trigger_id: h.fake.issueTrigger('U0SOPHIE'),
      response_url: h.fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0SOPHIE', command: '/care' }),
    }).toString();

  it('refuses a forged signature with 401 and changes nothing', async () => {
    const res = await h.driver.rawRequest(doneBody(), { signature: `v0=${'0'.repeat(64)}` });
    expect(res.status).toBe(401);
  });

  it('refuses a correctly signed but stale request (replay) with 401', async () => {
    const res = await h.driver.rawRequest(doneBody(), { timestampSec: Math.floor(Date.now() / 1000) - 10 * 60 });
    expect(res.status).toBe(401);
  });

  it('refuses a request signed with another secret, and one with its body changed after signing', async () => {
    const body = doneBody();
    const ts = Math.floor(Date.now() / 1000);
    const wrongSecret = slackSignature('not-the-secret', ts, body);
    expect((await h.driver.rawRequest(body, { signature: wrongSecret, timestampSec: ts })).status).toBe(401);
    const signedOther = slackSignature('e2e-signing-secret', ts, body.replace('done', 'help'));
    expect((await h.driver.rawRequest(body, { signature: signedOther, timestampSec: ts })).status).toBe(401);
  });

  it('none of those did anything', async () => {
    // Give a wrongly accepted request time to act before looking.
    await command(h, 'sophie', '/care help');
    expect((await h.control(`actions/${action._id}`)).completed).toBeNull();
    expect(await h.app.store.listAudit()).toEqual([]);
    expect(h.fake.calls('response_url').filter((c) => c.status === 200)).toHaveLength(1); // only the help answer
  });

  it('accepts the same request when it is signed properly', async () => {
    const res = await h.driver.rawRequest(doneBody());
    expect(res.status).toBe(200);
    await h.fake.waitFor(async () => ((await h.control(`actions/${action._id}`)).completed ? true : undefined), { timeoutMs: 10_000 });
  });
});

describe('fuzzing the command parser and the modal with hostile input', () => {
  let h: Harness;
  const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
  const random = prng(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  const HOSTILE = [
    '<!channel>',
    '<!here>',
    '<!everyone>',
    '<!subteam^S123|@nurses>',
    '<@U0AMELIA>',
    '<#C0CARE|care-team>',
    '<https://evil.example|click me>',
    '&lt;!channel&gt;',
    '*bold* _it_ ~s~ `code` ```block```',
    '> quote',
    '\u0000\u0001\u0007\u001b[31m',
    '\u202Eevil\u202C',
    '🧑‍⚕️💊',
    "Robert'); DROP TABLE actions;--",
    '../../../etc/passwd',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string, on purpose
    '${process.exit(1)}',
    '{"__proto__":{"x":1}}',
    'ffffffffffffffffffffffff',
    '000000000000000000000000',
    '#-1',
    '1e309',
    '<@U0NOBODY|ghost>',
    '@priya',
    'x'.repeat(5000),
  ];
  const SUBS = [
    '',
    'help',
    'new',
    'mine',
    'due',
    'show',
    'done',
    'reopen',
    'find',
    'locations',
    'literature',
    'link',
    'unlink',
    'whoami',
    'links',
    'digest',
    'route',
    'routes',
    'DUE',
    'Show',
    'frobnicate',
  ];

  const randomText = () => {
    const parts: string[] = [];
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const r = random();
      if (r < 0.5) parts.push(pick(HOSTILE));
      else if (r < 0.7) parts.push(pick(['today', 'tomorrow', 'week', 'overdue', '<@U0PRIYA|priya>', '12', '#3']));
      else parts.push(Array.from({ length: 1 + Math.floor(random() * 12) }, () => String.fromCharCode(Math.floor(random() * 0x2fff))).join(''));
    }
    return parts.join(pick([' ', '  ', '\t', '\n']));
  };

  /** Everything the app posted where people read it (messages, ephemerals, answers, Home tabs). */
  const posted = () =>
    h.fake
      .calls()
      .filter((c) => ['chat.postMessage', 'chat.postEphemeral', 'chat.update', 'response_url', 'views.publish'].includes(c.method))
      .map((c) => ({ method: c.method, body: JSON.stringify(c.args) }));

  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    for (const task of ['Hostile <!channel> task & <b>tags</b>', 'Call <@U0AMELIA> about <https://evil.example|this>', 'Plain task 3']) {
      await webAppAction(h, { task, due: new Date(h.now().getTime() + 3_600_000), assigned_to: sophie });
    }
  });
  afterAll(async () => h?.close());

  it(`answers every random and hostile /care text clearly, and never crashes (seed ${SEED})`, async () => {
    for (let i = 0; i < 120; i++) {
      const user = pick(['sophie', 'visitor', 'priya']);
      const line = `/care ${pick(SUBS)} ${randomText()}`.slice(0, 6000);
      const sent = await h.driver.slash(user, line, { channel: '#care-team' });
      expect(sent.status, line).toBe(200);
      // An answer through the response_url, or the create form.
      await h.fake.waitFor(() => h.fake.state.responseUrls.find((r) => r.url === sent.responseUrl)?.lastPosted ?? h.fake.openModal(user), {
        timeoutMs: 10_000,
        message: `no answer to ${JSON.stringify(line.slice(0, 200))}`,
      });
      while (h.fake.openModal(user)) await h.driver.modal(user).close();
    }
    for (const p of posted()) {
      expect(p.body, p.method).not.toMatch(BROADCAST);
    }
    for (const e of [...h.fake.ephemerals('sophie'), ...h.fake.ephemerals('visitor'), ...h.fake.ephemerals('priya')]) {
      expect(h.fake.visibleText(e)).not.toMatch(NOT_A_STACK);
    }
    expect(h.fake.ackStats().failures).toBe(0);
    expect(h.logs.join('\n')).not.toContain('unhandled error in a Slack listener');
  });

  it('escapes action text from the care system in every list and card', async () => {
    const find = await command(h, 'sophie', '/care find task');
    expect(find.text).toContain('Hostile <!channel> task & <b>tags</b>'); // shown as typed
    expect(find.raw).not.toMatch(BROADCAST);
    expect(find.raw).toContain('&lt;!channel&gt;');
    expect(find.raw).not.toContain('<https://evil.example');
    const mine = await command(h, 'sophie', '/care mine');
    expect(mine.raw).not.toMatch(BROADCAST);
    expect(mine.raw).not.toContain('<@U0AMELIA>');
    await h.driver.openHome('sophie');
    await h.fake.waitFor(() => h.fake.home('sophie'), { timeoutMs: 10_000 });
    expect(JSON.stringify(h.fake.home('sophie'))).not.toMatch(BROADCAST);
  });

  it('answers every hostile modal submission with a valid ack: inline errors on real fields, an update, or a save', async () => {
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    const open = await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal' ? h.fake.openModal('sophie') : undefined), {
      timeoutMs: 10_000,
    });
    const inputIds = new Set(open.view.blocks.filter((b) => b.type === 'input').map((b) => String(b.block_id)));
    const el = (v: Record<string, unknown>) => ({ value: v });
    const text = () => pick([...HOSTILE, '', ' ', 'Real task']);
    const states: unknown[] = [
      null,
      [],
      'values',
      { task: 'oops' },
      { task: { value: 7 } },
      { task: el({ value: null }), due_date: el({ selected_date: null }) },
    ];
    for (let i = 0; i < 60; i++) {
      states.push({
        task: el({ type: 'plain_text_input', value: text() }),
        due_date: el({ type: 'datepicker', selected_date: pick(['2026-12-01', '2026-02-30', '2026-13-45', '', 'null', '9999-99-99', '<!channel>']) }),
        due_time: el({ type: 'timepicker', selected_time: pick(['09:00', '25:99', '', '9:00', '<!here>']) }),
        assignee: el({
          type: 'external_select',
          selected_option: pick([null, { value: 'ffffffffffffffffffffffff' }, { value: 'U0PRIYA' }, { value: '<!channel>' }, { value: 'x'.repeat(3000) }]),
        }),
        urgent: el({ type: 'checkboxes', selected_options: pick([[], [{ value: 'urgent' }], [{ value: '<!channel>' }], 'nope']) }),
        pin_to_calendar: el({ type: 'radio_buttons', selected_option: pick([null, { value: 'user' }, { value: 'moon' }]) }),
        notify_on_complete: el({
          type: 'multi_external_select',
          selected_options: pick([[], [{ value: 'ffffffffffffffffffffffff' }], [{ value: '<!channel>' }]]),
        }),
        reminder_0_method: el({ type: 'static_select', selected_option: pick([null, { value: 'email' }, { value: 'telepathy' }]) }),
        reminder_0_offset: el({ type: 'radio_buttons', selected_option: pick([null, { value: 'delta' }, { value: 'time' }, { value: 'sometimes' }]) }),
        reminder_0_minutes: el({ type: 'static_select', selected_option: pick([null, { value: '15' }, { value: '7' }, { value: '-1' }]) }),
        reminder_0_time: el({ type: 'timepicker', selected_time: pick([null, '08:00', '99:99']) }),
        subject_type: el({ type: 'radio_buttons', selected_option: pick([null, { value: 'service_user' }, { value: 'care_enquiry' }, { value: 'pet' }]) }),
        subject: el({ type: 'plain_text_input', value: pick(['', 'ffffffffffffffffffffffff', 'not-an-id', '<!channel>']) }),
      });
    }
    const metas = [
      open.view.private_metadata,
      open.view.private_metadata,
      open.view.private_metadata,
      '',
      'not json',
      '{"mode":"edit","tz":"Europe/London"}',
      '{"mode":"edit","tz":"Europe/London","actionId":"ffffffffffffffffffffffff"}',
      '{"mode":"create","tz":"Mars/Olympus_Mons"}',
      '{"mode":"create","tz":"Europe/London","channelId":"<!channel>"}',
      JSON.stringify({ mode: 'create', tz: 'Europe/London', pad: 'x'.repeat(2900) }),
    ];
    for (const [i, values] of states.entries()) {
      const metadata = i < 6 ? open.view.private_metadata : pick(metas);
      const answer = await h.driver.sendPayload('view_submission', 'care_action_modal', 'U0SOPHIE', {
        type: 'view_submission',
        user: { id: 'U0SOPHIE', name: 'sophie', team_id: 'T0CARE' },
        team: { id: 'T0CARE', domain: 'brightwater' },
        api_app_id: 'A0CAREAPP',
        trigger_id: h.fake.issueTrigger('U0SOPHIE'),
        view: { ...open.view, private_metadata: metadata, state: { values } },
        response_urls: [],
      });
      const what = `submission ${i}: ${JSON.stringify({ values, metadata }).slice(0, 300)}`;
      expect(answer.status, what).toBe(200);
      expect(answer.acked, what).toBe(true);
      const body = (answer.json ?? {}) as { response_action?: string; errors?: Record<string, string>; view?: unknown };
      if (body.response_action === 'errors') {
        expect(Object.keys(body.errors ?? {}).length, what).toBeGreaterThan(0);
        for (const [field, message] of Object.entries(body.errors ?? {})) {
          expect(inputIds.has(field), `${what}: error on ${field}`).toBe(true);
          expect(message, what).not.toMatch(NOT_A_STACK);
        }
      } else if (body.response_action === 'update') {
        expect(JSON.stringify(body.view), what).not.toMatch(NOT_A_STACK);
      } else {
        expect(answer.text, what).toBe('');
      }
    }
    for (const p of posted()) expect(p.body, p.method).not.toMatch(BROADCAST);
    expect(h.logs.join('\n')).not.toContain('unhandled error in a Slack listener');
    // Still answering.
    expect((await command(h, 'sophie', '/care help')).text).toContain('/care mine');
  });

  it('answers hostile button values with a plain sentence', async () => {
    for (const value of ['', 'not-an-id', '<!channel>', 'x'.repeat(2000), '../../v1/users', 'ffffffffffffffffffffffff']) {
      for (const actionId of ['care_complete', 'care_reopen', 'care_edit', 'care_share_literature', 'care_home_more', 'care_link_approve', 'care_unlink']) {
        const before = h.fake.ephemerals('sophie').length;
        const answer = await h.driver.sendPayload('block_actions', actionId, 'U0SOPHIE', {
          type: 'block_actions',
          user: { id: 'U0SOPHIE', name: 'sophie', team_id: 'T0CARE' },
          team: { id: 'T0CARE', domain: 'brightwater' },
          api_app_id: 'A0CAREAPP',
          trigger_id: h.fake.issueTrigger('U0SOPHIE'),
          container: { type: 'message', message_ts: '1.000001', channel_id: 'C0CARE', is_ephemeral: true },
          channel: { id: 'C0CARE', name: 'care-team' },
          response_url: h.fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0SOPHIE', command: '/care' }),
          actions: [{ type: 'button', action_id: actionId, block_id: `card_${value.slice(0, 50)}`, value, action_ts: '1' }],
        });
        expect(answer.status, `${actionId} ${value.slice(0, 40)}`).toBe(200);
        if (['care_complete', 'care_reopen', 'care_share_literature', 'care_link_approve', 'care_unlink'].includes(actionId)) {
          const told = await h.fake.waitFor(() => h.fake.ephemerals('sophie').slice(before).at(-1), {
            timeoutMs: 10_000,
            message: `${actionId} ${value.slice(0, 40)}`,
          });
          expect(h.fake.visibleText(told), `${actionId} ${value.slice(0, 40)}`).not.toMatch(NOT_A_STACK);
          expect(JSON.stringify(told)).not.toMatch(BROADCAST);
        }
      }
    }
    while (h.fake.openModal('sophie')) await h.driver.modal('sophie').close();
    expect(h.logs.join('\n')).not.toContain('unhandled error in a Slack listener');
  });
});
