import { describe, expect, it } from 'vitest';
import { rawHttp } from '../helpers/raw-http.js';
import { controlCall, rawCall } from '../helpers/raw-signer.js';
import { listAll, useSandbox } from './support.js';

const h = useSandbox({ seed: 'demo' });
const off = useSandbox({ seed: 'empty', controls: false });

describe('controls switch', () => {
  it('answers 404 on every control when controls are off', async () => {
    for (const path of ['clock', 'stats', 'reset', 'actions']) {
      expect((await controlCall(off.sandbox.controlsUrl, 'GET', path)).status).toBe(404);
    }
    expect((await controlCall(off.sandbox.controlsUrl, 'POST', 'reset', {})).status).toBe(404);
  });
});

describe('virtual clock', () => {
  it('reads, sets and advances the clock that stamps data', async () => {
    const set = await h.control('POST', 'clock', { set: '2025-03-01T12:00:00Z' });
    expect(set.json.wire.startsWith('2025-03-01 12:00')).toBe(true);
    const advanced = await h.control('POST', 'clock', { advanceMs: 3_600_000 });
    expect(advanced.json.wire.startsWith('2025-03-01 13:00')).toBe(true);
    expect((await h.control('GET', 'clock')).json.now.startsWith('2025-03-01T13:00')).toBe(true);
    const made = await h.api('PUT', 'actions', { due: '2025-03-02 09:00:00', task: 'Clocked' });
    expect(made.json.created.startsWith('2025-03-01 13:00')).toBe(true);
    await h.control('POST', 'clock', { set: '2024-06-10T09:30:00Z' });
  });

  it('refuses a malformed clock value', async () => {
    const r = await h.control('POST', 'clock', { set: 'tomorrow-ish' });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors).toHaveProperty('set');
    expect((await h.control('POST', 'clock', { advance: 5 })).status).toBe(400);
  });
});

describe('faults', () => {
  it('answers the configured share of /v1 requests with a 5xx and the error body', async () => {
    await h.control('POST', 'faults', { errorRate: 1, errorStatus: 503 });
    const r = await h.api('GET', 'users');
    expect(r.status).toBe(503);
    expect(r.json.hint).toBeTruthy();
    expect(r.headers['x-carehq-ratelimit-limit']).toBeDefined();
    expect((await h.control('GET', 'clock')).status).toBe(200);
    await h.control('POST', 'faults', { reset: true });
    expect((await h.api('GET', 'users')).status).toBe(200);
  });

  it('defaults the fault status to 500 and mixes failures with successes at a partial rate', async () => {
    await h.control('POST', 'faults', { errorRate: 0.5 });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await h.api('GET', 'users')).status);
    await h.control('POST', 'faults', { reset: true });
    expect([...statuses].sort()).toEqual([200, 500]);
  });

  it('forces 429 on the next n requests only', async () => {
    const settings = await h.control('POST', 'faults', { force429: 2 });
    expect(settings.json.force429).toBe(2);
    const r1 = await h.api('GET', 'users');
    const r2 = await h.api('GET', 'users');
    const r3 = await h.api('GET', 'users');
    expect([r1.status, r2.status, r3.status]).toEqual([429, 429, 200]);
    expect(r1.json.hint).toMatch(/rate limit/i);
    expect(r1.headers['x-carehq-ratelimit-remaining']).toBe('0');
  });

  it('adds latency to /v1 requests', async () => {
    await h.control('POST', 'faults', { latencyMs: 150 });
    const started = Date.now();
    expect((await h.api('GET', 'users')).status).toBe(200);
    const elapsed = Date.now() - started;
    await h.control('POST', 'faults', { reset: true });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect((await h.control('GET', 'faults')).json).toEqual({ errorRate: 0, errorStatus: 500, latencyMs: 0, force429: 0 });
  });

  it('refuses out-of-range settings', async () => {
    expect((await h.control('POST', 'faults', { errorRate: 2 })).status).toBe(400);
    expect((await h.control('POST', 'faults', { errorStatus: 404 })).status).toBe(400);
  });
});

describe('stats', () => {
  it('counts /v1 requests by method, route template and status, and resets', async () => {
    await h.control('POST', 'stats/reset');
    const id = (await h.api('GET', 'actions', { per_page: 1 })).json.items[0]._id;
    await h.api('GET', `actions/${id}`);
    await h.api('GET', 'actions/000000000000000000000000');
    await h.api('POST', 'actions');
    await h.api('GET', 'users', {}, { omit: ['X-CareHQ-Signature'] });
    const stats = (await h.control('GET', 'stats')).json;
    expect(stats.total).toBe(5);
    expect(stats.byRoute).toEqual({
      'GET /v1/actions': { '200': 1 },
      'GET /v1/actions/:id': { '200': 1, '404': 1 },
      'POST /v1/actions': { '405': 1 },
      'GET /v1/users': { '401': 1 },
    });
    expect(stats.byStatus).toEqual({ '200': 2, '404': 1, '405': 1, '401': 1 });
    expect(stats.process.rssBytes).toBeGreaterThan(0);
    await h.control('POST', 'stats/reset');
    expect((await h.control('GET', 'stats')).json.total).toBe(0);
  });
});

describe('keys', () => {
  it('adds and replaces a key with permissions', async () => {
    const creds = { accountId: h.sandbox.credentials.accountId, apiKey: 'added', apiSecret: 'added-secret' };
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'users')).status).toBe(401);
    expect((await h.control('POST', 'keys', { apiKey: 'added', apiSecret: 'added-secret', permissions: { users: ['read'] } })).status).toBe(200);
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'users')).status).toBe(200);
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'actions')).status).toBe(403);
    await h.control('POST', 'keys', { apiKey: 'added', apiSecret: 'added-secret', permissions: { actions: ['read'], notification_groups: ['read'] } });
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'actions')).status).toBe(200);
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'notification-groups')).status).toBe(200);
    expect((await rawCall(h.sandbox.url, creds, 'GET', 'users')).status).toBe(403);
    expect((await h.control('POST', 'keys', { apiKey: 'x', apiSecret: 'y', permissions: { widgets: ['read'] } })).status).toBe(400);
  });
});

describe('the care system web app', () => {
  it('creates, edits, completes and reopens actions that a polling API client then sees', async () => {
    const users = await listAll(h, 'users');
    const created = await h.control('POST', 'actions', {
      due: '2024-06-11T15:00:00Z',
      task: 'Made in the web app',
      urgent: true,
      reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 15 }],
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ due: '2024-06-11 15:00:00', urgent: true, reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 15 }] });
    const id = created.json._id;
    expect((await h.api('GET', `actions/${id}`)).json).toEqual(created.json);

    await h.control('POST', 'clock', { advanceMs: 60_000 });
    const edited = await h.control('PATCH', `actions/${id}`, { urgent: false, assigned_to: users[2]._id, task: 'Edited in the web app' });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ urgent: false, assigned_to: users[2]._id, task: 'Edited in the web app', due: '2024-06-11 15:00:00' });
    expect(edited.json.reminders).toEqual(created.json.reminders);
    expect(edited.json.modified > created.json.modified).toBe(true);
    const changed = await listAll(h, 'actions', { 'filters-modified_after': created.json.modified, attributes: ['task'] });
    expect(changed.map((a) => a._id)).toContain(id);

    await h.control('POST', 'clock', { advanceMs: 60_000 });
    const done = await h.control('POST', `actions/${id}/complete`);
    expect(done.json.completed).toBe(done.json.modified);
    const polled = await listAll(h, 'actions', { 'filters-completed': 'yes', 'filters-modified_after': edited.json.modified });
    expect(polled.map((a) => a._id)).toEqual([id]);

    const reopened = await h.control('POST', `actions/${id}/reopen`);
    expect(reopened.json.completed).toBeNull();
    expect((await h.control('GET', `actions/${id}`)).json).toEqual(reopened.json);
  });

  it('validates web-app edits like the API', async () => {
    const bad = await h.control('POST', 'actions', { task: 'No due' });
    expect(bad.status).toBe(400);
    expect(bad.json.arg_errors.due).toEqual(['This field is required.']);
    const unknown = await h.control('POST', 'actions', { due: '2024-06-11 10:00:00', task: 'x', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect((await h.control('PATCH', 'actions/000000000000000000000000', { urgent: true })).status).toBe(404);
    expect((await h.control('POST', 'actions/000000000000000000000000/complete')).status).toBe(404);
  });
});

describe('the care system itself', () => {
  it('generates a tagged action and completes it when its stage is reached; it completes no untagged action', async () => {
    const made = await h.control('POST', 'generated-actions', { due: '2024-06-12 09:00:00', task: 'Review the care plan', tag: 'care_plan_review' });
    expect(made.status).toBe(200);
    expect(made.json.tag).toBe('care_plan_review');
    expect((await h.api('GET', `actions/${made.json._id}`, { attributes: ['tag'] })).json.tag).toBe('care_plan_review');
    await h.control('POST', 'clock', { advanceMs: 60_000 });
    const done = await h.control('POST', `actions/${made.json._id}/auto-complete`);
    expect(done.status).toBe(200);
    expect(done.json.completed).toBe(done.json.modified);

    const plain = await h.control('POST', 'actions', { due: '2024-06-12 09:00:00', task: 'Made by a person' });
    const refused = await h.control('POST', `actions/${plain.json._id}/auto-complete`);
    expect(refused.status).toBe(409);
    expect((await h.control('GET', `actions/${plain.json._id}`)).json.completed).toBeNull();
    expect((await h.control('POST', 'generated-actions', { due: '2024-06-12 09:00:00', task: 'No tag' })).status).toBe(400);
  });
});

describe('reset', () => {
  it('reseeds with the requested seed', async () => {
    expect((await h.control('POST', 'reset', { seed: 5 })).json.counts.actions).toBe(5);
    expect((await h.api('GET', 'actions')).json.item_count).toBe(5);
    expect((await h.control('POST', 'reset', { seed: 'empty' })).json.counts).toMatchObject({ actions: 0, users: 20 });
    expect((await h.control('POST', 'reset', {})).json.counts.actions).toBe(0);
    expect((await h.control('POST', 'reset', { seed: 'demo' })).json.counts.actions).toBe(300);
    expect((await h.control('POST', 'reset', { seed: 'lots' })).status).toBe(400);
  });
});

describe('only programs on this machine may use the controls (a web page in the browser may not)', () => {
  const keyWorks = async (apiKey: string) =>
    (await rawCall(h.sandbox.url, { ...h.sandbox.credentials, apiKey, apiSecret: `${apiKey}-secret` }, 'GET', 'locations')).status === 200;
  const addKey = (apiKey: string, headers: Record<string, string>) =>
    rawHttp(`${h.sandbox.controlsUrl}/keys`, { method: 'POST', headers, body: JSON.stringify({ apiKey, apiSecret: `${apiKey}-secret` }) });

  it('refuses a foreign Host (DNS rebinding) with 403, for reads too, and adds no key', async () => {
    const port = new URL(h.sandbox.controlsUrl).port;
    const added = await addKey('rebound', { host: `evil.example:${port}`, 'content-type': 'application/json' });
    expect(added.status).toBe(403);
    expect(JSON.parse(added.text).hint).toMatch(/loopback/);
    expect((await rawHttp(`${h.sandbox.controlsUrl}/stats`, { headers: { host: `evil.example:${port}` } })).status).toBe(403);
    expect(await keyWorks('rebound')).toBe(false);
  });

  it('refuses a text/plain body or none (a cross-site form or no-cors fetch) with 415 and changes nothing', async () => {
    const plain = await addKey('from-a-page', { 'content-type': 'text/plain;charset=UTF-8' });
    expect(plain.status).toBe(415);
    expect(await keyWorks('from-a-page')).toBe(false);
    const before = (await h.control('GET', 'stats')).json.total;
    await h.api('GET', 'locations');
    expect((await rawHttp(`${h.sandbox.controlsUrl}/stats/reset`, { method: 'POST' })).status).toBe(415);
    expect((await h.control('GET', 'stats')).json.total).toBe(before + 1);
  });

  it('refuses a request sent by a page of another site (Origin) with 403', async () => {
    const fromPage = await addKey('cross-site', { 'content-type': 'application/json', origin: 'http://evil.example' });
    expect(fromPage.status).toBe(403);
    expect(await keyWorks('cross-site')).toBe(false);
  });

  it('still takes JSON from programs on this machine', async () => {
    expect((await addKey('local-tool', { 'content-type': 'application/json' })).status).toBe(200);
    expect(await keyWorks('local-tool')).toBe(true);
  });
});
