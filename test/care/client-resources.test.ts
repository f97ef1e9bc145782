import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCareClient, NotFoundError, InvalidRequestError, ResponseValidationError, type Action, type CareClient } from '../../src/care/index.js';
import { startCareTestServer, type CareTestServer } from '../helpers/care-test-server.js';

let server: CareTestServer;
let client: CareClient;

const clientFor = (s: CareTestServer, baseUrl = s.url): CareClient =>
  createCareClient({ baseUrl, ...s.credentials, rateLimitPerSecond: 1_000, retryBackoff: { baseMs: 1, maxMs: 5 } });

beforeEach(async () => {
  server = await startCareTestServer({ actions: 250 });
  client = clientFor(server);
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe('listing', () => {
  it('lists one page with signed repeated attributes and flattened filters', async () => {
    const page = await client.actions.list({
      attributes: ['_id', 'task', 'due'],
      page: 2,
      per_page: 20,
      sort_by: ['-due', '_id'],
      filters: { completed: 'no', assigned_to: ['6724fbc70000000000000001', '6724fbc70000000000000002'], start_date: '2026-11-21' },
    });
    expect(page).toMatchObject({ page: 2, per_page: 20, item_count: 20, page_count: 13 });
    expect(page.items[0]).toEqual({ _id: expect.any(String), task: 'Task number 21', due: expect.any(String) });
    const sent = server.requests[0]!;
    expect(sent.signatureOk).toBe(true);
    expect(sent.params).toMatchObject({
      attributes: ['_id', 'task', 'due'],
      sort_by: ['-due', '_id'],
      'filters-completed': ['no'],
      'filters-assigned_to': ['6724fbc70000000000000001', '6724fbc70000000000000002'],
      'filters-start_date': ['2026-11-21'],
    });
  });

  it('sends no per_page when none is given, so the API default of 10 applies', async () => {
    const page = await client.actions.list();
    expect(page.items).toHaveLength(10);
    expect(server.requests[0]!.params).toEqual({});
  });

  it('iterates over every item of every page, 100 per page by default', async () => {
    const ids: string[] = [];
    for await (const action of client.actions.iterate({ attributes: ['_id', 'task'] })) ids.push(action._id);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(server.requests.map((r) => [r.params.page, r.params.per_page])).toEqual([
      [['1'], ['100']],
      [['2'], ['100']],
      [['3'], ['100']],
    ]);
  });

  it('stops at the limit without fetching pages it does not need', async () => {
    const items: Action[] = [];
    for await (const action of client.actions.iterate({ limit: 5 })) items.push(action);
    expect(items).toHaveLength(5);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.params.per_page).toEqual(['5']);
    expect(await client.actions.collect({ per_page: 7, limit: 10 })).toHaveLength(10);
  });

  it('iterates pages, at most `limit` of them', async () => {
    const pages = [];
    for await (const page of client.actions.iteratePages({ per_page: 50, limit: 2 })) pages.push(page.page);
    expect(pages).toEqual([1, 2]);
  });

  it('lists and retrieves the read-only resources, users included', async () => {
    for (const resource of [client.notificationGroups, client.locations, client.literatureItems, client.users]) {
      const page = await resource.list({ attributes: ['_id', 'name'] });
      expect(page.items).toHaveLength(1);
      const item = await resource.retrieve(page.items[0]!._id);
      expect(item._id).toBe(page.items[0]!._id);
    }
    const user = await client.users.retrieve('6724fbc70000000000000001');
    expect(user).toMatchObject({ email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee' });
    const location = await client.locations.retrieve(server.collections.locations![0]!._id);
    expect(location.street_address?.town).toBe('Leeds');
  });
});

describe('retrieving and changing actions', () => {
  const due = new Date('2026-12-01T15:45:00Z');

  it('retrieves with attributes, and says NotFound with the path for an unknown id', async () => {
    const id = server.collections.actions![3]!._id;
    expect(await client.actions.retrieve(id, { attributes: ['task'] })).toEqual({ _id: id, task: 'Task number 4' });
    const error = await client.actions.retrieve('6724fbcbffffffffffffffff').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, method: 'GET', path: '/v1/actions/6724fbcbffffffffffffffff', hint: 'No actions with that Id' });
  });

  it('creates with a signed form body: UTC due, flattened reminders, urgent present', async () => {
    const action = await client.actions.create({
      due,
      task: 'Phone the family',
      urgent: true,
      reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 30 }],
    });
    expect(action).toMatchObject({ task: 'Phone the family', due: '2026-12-01 15:45:00', urgent: true });
    const sent = server.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'PUT', path: '/v1/actions', signatureOk: true });
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.params).toEqual({
      due: ['2026-12-01 15:45:00'],
      task: ['Phone the family'],
      urgent: ['true'],
      'reminders_0-method': ['email'],
      'reminders_0-offset_type': ['delta'],
      'reminders_0-offset_delta': ['30'],
    });
  });

  it('turns a 400 into InvalidRequestError with the arg_errors', async () => {
    const error = await client.actions.create({ due, task: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).argErrors).toEqual({ task: ['This field is required.'] });
  });

  it('updates, completes and reopens (empty signed PATCHes for the last two)', async () => {
    const id = server.collections.actions![0]!._id;
    expect(await client.actions.update(id, { due, task: 'Renamed', urgent: false })).toMatchObject({ task: 'Renamed', urgent: false });
    expect((await client.actions.complete(id))?.completed).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await client.actions.reopen(id))?.completed).toBeNull();
    const [update, complete, reopen] = server.requests.slice(-3);
    expect(update).toMatchObject({ method: 'PATCH', path: `/v1/actions/${id}`, signatureOk: true });
    expect(update!.params).not.toHaveProperty('urgent');
    expect(complete).toMatchObject({ method: 'PATCH', path: `/v1/actions/${id}/complete`, signatureOk: true, params: {} });
    expect(complete!.headers['content-type']).toBeUndefined();
    expect(reopen).toMatchObject({ path: `/v1/actions/${id}/reopen`, signatureOk: true });
  });

  it('accepts a 204 with no body as success', async () => {
    server.fail({ noContent: true });
    expect(await client.actions.complete(server.collections.actions![0]!._id)).toBeNull();
  });

  it('refuses an id that could escape its path segment, before sending anything', async () => {
    await expect(client.actions.retrieve('../users')).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('base URL and response validation', () => {
  it('works with the host alone, with /v1, and with a trailing slash', async () => {
    for (const base of [server.url.replace(/\/v1$/, ''), server.url, `${server.url}/`]) {
      const other = clientFor(server, base);
      await expect(other.actions.list()).resolves.toMatchObject({ page: 1 });
      await other.close();
    }
    expect(server.requests.every((r) => r.path === '/v1/actions' && r.signatureOk)).toBe(true);
  });

  it('keeps unknown fields and accepts nulls and missing fields', async () => {
    const body = { items: [{ _id: 'a1', task: null, brand_new_field: { x: 1 } }], page: 1, page_count: 1, per_page: 10, item_count: 1 };
    server.fail({ status: 200, body: JSON.stringify(body) });
    const page = await client.actions.list();
    expect(page.items[0]).toEqual({ _id: 'a1', task: null, brand_new_field: { x: 1 } });
  });

  it('raises ResponseValidationError naming the field path when the body does not fit', async () => {
    const body = { items: [{ _id: 'a1' }, { _id: 'a2', due: 20261121 }], page: 1, page_count: 1, per_page: 10, item_count: 2 };
    server.fail({ status: 200, body: JSON.stringify(body) }, { status: 200, body: '<html>oops</html>' });
    const error = await client.actions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]!.path).toBe('items.1.due');
    expect((error as Error).message).toContain('items.1.due');
    await expect(client.actions.list()).rejects.toThrow(/not JSON/);
  });
});
