/**
 * The connect form does not reach the deployment's own network. An admin
 * types the care API's address in Slack; the deployment then sends signed
 * requests there. By default only https:// to a public host name is taken
 * (every resolved address checked, before connecting); CARE_API_HOSTS lists the
 * only hosts allowed (http:// too), as the e2e harness does for its sandbox on
 * 127.0.0.1. The admin is told what is allowed, never what answered there.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { careCommand, type MultiHarness, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';

let internal: Server;
let internalPort: number;
let closedPort: number;
/** Connections offered to the service on the deployment's own network. */
let offered = 0;

beforeAll(async () => {
  internal = createServer((socket) => {
    offered++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as { port: number }).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
});
afterAll(async () => {
  await new Promise((r) => internal.close(r));
});

let h: MultiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Amelia (the installer) opens the connect form from her Home tab. */
async function openConnectForm(harness: MultiHarness) {
  const team = harness.fake.workspace(CARE);
  const ameliaId = team.user('amelia')!.id;
  await harness.team(CARE).openHome('amelia');
  await team.waitFor(() => (team.home(ameliaId) && /Connect your care system/.test(team.visibleText(team.home(ameliaId)!)) ? true : undefined));
  await harness.team(CARE).clickButton('amelia', { home: true, text: 'Connect your care system' });
  await team.waitFor(() => team.openModal(ameliaId)?.view.callback_id === 'connect_care');
}

/** Submits the form with this address; the inline error on the address, or what the form then shows. */
async function submitAddress(harness: MultiHarness, choice: 'Another address' | 'Live (api.carehq.co.uk)', address = '') {
  const account = harness.sandbox.accounts[0]!;
  const team = harness.fake.workspace(CARE);
  const submitted = await harness
    .team(CARE)
    .modal('amelia')
    .fill('API address', choice)
    .fill('Other address', address)
    .fill('Account Id', account.accountId)
    .fill('API key', account.apiKey)
    .fill('API secret', account.apiSecret)
    .submit();
  if (submitted.outcome === 'errors') return { inline: team.inlineError('amelia', choice === 'Another address' ? 'Other address' : 'API address') };
  const ameliaId = team.user('amelia')!.id;
  const shown = await team.waitFor(() => {
    const view = team.openModal(ameliaId)?.view;
    const text = view ? team.visibleText(view) : '';
    return text && !/Checking the details/.test(text) ? text : undefined;
  });
  return { shown };
}

describe('connecting a care system, with CARE_API_HOSTS unset (any public https host)', () => {
  it('refuses every address of the deployment’s own network, however spelt, before connecting, saying what is allowed', async () => {
    h = await startMultiHarness({ careApiHosts: null });
    expect((await h.install(CARE, 'amelia')).status).toBe(200);
    await openConnectForm(h);
    const sandboxPort = new URL(h.sandbox.url).port;
    const refused = [
      `http://127.0.0.1:${internalPort}/v1`,
      `https://127.0.0.1:${internalPort}/v1`,
      `http://127.0.0.1:${sandboxPort}/v1`,
      `https://localhost:${internalPort}/v1`,
      `https://LOCALHOST.:${internalPort}`,
      `https://care.localhost:${internalPort}`,
      `http://2130706433:${internalPort}/`,
      `https://2130706433:${internalPort}/`,
      `https://0x7f000001:${internalPort}/`,
      `https://0x7f.0.0.1:${internalPort}/`,
      `https://0177.0.0.1:${internalPort}/`,
      `https://127.1:${internalPort}/`,
      `https://[::1]:${internalPort}/`,
      `https://[::ffff:127.0.0.1]:${internalPort}/`,
      `https://[::ffff:7f00:1]:${internalPort}/`,
      'https://10.0.0.5/v1',
      'https://172.16.4.4/v1',
      'https://192.168.1.10/v1',
      'https://100.64.0.1/v1',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://0.0.0.0/',
      'https://[::]/',
      'https://intranet/v1',
      // A public address by number is refused too: the care API is given by its host name.
      'https://93.184.215.14/v1',
    ];
    for (const address of refused) {
      const { inline } = await submitAddress(h, 'Another address', address);
      expect(inline, address).toMatch(/public https:\/\/ address, given by its host name/);
      expect(inline, address).not.toMatch(/refused|timed out|did not answer|no such host/i);
    }
    // An open port and a closed one read the same.
    const open = await submitAddress(h, 'Another address', `http://127.0.0.1:${internalPort}/v1`);
    const closed = await submitAddress(h, 'Another address', `http://127.0.0.1:${closedPort}/v1`);
    expect(open.inline?.replace(String(internalPort), 'PORT')).toBe(closed.inline?.replace(String(closedPort), 'PORT'));
    expect(offered).toBe(0);
    expect(await h.app.store.getCareConnection(CARE)).toBeNull();
  }, 60_000);

  it('keeps a workspace connected earlier to a local address from reaching it: its care client refuses the address after resolving it', async () => {
    h = await startMultiHarness({ careApiHosts: null });
    expect((await h.install(CARE, 'amelia')).status).toBe(200);
    const account = h.sandbox.accounts[0]!;
    // As a connection saved before this rule existed would be: a name that resolves to loopback.
    await h.app.store.setCareConnection({
      workspaceId: CARE,
      baseUrl: `http://localhost:${internalPort}/v1`,
      accountId: account.accountId,
      apiKey: account.apiKey,
      apiSecret: account.apiSecret,
      connectedBy: 'U0AMELIA',
    });
    await h.app.registry.refresh(CARE);
    expect(await careCommand(h, CARE, 'amelia', 'locations')).toMatch(/busy or unreachable/);
    expect(offered).toBe(0);
  }, 60_000);
});

describe('connecting a care system, with CARE_API_HOSTS listing the sandbox (127.0.0.1:PORT)', () => {
  it('connects to the listed host over plain http, and refuses any other host, public ones included, in general words that never name the list', async () => {
    h = await startMultiHarness();
    expect((await h.install(CARE, 'amelia')).status).toBe(200);
    await openConnectForm(h);
    const sandbox = new URL(h.sandbox.url);
    const refusal =
      'This deployment connects only to the care API addresses (https://) that whoever runs it has allowed. If your care system is at another address, ask whoever runs this deployment to allow it.';

    for (const address of [`http://127.0.0.1:${internalPort}/v1`, `http://localhost:${sandbox.port}/v1`, 'https://care.example.org/v1']) {
      const { inline } = await submitAddress(h, 'Another address', address);
      expect(inline, address).toBe(refusal);
    }
    // The vendor's live address is a public host, but not one this deployment lists.
    expect((await submitAddress(h, 'Live (api.carehq.co.uk)')).inline).toBe(refusal);
    expect(offered).toBe(0);

    const { shown } = await submitAddress(h, 'Another address', h.sandbox.url);
    expect(shown).toMatch(/every permission/);
    expect((await h.app.registry.get(CARE)).state).toBe('ready');
  }, 60_000);
});
