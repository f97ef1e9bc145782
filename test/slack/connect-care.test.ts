/**
 * An admin connects a workspace to its care account from the App Home card,
 * through the Slack fake and a real Bolt app, against the real sandbox and a
 * real SQLite store: wrong secret, good key, key lacking a permission,
 * inline errors, non-admins, reconnect and disconnect.
 */
import { randomBytes } from 'node:crypto';
import type { App } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCareClient } from '../../src/care/index.js';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { createLogger } from '../../src/logging/logger.js';
import { startSandbox, type RunningSandbox } from '../../dev/sandbox/index.js';
import { careHostPolicy } from '../../src/services/admin/care-hosts.js';
import { createWorkspaceSetup } from '../../src/deployment/workspace-setup.js';
import { registerConnectCare } from '../../src/slack/listeners/workspace/connect-care.js';
import { createSignedMetadata, metadataKey } from '../../src/slack/sealed/signed-metadata.js';
import { registerOneWorkspace } from '../../src/slack/workspace-on-context.js';
import { connectCareHomeBlocks } from '../../src/slack/views/connect-care.js';
import { type SlackDriver, type SlackFake, startSlackFake } from '../../dev/slack-fake/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import { type Fresh, sqliteHarness } from '../store/harness.js';
import { SIGNING_SECRET, startBoltApp } from '../slack-fake/bolt-app.js';

const START = new Date('2024-06-10T09:30:00Z');
const ALL_BUT_USERS = {
  actions: ['read', 'create', 'update'],
  'notification-groups': ['read'],
  locations: ['read'],
  'literature-items': ['read'],
} as const;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    accountId: 'acct-connect',
    apiKey: 'key-connect',
    apiSecret: 'secret-connect-Zq81',
    extraKeys: [{ apiKey: 'key-no-users', apiSecret: 'secret-no-users-Pw55', permissions: ALL_BUT_USERS }],
    rateLimit: 0,
    startTime: START,
  });
});
afterAll(async () => {
  await sandbox?.stop();
});

let fake: SlackFake | undefined;
let stopApp: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopApp?.();
  await fake?.close();
  stopApp = undefined;
  fake = undefined;
});

interface World {
  driver: SlackDriver;
  fake: SlackFake;
  store: OpenedStore;
  fresh: Fresh;
  admins: Set<string>;
  changed: string[];
  teamId: string;
}

const harness = sqliteHarness();

/** The app's Home tab as the test wires it: the care connection card, for admins and others. */
async function boot(): Promise<World> {
  const fresh = await harness.fresh({ keyRing: new KeyRing([randomBytes(32)]) });
  const store = fresh.store;
  const admins = new Set(['U0ALICE']);
  const changed: string[] = [];
  // The sandbox is on 127.0.0.1: allowed explicitly, as CARE_API_HOSTS does.
  const careHosts = careHostPolicy([{ host: '127.0.0.1', port: Number(new URL(sandbox.url).port) }]);
  fake = await startSlackFake();
  const started = await startBoltApp(fake, (app: App) => {
    // One workspace: its Id on each request's context, as createSlackApp puts it.
    registerOneWorkspace(app);
    const logger = createLogger({ level: 'silent' });
    registerConnectCare(app, {
      setup: createWorkspaceSetup({
        store,
        careClientFor: (c) => createCareClient({ ...c, maxRetries: 0, timeoutMs: 2000, allowAddress: careHosts.addressRuleFor(c.baseUrl) }),
        careHosts,
        logger,
      }),
      isAdmin: async (_teamId, userId) => admins.has(userId),
      careHosts,
      onChanged: async (teamId) => void changed.push(teamId),
      signedMetadata: createSignedMetadata({ key: metadataKey(SIGNING_SECRET), now: () => new Date() }),
      logger,
    });
    app.event('app_home_opened', async ({ event, client, context }) => {
      const teamId = context.teamId ?? '';
      const c = await store.getCareConnection(teamId);
      const blocks = connectCareHomeBlocks({ isAdmin: admins.has(event.user), connection: c, timezone: 'Europe/London' });
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks } });
    });
  });
  stopApp = started.stop;
  return { driver: started.driver, fake, store, fresh, admins, changed, teamId: fake.teamId };
}

const text = (w: World, user: string) => {
  const open = w.fake.openModal(user);
  return open ? w.fake.visibleText({ blocks: open.view.blocks }) : '';
};

/** An input's element in the modal the person has open (its initial value, options…). */
function field(w: World, user: string, blockId: string): Record<string, unknown> {
  const block = w.fake.openModal(user)?.view.blocks.find((b) => b.block_id === blockId);
  return (block?.element ?? {}) as Record<string, unknown>;
}

/** The person's Home tab, once the app has published it. */
async function openHome(w: World, user: string): Promise<string> {
  const id = w.driver.user(user).id;
  const before = w.fake.home(id)?.hash;
  await w.driver.openHome(user);
  const home = await w.fake.waitFor(() => {
    const view = w.fake.home(id);
    return view && view.hash !== before ? view : undefined;
  });
  return w.fake.visibleText({ blocks: home.blocks });
}

/** Waits until the modal shows something other than "Checking…". */
async function outcome(w: World, user: string): Promise<string> {
  return w.fake.waitFor(() => {
    const t = text(w, user);
    return t && !/Checking the details|Loading/.test(t) ? t : undefined;
  });
}

async function openForm(w: World, user = 'alice') {
  await openHome(w, user);
  await w.driver.clickButton(user, { home: true, text: 'Connect your care system' });
  const modal = w.driver.modal(user);
  await w.fake.waitFor(() => w.fake.openModal(user)?.view.callback_id === 'connect_care');
  return modal;
}

function fillSandbox(modal: ReturnType<SlackDriver['modal']>, credentials: { accountId: string; apiKey: string; apiSecret: string }) {
  return modal
    .fill('API address', 'Another address')
    .fill('Other address', sandbox.url)
    .fill('Account Id', credentials.accountId)
    .fill('API key', credentials.apiKey)
    .fill('API secret', credentials.apiSecret);
}

describe('connecting a workspace to its care account', () => {
  it('refuses a wrong secret, saving nothing and keeping what was typed but the secret; then connects with the right one', async () => {
    const w = await boot();
    const modal = await openForm(w);
    const first = await fillSandbox(modal, { ...sandbox.credentials, apiSecret: 'not-the-secret' }).submit();
    expect(first.outcome).toBe('updated');

    const shown = await outcome(w, 'alice');
    expect(shown).toContain('Not connected.');
    expect(shown).toMatch(/did not accept the API secret/);
    expect(await w.store.getCareConnection(w.teamId)).toBeNull();
    expect(await w.store.listAudit({ verb: 'care.connect' })).toEqual([]);
    expect(w.changed).toEqual([]);
    expect(w.fake.openModal('alice')?.view.callback_id).toBe('connect_care');
    const initial = (blockId: string) => field(w, 'alice', blockId).initial_value;
    expect(initial('connect_care_account')).toBe(sandbox.credentials.accountId);
    expect(initial('connect_care_key')).toBe(sandbox.credentials.apiKey);
    expect(initial('connect_care_url')).toBe(sandbox.url);
    expect(initial('connect_care_secret')).toBeUndefined();

    const second = await w.driver.modal('alice').fill('API secret', sandbox.credentials.apiSecret).submit();
    expect(second.outcome).toBe('updated');
    const result = await outcome(w, 'alice');
    expect(result).toContain('every permission the app uses');

    const saved = await w.store.getCareConnection(w.teamId);
    expect(saved).toMatchObject({ baseUrl: sandbox.url, ...sandbox.credentials, connectedBy: 'U0ALICE' });
    expect(w.changed).toEqual([w.teamId]);
    const [audit] = await w.store.listAudit({ verb: 'care.connect' });
    expect(audit).toMatchObject({ teamId: w.teamId, userId: 'U0ALICE', details: { accountId: sandbox.credentials.accountId, missing: [] } });
    const details = JSON.stringify(audit?.details);
    expect(details).not.toContain(sandbox.credentials.apiSecret);
    expect(details).not.toContain(sandbox.credentials.apiKey);
    // What a copy of the database shows: the store encrypted the secret.
    expect((await harness.dump(w.fresh)).includes(Buffer.from(sandbox.credentials.apiSecret))).toBe(false);
  });

  it('connects a key lacking users read, and says what will not work without it', async () => {
    const w = await boot();
    const modal = await openForm(w);
    const credentials = { accountId: sandbox.credentials.accountId, apiKey: 'key-no-users', apiSecret: 'secret-no-users-Pw55' };
    await fillSandbox(modal, credentials).submit();
    const result = await outcome(w, 'alice');
    expect(result).toMatch(/Connected, but the API key lacks a permission/);
    expect(result).toMatch(/Users: read.*People cannot be linked to their care account by their email/);
    expect(result).toMatch(/Working: Actions: read, Actions: create and update/);
    expect(await w.store.getCareConnection(w.teamId)).toMatchObject(credentials);
    const [audit] = await w.store.listAudit({ verb: 'care.connect' });
    expect(audit?.details.missing).toEqual(['users.read']);
  });

  it('answers an empty or bad address inline, before any check', async () => {
    const w = await boot();
    const modal = await openForm(w);
    const bad = await fillSandbox(modal, sandbox.credentials).fill('Other address', 'ftp://care.example.org').submit();
    expect(bad.outcome).toBe('errors');
    expect(w.fake.inlineError('alice', 'Other address')).toMatch(/should start with https/);

    const plainHttp = await w.driver.modal('alice').fill('Other address', 'http://care.example.org/v1').submit();
    expect(plainHttp.outcome).toBe('errors');
    expect(w.fake.inlineError('alice', 'Other address')).toMatch(/https/);

    const liveWithUrl = await w.driver.modal('alice').fill('API address', 'Live (api.carehq.co.uk)').fill('Other address', 'https://x.example/v1').submit();
    expect(liveWithUrl.outcome).toBe('errors');
    expect(w.fake.inlineError('alice', 'Other address')).toMatch(/choose “Another address”/);

    const blank = await w.driver.modal('alice').fill('API address', 'Another address').fill('Other address', sandbox.url).fill('API key', '   ').submit();
    expect(blank.outcome).toBe('errors');
    expect(w.fake.inlineError('alice', 'API key')).toBe('Enter the API key.');
    expect(await w.store.getCareConnection(w.teamId)).toBeNull();
  });

  it('shows non-admins a line instead of the button, and refuses a stale button of someone no longer admin', async () => {
    const w = await boot();
    const home = await openHome(w, 'bob');
    expect(home).toContain('An admin needs to connect this workspace');
    expect(home).not.toContain('Connect your care system');

    await openHome(w, 'alice');
    w.admins.delete('U0ALICE');
    await w.driver.clickButton('alice', { home: true, text: 'Connect your care system' });
    expect(await outcome(w, 'alice')).toContain('Only an admin of this workspace can connect it');
  });

  it('reconnects with the address and account Id filled in but never the key or secret, and disconnects after a confirm', async () => {
    const w = await boot();
    await w.store.setCareConnection({ workspaceId: w.teamId, baseUrl: sandbox.url, ...sandbox.credentials, connectedBy: 'U0ALICE' });
    const home = await openHome(w, 'alice');
    expect(home).toContain(`account ${sandbox.credentials.accountId}`);
    expect(home).toContain('Connected by');

    await w.driver.clickButton('alice', { home: true, text: 'Reconnect' });
    await w.fake.waitFor(() => w.fake.openModal('alice')?.view.callback_id === 'connect_care');
    const element = (blockId: string) => field(w, 'alice', blockId);
    expect((element('connect_care_address').initial_option as { value: string }).value).toBe('other');
    expect(element('connect_care_url').initial_value).toBe(sandbox.url);
    expect(element('connect_care_account').initial_value).toBe(sandbox.credentials.accountId);
    expect(element('connect_care_key').initial_value).toBeUndefined();
    expect(element('connect_care_secret').initial_value).toBeUndefined();
    await w.driver.modal('alice').close();

    const cancelled = await w.driver.clickButton('alice', { home: true, text: 'Disconnect', confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    expect(await w.store.getCareConnection(w.teamId)).not.toBeNull();

    await w.driver.clickButton('alice', { home: true, text: 'Disconnect', confirm: 'accept' });
    await w.fake.waitFor(() => w.fake.dms('alice').some((m) => /Disconnected this workspace/.test(m.text ?? '')));
    expect(await w.store.getCareConnection(w.teamId)).toBeNull();
    expect(w.changed).toEqual([w.teamId]);
    const [audit] = await w.store.listAudit({ verb: 'care.disconnect' });
    expect(audit).toMatchObject({ userId: 'U0ALICE', details: { accountId: sandbox.credentials.accountId, baseUrl: sandbox.url } });
    expect(w.fake.confirmations('U0ALICE').map((c) => c.answer)).toEqual(['deny', 'confirm']);
  });
});
