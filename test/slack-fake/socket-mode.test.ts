import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSlackDriver, startSlackFake, type SlackDriver, type SlackFake } from '../../dev/slack-fake/index.js';
import { errorOf, webClient } from './bolt-app.js';

type Obj = Record<string, any>;

/** A bare Socket Mode "app": one WebSocket to the fake, every message it got, and a way to ack. */
interface RawApp {
  ws: WebSocket;
  messages: Obj[];
  pings: number;
  next(match: (m: Obj) => boolean): Promise<Obj>;
  ack(envelopeId: string, payload?: Obj): void;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<RawApp> {
  const ws = new WebSocket(url, { headers });
  const app: RawApp = {
    ws,
    messages: [],
    pings: 0,
    next: (match) =>
      new Promise((resolve, reject) => {
        const seen = app.messages.find(match);
        if (seen) return resolve(seen);
        const timer = setTimeout(() => reject(new Error('no such message')), 3000);
        const on = (data: Buffer) => {
          const m = JSON.parse(data.toString()) as Obj;
          if (!match(m)) return;
          clearTimeout(timer);
          ws.off('message', on);
          resolve(m);
        };
        ws.on('message', on);
      }),
    ack: (envelopeId, payload) => ws.send(JSON.stringify({ envelope_id: envelopeId, ...(payload ? { payload } : {}) })),
  };
  ws.on('message', (data: Buffer) => app.messages.push(JSON.parse(data.toString()) as Obj));
  ws.on('ping', () => {
    app.pings += 1;
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return app;
}

let fake: SlackFake;
let driver: SlackDriver;
const openUrl = async () => (await webClient(fake, fake.appToken).apps.connections.open({})).url as string;
const open = async () => {
  const app = await connect(await openUrl());
  await app.next((m) => m.type === 'hello');
  return app;
};

beforeEach(async () => {
  fake = await startSlackFake({ postRateLimit: false, socketMode: { pingIntervalMs: 50, disconnectGraceMs: 300 } });
  driver = createSlackDriver({ fake, transport: 'socket', ackTimeoutMs: 600 });
});
afterEach(() => fake.close());

describe('apps.connections.open', () => {
  it('gives the app-level token a single-use ws:// URL on the fake', async () => {
    const url = await openUrl();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f]+&app_id=A0CAREAPP$/);
    const app = await connect(url);
    expect(await app.next((m) => m.type === 'hello')).toMatchObject({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0CAREAPP' } });
    await expect(connect(url)).rejects.toThrow('HTTP 401');
    expect(fake.calls('apps.connections.open')).toHaveLength(1);
  });

  it('refuses the bot token (and the app-level token elsewhere) with not_allowed_token_type, a wrong one with invalid_auth', async () => {
    expect(await errorOf(webClient(fake).apps.connections.open({}))).toBe('not_allowed_token_type');
    expect(await errorOf(webClient(fake, fake.appToken).chat.postMessage({ channel: 'C0CARE', text: 'hi' }))).toBe('not_allowed_token_type');
    expect(await errorOf(webClient(fake, 'xapp-1-wrong').apps.connections.open({}))).toBe('invalid_auth');
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('refuses a WebSocket from a page of another site (Origin) with 403', async () => {
    await expect(connect(await openUrl(), { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
  });
});

describe('envelopes and acks', () => {
  it('sends a slash command as a slash_commands envelope and reads the ack payload as the HTTP answer body', async () => {
    const app = await open();
    const sent = driver.slash('bob', '/care help', { channel: '#care-team' });
    const env = await app.next((m) => m.type === 'slash_commands');
    expect(env).toMatchObject({ accepts_response_payload: true, payload: { command: '/care', text: 'help', user_id: 'U0BOB', channel_id: 'C0CARE' } });
    expect(env.payload.response_url).toMatch(/\/response\//);
    app.ack(env.envelope_id, { text: 'Hello Bob' });
    const answer = await sent;
    expect(answer).toMatchObject({ acked: true, json: { text: 'Hello Bob' } });
    expect(fake.visibleText(fake.ephemerals('bob').at(-1)!)).toBe('Hello Bob');
    expect(fake.ackStats()).toMatchObject({ count: 1, failures: 0 });
  });

  it('sends interactions as interactive envelopes; an empty ack is an empty answer', async () => {
    const app = await open();
    const sent = driver.globalShortcut('bob', 'create_care_action');
    const env = await app.next((m) => m.type === 'interactive');
    expect(env).toMatchObject({ accepts_response_payload: false, payload: { type: 'shortcut', callback_id: 'create_care_action' } });
    app.ack(env.envelope_id);
    expect(await sent).toMatchObject({ acked: true, text: '' });
  });

  it('counts an envelope not acked within the ack timeout as not acked, and ignores a late ack', async () => {
    const app = await open();
    const sent = driver.slash('bob', '/care help', { channel: '#care-team' });
    const env = await app.next((m) => m.type === 'slash_commands');
    const answer = await sent;
    expect(answer).toMatchObject({ acked: false, failure: 'timeout' });
    app.ack(env.envelope_id, { text: 'too late' });
    expect(fake.ephemerals('bob')).toEqual([]);
    expect(fake.ackStats().failures).toBe(1);
  });

  it('redelivers an unacked event with retry_attempt and the same event_id', async () => {
    const app = await open();
    const sent = driver.openHome('bob', { retries: 1 });
    const first = await app.next((m) => m.type === 'events_api');
    expect(first).toMatchObject({ retry_attempt: 0, accepts_response_payload: false, payload: { type: 'event_callback', event: { type: 'app_home_opened' } } });
    const retry = await app.next((m) => m.type === 'events_api' && m.retry_attempt === 1);
    expect(retry.payload.event_id).toBe(first.payload.event_id);
    expect(retry.retry_reason).toBeTruthy();
    app.ack(retry.envelope_id);
    expect((await sent).acked).toBe(true);
  });

  it('with no connection open, holds an envelope until one opens within the ack timeout, else fails it', async () => {
    expect(await driver.slash('bob', '/care help')).toMatchObject({ acked: false, failure: 'network_error' });
    const sent = driver.slash('bob', '/care help');
    const app = await open();
    const env = await app.next((m) => m.type === 'slash_commands');
    app.ack(env.envelope_id);
    expect((await sent).acked).toBe(true);
  });

  it('pings every connection', async () => {
    const app = await open();
    await fake.waitFor(() => app.pings >= 2);
  });
});

describe('disconnect and drop', () => {
  it('asks a connection to go once its envelopes in flight are acked, sends new ones elsewhere, and closes it after the grace period', async () => {
    const a = await open();
    const sent = driver.slash('bob', '/care help');
    const inFlight = await a.next((m) => m.type === 'slash_commands');
    const b = await open();
    const asked = fake.socket.disconnect('refresh_requested', { connection: 'conn-1' });
    expect(a.messages.some((m) => m.type === 'disconnect')).toBe(false);
    const second = driver.slash('carol', '/care help');
    const onB = await b.next((m) => m.type === 'slash_commands');
    expect(onB.payload.user_id).toBe('U0CAROL');
    b.ack(onB.envelope_id);
    a.ack(inFlight.envelope_id);
    await asked;
    expect(await a.next((m) => m.type === 'disconnect')).toMatchObject({ reason: 'refresh_requested' });
    expect((await sent).acked).toBe(true);
    expect((await second).acked).toBe(true);
    // The app never closed it: the fake does after the grace period.
    await fake.waitFor(() => fake.socket.connections()[0]!.state === 'closed');
    expect(fake.socket.connections()[0]).toMatchObject({ closedBy: 'slack', disconnectReason: 'refresh_requested', closeCode: 1001 });
    expect(fake.socket.openConnections().map((c) => c.id)).toEqual(['conn-2']);
  });

  it('records a close handshake started by the app as clean (1000, by the app)', async () => {
    const a = await open();
    a.ws.close(1000);
    await fake.waitFor(() => fake.socket.connections()[0]!.state === 'closed');
    expect(fake.socket.connections()[0]).toMatchObject({ closedBy: 'app', closeCode: 1000 });
  });

  it('drops a connection without a close handshake; an envelope in flight on it fails', async () => {
    const a = await open();
    const sent = driver.slash('bob', '/care help');
    await a.next((m) => m.type === 'slash_commands');
    fake.socket.drop();
    expect(await sent).toMatchObject({ acked: false, failure: 'network_error' });
    await fake.waitFor(() => fake.socket.connections()[0]!.state === 'closed');
    expect(fake.socket.connections()[0]).toMatchObject({ closedBy: 'slack', closeCode: 1006 });
  });
});
