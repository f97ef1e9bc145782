import type { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { webClient } from './bolt-app.js';

type Obj = Record<string, unknown>;
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string, extra: Obj = {}) => ({ type: 'section', text: { type: 'mrkdwn', text }, ...extra });
const sections = (n: number) => Array.from({ length: n }, (_, i) => section(`line ${i}`));
const button = (extra: Obj = {}) => ({ type: 'button', text: plain('Go'), action_id: 'go', ...extra });
const actions = (...elements: Obj[]) => ({ type: 'actions', elements });
const options = (n: number, textLength = 5) => Array.from({ length: n }, (_, i) => ({ text: plain(`${i}`.padEnd(textLength, 'x')), value: `v${i}` }));
const fields = (n: number, length = 10) => ({ type: 'section', fields: Array.from({ length: n }, () => ({ type: 'mrkdwn', text: 'f'.repeat(length) })) });
const input = (label = 'Title') => ({ type: 'input', block_id: 'title', label: plain(label), element: { type: 'plain_text_input', action_id: 'v' } });
const modal = (extra: Obj = {}) => ({
  type: 'modal',
  title: plain('New action'),
  submit: plain('Save'),
  close: plain('Cancel'),
  blocks: [section('hi')],
  ...extra,
});

async function slackError(call: Promise<unknown>): Promise<{ error: string; messages: string[] }> {
  try {
    await call;
  } catch (e) {
    const data = (e as { data?: { error: string; response_metadata?: { messages?: string[] } } }).data;
    if (data) return { error: data.error, messages: data.response_metadata?.messages ?? [] };
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('Block Kit limits on messages (chat.postMessage answers invalid_blocks)', () => {
  let fake: SlackFake;
  let client: WebClient;
  beforeAll(async () => {
    fake = await startSlackFake({ postRateLimit: false });
    client = webClient(fake);
  });
  afterAll(() => fake.close());

  const cases: Array<{ rule: string; ok: Obj[]; bad: Obj[]; pointer: string }> = [
    { rule: 'at most 50 blocks', ok: sections(50), bad: sections(51), pointer: '/blocks' },
    { rule: 'section text at most 3000 chars', ok: [section('x'.repeat(3000))], bad: [section('x'.repeat(3001))], pointer: '/blocks/0/text/text' },
    { rule: 'at most 10 fields', ok: [fields(10)], bad: [fields(11)], pointer: '/blocks/0/fields' },
    { rule: 'field text at most 2000 chars', ok: [fields(1, 2000)], bad: [fields(1, 2001)], pointer: '/blocks/0/fields/0/text' },
    {
      rule: 'header at most 150 chars',
      ok: [{ type: 'header', text: plain('h'.repeat(150)) }],
      bad: [{ type: 'header', text: plain('h'.repeat(151)) }],
      pointer: '/blocks/0/text/text',
    },
    {
      rule: 'button text at most 75 chars',
      ok: [actions(button({ text: plain('b'.repeat(75)) }))],
      bad: [actions(button({ text: plain('b'.repeat(76)) }))],
      pointer: '/blocks/0/elements/0/text/text',
    },
    {
      rule: 'action_id at most 255 chars',
      ok: [actions(button({ action_id: 'a'.repeat(255) }))],
      bad: [actions(button({ action_id: 'a'.repeat(256) }))],
      pointer: '/blocks/0/elements/0/action_id',
    },
    {
      rule: 'block_id at most 255 chars',
      ok: [section('x', { block_id: 'b'.repeat(255) })],
      bad: [section('x', { block_id: 'b'.repeat(256) })],
      pointer: '/blocks/0/block_id',
    },
    {
      rule: 'block_ids unique within a message',
      ok: [section('x', { block_id: 'a' }), section('y', { block_id: 'b' })],
      bad: [section('x', { block_id: 'a' }), section('y', { block_id: 'a' })],
      pointer: '/blocks/1/block_id',
    },
    {
      rule: 'action_ids unique within a block (the same id in two blocks is fine)',
      ok: [actions(button({ action_id: 'same' })), actions(button({ action_id: 'same' }))],
      bad: [actions(button({ action_id: 'same' }), button({ action_id: 'same' }))],
      pointer: '/blocks/0/elements/1/action_id',
    },
    {
      rule: 'button value at most 2000 chars',
      ok: [actions(button({ value: 'v'.repeat(2000) }))],
      bad: [actions(button({ value: 'v'.repeat(2001) }))],
      pointer: '/blocks/0/elements/0/value',
    },
    {
      rule: 'select at most 100 options',
      ok: [actions({ type: 'static_select', action_id: 's', placeholder: plain('Pick'), options: options(100) })],
      bad: [actions({ type: 'static_select', action_id: 's', placeholder: plain('Pick'), options: options(101) })],
      pointer: '/blocks/0/elements/0/options',
    },
    {
      rule: 'checkboxes at most 10 options',
      ok: [actions({ type: 'checkboxes', action_id: 'c', options: options(10) })],
      bad: [actions({ type: 'checkboxes', action_id: 'c', options: options(11) })],
      pointer: '/blocks/0/elements/0/options',
    },
    {
      rule: 'radio buttons at most 10 options',
      ok: [actions({ type: 'radio_buttons', action_id: 'r', options: options(10) })],
      bad: [actions({ type: 'radio_buttons', action_id: 'r', options: options(11) })],
      pointer: '/blocks/0/elements/0/options',
    },
  ];

  it.each(cases)('$rule', async ({ ok, bad, pointer }) => {
    await expect(client.chat.postMessage({ channel: 'C0CARE', text: 'fallback', blocks: ok as never })).resolves.toMatchObject({ ok: true });
    const failure = await slackError(client.chat.postMessage({ channel: 'C0CARE', text: 'fallback', blocks: bad as never }));
    expect(failure.error).toBe('invalid_blocks');
    expect(failure.messages.some((m) => m.startsWith('[ERROR] ') && m.endsWith(`[json-pointer:${pointer}]`))).toBe(true);
  });

  it('refuses blocks that are not JSON with invalid_blocks_format, and nothing is posted', async () => {
    const before = fake.messages('#care-team').length;
    const res = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${fake.botToken}` },
      body: new URLSearchParams({ channel: 'C0CARE', text: 'x', blocks: '[{not json' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: false, error: 'invalid_blocks_format' });
    expect(fake.messages('#care-team')).toHaveLength(before);
  });
});

describe('Block Kit limits on views (views.* answer invalid_arguments, like Slack)', () => {
  let fake: SlackFake;
  let client: WebClient;
  beforeAll(async () => {
    fake = await startSlackFake();
    client = webClient(fake);
  });
  afterAll(() => fake.close());

  const cases: Array<{ rule: string; ok: Obj; bad: Obj; pointer: string }> = [
    { rule: 'title at most 24 chars', ok: modal({ title: plain('t'.repeat(24)) }), bad: modal({ title: plain('t'.repeat(25)) }), pointer: '/view/title/text' },
    {
      rule: 'submit at most 24 chars',
      ok: modal({ submit: plain('s'.repeat(24)) }),
      bad: modal({ submit: plain('s'.repeat(25)) }),
      pointer: '/view/submit/text',
    },
    { rule: 'close at most 24 chars', ok: modal({ close: plain('c'.repeat(24)) }), bad: modal({ close: plain('c'.repeat(25)) }), pointer: '/view/close/text' },
    {
      rule: 'a modal with inputs needs a submit',
      ok: modal({ blocks: [input()] }),
      bad: modal({ blocks: [input()], submit: undefined }),
      pointer: '/view/submit',
    },
    {
      rule: 'private_metadata at most 3000 chars',
      ok: modal({ private_metadata: 'm'.repeat(3000) }),
      bad: modal({ private_metadata: 'm'.repeat(3001) }),
      pointer: '/view/private_metadata',
    },
    { rule: 'at most 100 blocks in a modal', ok: modal({ blocks: sections(100) }), bad: modal({ blocks: sections(101) }), pointer: '/view/blocks' },
    {
      rule: 'block limits apply inside modals',
      ok: modal({ blocks: [{ type: 'header', text: plain('h') }] }),
      bad: modal({ blocks: [{ type: 'header', text: plain('h'.repeat(151)) }] }),
      pointer: '/view/blocks/0/text/text',
    },
  ];

  it.each(cases)('views.open: $rule', async ({ ok, bad, pointer }) => {
    await expect(client.views.open({ trigger_id: fake.issueTrigger('alice'), view: ok as never })).resolves.toMatchObject({ ok: true });
    const failure = await slackError(client.views.open({ trigger_id: fake.issueTrigger('bob'), view: bad as never }));
    expect(failure.error).toBe('invalid_arguments');
    expect(failure.messages.some((m) => m.endsWith(`[json-pointer:${pointer}]`))).toBe(true);
    expect(fake.openModal('bob')).toBeUndefined();
  });

  it('views.publish: at most 100 blocks on a Home tab', async () => {
    await expect(client.views.publish({ user_id: 'U0CAROL', view: { type: 'home', blocks: sections(100) as never } })).resolves.toMatchObject({ ok: true });
    const failure = await slackError(client.views.publish({ user_id: 'U0DAN', view: { type: 'home', blocks: sections(101) as never } }));
    expect(failure).toMatchObject({ error: 'invalid_arguments' });
    expect(failure.messages.some((m) => m.endsWith('[json-pointer:/view/blocks]'))).toBe(true);
    expect(fake.home('dan')).toBeUndefined();
    expect(fake.home('carol')?.blocks).toHaveLength(100);
  });
});
