import type { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, startSlackFake, type ManualClock, type SlackFake } from '../../dev/slack-fake/index.js';
import { errorOf, webClient } from './bolt-app.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: plain(title),
  close: plain('Cancel'),
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: title } }],
  ...extra,
});

let fake: SlackFake;
let clock: ManualClock;
let client: WebClient;
beforeEach(async () => {
  clock = manualClock();
  fake = await startSlackFake({ clock });
  client = webClient(fake);
});
afterEach(() => fake.close());

describe('trigger ids', () => {
  it('opens a modal within 3 s of the interaction, and refuses a trigger that is 3 s old', async () => {
    const fresh = fake.issueTrigger('bob');
    clock.advance(2999);
    await expect(client.views.open({ trigger_id: fresh, view: modal('New action') })).resolves.toMatchObject({ ok: true });
    expect(fake.openModal('bob')?.view.title?.text).toBe('New action');

    const old = fake.issueTrigger('carol');
    clock.advance(3001);
    expect(await errorOf(client.views.open({ trigger_id: old, view: modal('Too late') }))).toBe('expired_trigger_id');
    expect(fake.openModal('carol')).toBeUndefined();
  });

  it('refuses unknown triggers and a second use of the same trigger', async () => {
    expect(await errorOf(client.views.open({ trigger_id: '123.456.abc', view: modal('x') }))).toBe('invalid_trigger_id');
    const trigger = fake.issueTrigger('bob');
    await client.views.open({ trigger_id: trigger, view: modal('Once') });
    expect(await errorOf(client.views.open({ trigger_id: trigger, view: modal('Twice') }))).toBe('exchanged_trigger_id');
    expect(fake.openModal('bob')?.view.title?.text).toBe('Once');
  });
});

describe('view stack', () => {
  it('pushes up to 3 views per person, then push_limit_reached', async () => {
    await client.views.open({ trigger_id: fake.issueTrigger('bob'), view: modal('One') });
    await client.views.push({ trigger_id: fake.issueTrigger('bob'), view: modal('Two') });
    await client.views.push({ trigger_id: fake.issueTrigger('bob'), view: modal('Three') });
    expect(await errorOf(client.views.push({ trigger_id: fake.issueTrigger('bob'), view: modal('Four') }))).toBe('push_limit_reached');
    const open = fake.openModal('bob');
    expect(open?.stack.map((v) => v.title?.text)).toEqual(['One', 'Two', 'Three']);
    expect(open?.view.previous_view_id).toBe(open?.stack[1]?.id);
    expect(open?.view.root_view_id).toBe(open?.stack[0]?.id);
  });

  it('views.update replaces a view in place (same id), checks the hash, and knows unknown views', async () => {
    const opened = await client.views.open({ trigger_id: fake.issueTrigger('bob'), view: modal('Loading...') });
    const id = opened.view?.id as string;
    const hash = opened.view?.hash as string;
    const updated = await client.views.update({ view_id: id, hash, view: modal('Call GP') });
    expect(updated.view?.id).toBe(id);
    expect(fake.openModal('bob')?.view.title?.text).toBe('Call GP');
    expect(await errorOf(client.views.update({ view_id: id, hash, view: modal('Stale') }))).toBe('hash_conflict');
    expect(await errorOf(client.views.update({ view_id: 'V0NOPE', view: modal('x') }))).toBe('not_found');
    expect(await errorOf(client.views.update({ external_id: 'no-such-view', view: modal('x') }))).toBe('not_found');
    expect(fake.openModal('bob')?.view.title?.text).toBe('Call GP');
  });

  it('gives blocks and elements without ids Slack-style generated ids', async () => {
    const opened = await client.views.open({
      trigger_id: fake.issueTrigger('bob'),
      view: { ...modal('Ids'), submit: plain('Save'), blocks: [{ type: 'input', label: plain('Title'), element: { type: 'plain_text_input' } }] },
    });
    const block = opened.view?.blocks?.[0] as { block_id?: string; element?: { action_id?: string } };
    expect(block.block_id).toMatch(/^[A-Z0-9]{5}$/);
    expect(block.element?.action_id).toMatch(/^[A-Z0-9]{5}$/);
  });
});

describe('Home tab', () => {
  it('views.publish keeps one Home view per person', async () => {
    const home = { type: 'home' as const, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Your actions*' } }] };
    await client.views.publish({ user_id: 'U0BOB', view: home });
    await client.views.publish({ user_id: 'U0BOB', view: { ...home, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Nothing due' } }] } });
    expect(fake.visibleText(fake.home('bob') ?? [])).toBe('Nothing due');
    expect(fake.home('carol')).toBeUndefined();
    expect(await errorOf(client.views.publish({ user_id: 'U0BOB', view: modal('Not a home') }))).toBe('invalid_arguments');
  });
});
