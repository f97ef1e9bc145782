/**
 * At LOG_LEVEL=debug, Bolt and its Web API client log whole request bodies,
 * headers and results (the OAuth exchange among them): no secret of the
 * deployment, and no token or one-time code Slack hands out, reaches a line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careCommand, type MultiHarness, OAUTH, startMultiHarness } from './multi-harness.js';

let h: MultiHarness;
beforeAll(async () => {
  h = await startMultiHarness();
});
afterAll(async () => h?.close());

describe('secrets at debug level', () => {
  it('the whole log of two installs and a command holds neither the client secret, the codes, nor any token Slack issued', async () => {
    const codes: string[] = [];
    for (const [teamId, user, account] of [
      ['T0CARE', 'amelia', 1],
      ['T0SUN', 'erin', 2],
    ] as const) {
      const done = await h.install(teamId, user);
      expect(done.status).toBe(200);
      const redirect = done.steps.map((s) => new URL(s.url)).find((u) => u.pathname === '/slack/oauth_redirect');
      const code = redirect?.searchParams.get('code');
      expect(code, 'the one-time code Slack sent back').toBeTruthy();
      codes.push(code!);
      await h.connectDirectly(teamId, account, h.fake.workspace(teamId).user(user)!.id);
    }
    expect(await careCommand(h, 'T0CARE', 'amelia', 'help')).toContain('/care mine');

    const tokens = ['T0CARE', 'T0SUN'].map((t) => h.fake.workspace(t).botToken);
    expect(tokens.every((t) => t.startsWith('xoxb-'))).toBe(true);
    const log = h.logs.join('\n');
    // The log is a debug one: the exchange itself is in it, its secrets are not.
    expect(log).toContain('oauth.v2.access');
    expect(log).toContain('"level":"debug"');
    expect(log).not.toContain(OAUTH.clientSecret);
    for (const code of codes) expect(log).not.toContain(code);
    for (const token of tokens) expect(log).not.toContain(token);
    expect(log).not.toMatch(/xox[a-z]-[A-Za-z0-9]/);
    expect(log).not.toContain('e2e-signing-secret');
    for (const account of h.sandbox.accounts) {
      expect(log).not.toContain(account.apiSecret);
      expect(log).not.toContain(account.apiKey);
    }
  });
});
