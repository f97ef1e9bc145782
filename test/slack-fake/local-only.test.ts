import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { rawHttp } from '../helpers/raw-http.js';
import { webClient } from './bolt-app.js';

/** While `npm run demo` runs, a web page open in the browser must not drive the fake (its bot token is public). */
let fake: SlackFake;
beforeEach(async () => {
  fake = await startSlackFake({ postRateLimit: false });
});
afterEach(() => fake.close());

const port = () => new URL(fake.url).port;
const postForm = (headers: Record<string, string>) =>
  rawHttp(`${fake.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ token: fake.botToken, channel: 'C0CARE', text: 'from a web page' }).toString(),
  });

describe('the Slack fake answers programs on this machine only', () => {
  it('refuses a foreign Host (DNS rebinding) with 403 and posts nothing', async () => {
    const res = await postForm({ host: `evil.example:${port()}`, 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(403);
    expect((await rawHttp(`${fake.url}_fake/state`, { headers: { host: `evil.example:${port()}` } })).status).toBe(403);
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('refuses a text/plain body (a cross-site no-cors fetch) with 415, on the Web API and on a response_url', async () => {
    expect((await postForm({ 'content-type': 'text/plain;charset=UTF-8' })).status).toBe(415);
    const url = fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0BOB', command: '/care' });
    const answer = await rawHttp(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ text: 'from a page' }) });
    expect(answer.status).toBe(415);
    expect(fake.messages('#care-team')).toEqual([]);
    expect(fake.ephemerals('bob')).toEqual([]);
  });

  it('refuses a request from a page of another site (Origin), even as a form, with 403', async () => {
    const res = await postForm({ 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('takes no token from the query string (like Slack for apps made since 2021), so a link or an image cannot post', async () => {
    const query = new URLSearchParams({ token: fake.botToken, channel: 'C0CARE', text: 'from an img tag' });
    const res = await rawHttp(`${fake.apiUrl}chat.postMessage?${query}`);
    expect(JSON.parse(res.text)).toEqual({ ok: false, error: 'not_authed' });
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it("still takes what the real WebClient and Bolt's respond() send", async () => {
    await expect(webClient(fake).chat.postMessage({ channel: 'C0CARE', text: 'from the WebClient' })).resolves.toMatchObject({ ok: true });
    const url = fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0BOB', command: '/care' });
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'a respond() answer' }) });
    expect(res.status).toBe(200);
    expect(fake.messages('#care-team').map((m) => m.text)).toEqual(['from the WebClient']);
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['a respond() answer']);
  });
});
