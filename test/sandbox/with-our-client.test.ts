import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCareClient, ForbiddenError, InvalidRequestError, NotFoundError, type CareClient } from '../../src/care/index.js';
import { startSandbox, type RunningSandbox } from '../../dev/sandbox/index.js';
import { START } from './support.js';

/** Our own client against the sandbox: the two must agree on every wire detail. */
describe('our care client against the sandbox', () => {
  let sandbox: RunningSandbox;
  let client: CareClient;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      seed: 'demo',
      controls: true,
      rateLimit: 0,
      startTime: START,
      extraKeys: [{ apiKey: 'read-only', apiSecret: 'ro-secret', permissions: { actions: ['read'] } }],
    });
    client = createCareClient({ baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 100 });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
  });

  it('pages through every action and sees the same count the API reports', async () => {
    const first = await client.actions.list({ per_page: 25 });
    const all = await client.actions.collect({ attributes: ['_id', 'due'], per_page: 25, limit: 10_000 });
    expect(first.page_count).toBe(Math.ceil(all.length / 25));
    expect(new Set(all.map((a) => a._id)).size).toBe(all.length);
  });

  it('filters open urgent actions and sorts them by due descending', async () => {
    const items = await client.actions.collect({
      filters: { completed: 'no', urgent: 'yes' },
      attributes: ['_id', 'due', 'urgent', 'completed'],
      sort_by: ['-due'],
      limit: 1000,
    });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((a) => a.urgent === true && a.completed === null)).toBe(true);
    const dues = items.map((a) => a.due!);
    expect([...dues].sort().reverse()).toEqual(dues);
  });

  it('creates, updates, completes and reopens an action with reminders and a Date due time', async () => {
    const due = new Date('2024-06-11T14:30:00Z');
    const created = await client.actions.create({
      task: 'Book the chiropodist',
      due,
      urgent: true,
      reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 30 }],
    });
    expect(created).toMatchObject({ task: 'Book the chiropodist', due: '2024-06-11 14:30:00', urgent: true, completed: null });
    expect(created!.reminders?.[0]).toMatchObject({ method: 'email', offset_type: 'delta', offset_delta: 30 });
    const updated = await client.actions.update(created!._id, { task: 'Book the chiropodist for Mr K', due, urgent: false });
    expect(updated).toMatchObject({ task: 'Book the chiropodist for Mr K', urgent: false });
    const done = await client.actions.complete(created!._id);
    expect(done!.completed).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const again = await client.actions.reopen(created!._id);
    expect(again!.completed).toBeNull();
  });

  it('turns the API’s refusals into typed errors with the field names', async () => {
    const bad = await client.actions.create({ task: '', due: new Date('2024-06-11T10:00:00Z') }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(Object.keys((bad as InvalidRequestError).argErrors)).toContain('task');
    await expect(client.actions.retrieve('0123456789abcdef01234567')).rejects.toBeInstanceOf(NotFoundError);
    const readOnly = createCareClient({ baseUrl: sandbox.url, accountId: sandbox.credentials.accountId, apiKey: 'read-only', apiSecret: 'ro-secret' });
    try {
      await expect(readOnly.actions.create({ task: 'x', due: new Date() })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(readOnly.locations.list()).rejects.toBeInstanceOf(ForbiddenError);
    } finally {
      await readOnly.close();
    }
  });

  it('reads users, locations, literature and notification groups', async () => {
    const [users, locations, literature, groups] = await Promise.all([
      client.users.collect({ attributes: ['_id', 'email'], limit: 100 }),
      client.locations.collect({ attributes: ['_id', 'name'], limit: 100 }),
      client.literatureItems.collect({ attributes: ['_id', 'name', 'archived'], limit: 100 }),
      client.notificationGroups.collect({ attributes: ['_id', 'name', 'users', 'email_to'], limit: 100 }),
    ]);
    expect(users.length).toBe(20);
    expect(users.every((u) => u.email?.includes('@'))).toBe(true);
    expect(locations.length).toBeGreaterThan(0);
    expect(literature.every((l) => l.archived === false)).toBe(true); // archived items are hidden by default
    expect(groups.some((g) => (g.users?.length ?? 0) > 0)).toBe(true);
  });
});

describe('our care client paced against the sandbox’s rate limit', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 300, rateLimit: 5, startTime: START });
  });
  afterAll(async () => sandbox?.stop());

  it('lists more pages than one second allows without a failed call', async () => {
    const client = createCareClient({ baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 5 });
    try {
      const items = await client.actions.collect({ attributes: ['_id'], per_page: 30, limit: 1000 });
      expect(items).toHaveLength(300);
      expect(client.stats().failures).toBe(0);
    } finally {
      await client.close();
    }
  });
});
