/**
 * Bolt's OAuth options: scopes in step with manifest.yml, the pages' sentences,
 * and Bolt's own HTTP receiver serving /slack/install and /slack/oauth_redirect
 * with them over a real SQLite store: a good callback stores the installation;
 * a callback with a missing, forged or other-browser state is refused and
 * stores nothing (and never reaches Slack).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { App, LogLevel } from '@slack/bolt';
import jwt from 'jsonwebtoken';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KeyRing } from '../../../src/crypto/key-ring.js';
import { demoWorkspace, secondDemoWorkspace, startSlackFake } from '../../../dev/slack-fake/index.js';
import { installationStore } from '../../../src/slack/install/installation-store.js';
import {
  BOT_OPTIONAL_SCOPES,
  BOT_REQUIRED_SCOPES,
  BOT_SCOPES,
  failureSentence,
  oauthSettings,
  successSentence,
} from '../../../src/slack/install/oauth-settings.js';
import { oneTimeStateStore } from '../../../src/slack/install/oauth-state-store.js';
import { sqliteHarness } from '../../store/harness.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The items of manifest.yml's oauth_config.scopes.bot (or bot_optional) list (comments dropped). */
function manifestBotScopes(list: 'bot' | 'bot_optional' = 'bot'): string[] {
  const lines = readFileSync(join(ROOT, 'manifest.yml'), 'utf8').split('\n');
  const scopesAt = lines.findIndex((l) => l.trim() === 'scopes:');
  const start = lines.findIndex((l, i) => i > scopesAt && l.trim() === `${list}:`);
  const indent = lines[start]!.length - lines[start]!.trimStart().length;
  const scopes: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.length - line.trimStart().length <= indent) break;
    scopes.push(
      line
        .trim()
        .replace(/^- /, '')
        .replace(/\s+#.*$/, ''),
    );
  }
  return scopes;
}

const config = { clientId: '111.222', clientSecret: 'client-secret', stateSecret: 'state-secret-0123456789' };

describe('OAuth settings', () => {
  it('ask for exactly the bot scopes of manifest.yml', () => {
    expect(manifestBotScopes().length).toBeGreaterThan(5);
    expect([...BOT_REQUIRED_SCOPES].sort()).toEqual(manifestBotScopes().sort());
    expect([...BOT_OPTIONAL_SCOPES].sort()).toEqual(manifestBotScopes('bot_optional').sort());
    expect([...BOT_SCOPES].sort()).toEqual([...manifestBotScopes(), ...manifestBotScopes('bot_optional')].sort());
    expect(oauthSettings(config).scopes).toEqual([...BOT_SCOPES]);
  });

  it('serve an install page (not a redirect) and the redirect path, with state verification on', () => {
    const s = oauthSettings(config);
    expect(s).toMatchObject({ clientId: '111.222', clientSecret: 'client-secret', stateSecret: 'state-secret-0123456789' });
    expect(s.installerOptions).toMatchObject({
      installPath: '/slack/install',
      redirectUriPath: '/slack/oauth_redirect',
      directInstall: false,
      stateVerification: true,
    });
  });

  it('greet the workspace, or the org for an org-wide install, and say what to try after a failure', () => {
    expect(successSentence({ team: { id: 'T1', name: 'Sunrise Care' }, enterprise: undefined, isEnterpriseInstall: false })).toBe(
      "Installed in Sunrise Care: open Slack and type /care to start; an admin connects the care system from the app's Home tab.",
    );
    expect(successSentence({ team: undefined, enterprise: { id: 'E1', name: 'Care Group' }, isEnterpriseInstall: true })).toMatch(/^Installed in Care Group:/);
    expect(failureSentence('slack_oauth_invalid_state')).toEqual({
      status: 400,
      text: 'Care Actions was not installed: this install link has expired or was opened in another browser. Start again from /slack/install in this browser and finish within 10 minutes.',
    });
    expect(failureSentence('anything_else').status).toBe(500);
  });
});

/** Slack's side of an install: the Slack fake with a second workspace (Sunrise Care) the app is not installed in yet. */
async function slackWithSunrise() {
  const fake = await startSlackFake({
    workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), botToken: null }],
    oauth: { clientId: config.clientId, clientSecret: config.clientSecret },
  });
  onTestFinished(() => fake.close());
  /** What the person's browser gets from Slack's authorize page after they click Allow: a one-time code. */
  const allow = async (state: string, appBase: string) => {
    // The app's redirect URL as set in its Slack configuration: the authorize page (sent none, as Bolt sends none) goes back there.
    fake.oauth.redirectUris.splice(0, fake.oauth.redirectUris.length, `${appBase}/slack/oauth_redirect`);
    const url = new URL(fake.authorizeUrl);
    for (const [k, v] of Object.entries({
      client_id: config.clientId,
      scope: BOT_SCOPES.join(','),
      state,
      team: 'T0SUN',
      user: 'U0ERIN',
    }))
      url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('code');
    if (!code) throw new Error(`the fake gave no code (${res.status})`);
    return code;
  };
  // The exchange is logged with the first workspace (it names none); auth.test with the new token, in Sunrise Care.
  const calls = () => [...fake.calls('oauth.v2.access'), ...fake.workspace('T0SUN').calls('auth.test')].sort((x, y) => x.seq - y.seq).map((c) => c.method);
  return { fake, allow, calls };
}

async function oauthApp(options: { oneTimeState?: boolean } = {}) {
  const f = await sqliteHarness().fresh({ keyRing: new KeyRing([randomBytes(32)]) });
  const slack = await slackWithSunrise();
  const stateStore = options.oneTimeState ? oneTimeStateStore({ secret: config.stateSecret, seen: f.store }) : undefined;
  const app = new App({
    signingSecret: 'signing-secret',
    ...oauthSettings(config, { stateStore }),
    installationStore: installationStore(f.store),
    clientOptions: { slackApiUrl: slack.fake.apiUrl },
    logLevel: LogLevel.ERROR,
    logger: { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => LogLevel.ERROR, setName() {} },
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  onTestFinished(async () => {
    await app.stop();
  });
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const teamQuery = { isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: null };
  return { base, slack, stored: () => f.store.getInstallation(teamQuery) };
}

/** Open the install page as a browser: its state (from the Add to Slack link) and the cookie it set. */
async function openInstallPage(base: string): Promise<{ state: string; cookie: string; html: string }> {
  const res = await fetch(`${base}/slack/install`);
  const html = await res.text();
  expect(res.status).toBe(200);
  const state = decodeURIComponent(/[?&;]state=([^&"']+)/.exec(html)?.[1] ?? '');
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toBe(`slack-app-oauth-state=${state}`);
  return { state, cookie, html };
}

const callback = (base: string, query: string, cookie?: string) =>
  fetch(`${base}/slack/oauth_redirect?${query}`, { headers: cookie ? { cookie } : {} }).then(async (r) => ({ status: r.status, html: await r.text() }));

describe('Installing through Bolt with these settings', () => {
  it('stores the installation from a good callback and shows the success page', async () => {
    const { base, slack, stored } = await oauthApp();
    const { state, cookie, html } = await openInstallPage(base);
    expect(html).toContain('client_id=111.222');
    expect(html).toContain(`scope=${encodeURIComponent(BOT_SCOPES.join(','))}`);

    const done = await callback(base, `code=${await slack.allow(state, base)}&state=${encodeURIComponent(state)}`, cookie);
    expect(done.status).toBe(200);
    expect(done.html).toContain(
      'Installed in Sunrise Care: open Slack and type /care to start; an admin connects the care system from the app&#39;s Home tab.',
    );
    expect(slack.calls()).toEqual(['oauth.v2.access', 'auth.test']);
    const installed = await stored();
    expect(installed).toMatchObject({ teamId: 'T0SUN', teamName: 'Sunrise Care', bot: { id: 'B0SUNBOT', userId: 'U0SUNBOT' } });
    // The token Slack issued works, in Sunrise Care only.
    expect(installed?.bot?.token).toBe(slack.fake.workspace('T0SUN').botToken);
  });

  it('refuses a callback without state, with a forged state, or with a state from another browser: 400, nothing stored, Slack never asked', async () => {
    const { base, slack, stored } = await oauthApp();
    const { state, cookie } = await openInstallPage(base);
    const forged = jwt.sign({ installOptions: { scopes: [...BOT_SCOPES] }, now: new Date().toJSON(), random: 1 }, 'not-the-state-secret');

    for (const [query, sentCookie] of [
      ['code=c1', cookie],
      [`code=c1&state=${encodeURIComponent(forged)}`, `slack-app-oauth-state=${forged}`],
      [`code=c1&state=${encodeURIComponent(state)}`, undefined],
    ] as const) {
      const answer = await callback(base, query, sentCookie);
      expect(answer.status, query).toBe(400);
      expect(answer.html).toContain('Care Actions was not installed: this install link has expired or was opened in another browser.');
    }
    expect(slack.calls()).toEqual([]);
    expect(await stored()).toBeNull();
  });
});

describe('Replaying a callback (same state and cookie, another code)', () => {
  it("passes Bolt's default state check within its 10 minutes: only Slack's single-use code would stop it", async () => {
    const { base, slack } = await oauthApp();
    const { state, cookie } = await openInstallPage(base);
    expect((await callback(base, `code=${await slack.allow(state, base)}&state=${encodeURIComponent(state)}`, cookie)).status).toBe(200);
    expect((await callback(base, `code=${await slack.allow(state, base)}&state=${encodeURIComponent(state)}`, cookie)).status).toBe(200);
    expect(slack.calls()).toEqual(['oauth.v2.access', 'auth.test', 'oauth.v2.access', 'auth.test']);
  });

  it('is refused with the one-time state store: 400, Slack not asked again, the first install kept', async () => {
    const { base, slack, stored } = await oauthApp({ oneTimeState: true });
    const { state, cookie } = await openInstallPage(base);
    expect((await callback(base, `code=${await slack.allow(state, base)}&state=${encodeURIComponent(state)}`, cookie)).status).toBe(200);
    const first = (await stored())?.bot?.token;
    const replay = await callback(base, `code=${await slack.allow(state, base)}&state=${encodeURIComponent(state)}`, cookie);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('this install link has expired or was opened in another browser');
    expect(slack.calls()).toEqual(['oauth.v2.access', 'auth.test']);
    expect((await stored())?.bot?.token).toBe(first);
  });
});

describe('One-time OAuth state', () => {
  const options = { scopes: [...BOT_SCOPES], metadata: 'm' };
  const made = new Date(Date.UTC(2026, 0, 5, 9, 0, 0));
  const later = (seconds: number) => new Date(made.getTime() + seconds * 1000);

  it('gives back the install options once, within 10 minutes, and only for a state signed with its secret', async () => {
    const { store } = await sqliteHarness().fresh();
    const states = oneTimeStateStore({ secret: config.stateSecret, seen: store });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => states.generateStateParam(options, made)));
    expect(new Set([a, b, c, d]).size).toBe(4);

    expect(await states.verifyStateParam(later(599), a!)).toEqual(options);
    await expect(states.verifyStateParam(later(599), a!)).rejects.toMatchObject({
      code: 'slack_oauth_invalid_state',
      message: 'The OAuth state was used already.',
    });
    await expect(states.verifyStateParam(later(600), b!)).rejects.toThrow('The OAuth state has expired.');
    const other = oneTimeStateStore({ secret: 'another-secret-0123456789', seen: store });
    await expect(other.verifyStateParam(later(1), c!)).rejects.toThrow('The OAuth state is not one this app signed.');
    const [body, signature] = d!.split('.');
    const tampered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), t: later(500).getTime() })).toString('base64url')}.${signature}`;
    await expect(states.verifyStateParam(later(700), tampered)).rejects.toThrow('The OAuth state is not one this app signed.');
    await expect(states.verifyStateParam(later(1), 'garbage')).rejects.toThrow('The OAuth state is not one this app signed.');
  });
});
