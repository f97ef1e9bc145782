import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCareClient } from '../../src/care/index.js';
import { careUserIdByEmail, command, type Harness, startHarness } from './harness.js';

const dmText = (h: Harness, user: string) => h.fake.dms(user).map((m) => h.fake.visibleText(m, { viewer: user }));

/** Amelia types `query` in the approval form's list and picks the option that reads `text`. */
async function pickCareUser(h: Harness, query: string, text: string): Promise<void> {
  const option = (await h.driver.suggestOn('amelia', { modal: true }, 'link_care_user', 'value', query)).find(
    (o) => (o.text as { text: string }).text === text,
  );
  if (!option) throw new Error(`no option "${text}" after typing "${query}"`);
  await h.driver.dispatchOn('amelia', { modal: true }, 'link_care_user', 'value', { type: 'external_select', selected_option: option });
}

/** The link request DM Amelia (the admin) got for the visitor, once it is there. */
const visitorsRequest = (h: Harness) =>
  h.fake.waitFor(() => h.fake.dms('amelia').findLast((m) => m.text.includes('<@U0VISITOR>') && JSON.stringify(m.blocks ?? []).includes('care_link_approve')), {
    timeoutMs: 10_000,
  });

describe('linking Slack accounts to care users (the API key may read users)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('links a person whose Slack email matches a care user, and says so in help, whoami and Home', async () => {
    const { text } = await command(h, 'sophie', '/care link');
    expect(text).toContain('Linked: your Slack email matches Sophie Marsh');
    const link = await h.app.store.getLinkBySlackUser('T0CARE', 'U0SOPHIE');
    expect(link?.careUserId).toBe(await careUserIdByEmail(h, 'sophie.marsh@brightwatercare.example'));
    expect(link?.method).toBe('email');

    const home = await h.fake.waitFor(() => h.fake.home('sophie'), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(home)).toContain('Linked as Sophie Marsh');

    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/linked to Sophie Marsh \(care user [0-9a-f]{24}\), by email match/);
    expect((await command(h, 'sophie', '/care help')).text).toContain('linked to Sophie Marsh');
    expect((await command(h, 'sophie', '/care link')).text).toContain('already linked');

    const audit = await h.app.store.listAudit();
    expect(audit.some((e) => e.verb === 'link.email' && e.userId === 'U0SOPHIE')).toBe(true);
  });

  it('unlinks yourself, after which you are told you are not linked', async () => {
    await command(h, 'oliver', '/care link');
    expect((await command(h, 'oliver', '/care unlink')).text).toContain('Your account is unlinked.');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER')).toBeNull();
    expect((await command(h, 'oliver', '/care whoami')).text).toContain('not linked');
    expect((await command(h, 'oliver', '/care unlink')).text).toContain(
      'Your account was not linked, so there was nothing to unlink. /care whoami shows where you stand.',
    );
    const home = await h.fake.waitFor(
      () => (h.fake.home('oliver') && h.fake.visibleText(h.fake.home('oliver')!).includes('not linked') ? h.fake.home('oliver') : undefined),
      { timeoutMs: 10_000 },
    );
    expect(h.fake.visibleText(home)).not.toContain('New action');
  });

  it('asks the admins when no care user has your email; Reject tells the requester', async () => {
    const { text } = await command(h, 'visitor', '/care link');
    expect(text).toContain('No care user has your Slack email address');
    expect(text).toContain('asked an admin');
    const dm = await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => m.text.includes('<@U0VISITOR>')), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain('[Approve] [Reject]');

    await h.driver.clickButton('amelia', { dm: true, text: 'Reject' });
    const told = await h.fake.waitFor(() => h.fake.dms('visitor').find((m) => m.text.includes('did not approve')), { timeoutMs: 10_000 });
    expect(told.text).toContain('did not approve');
    await h.fake.waitFor(() => dmText(h, 'amelia').some((t) => t.includes('rejected by @amelia')), { timeoutMs: 10_000 });
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();
    expect((await h.app.store.listAudit()).some((e) => e.verb === 'link.reject' && e.userId === 'U0AMELIA')).toBe(true);
  });

  it('shows the requester by Slack name and email, and the admin picks the care user by name from a searchable list', async () => {
    // Val's care account is under another email (agency staff): no match, so a request.
    expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
    const whoami = (await command(h, 'visitor', '/care whoami')).text;
    expect(whoami).toContain('not linked yet: your request to link it, sent');
    expect(whoami).toContain('is waiting for an admin');
    const help = await command(h, 'visitor', '/care help');
    expect(help.text).toContain('your request is waiting for an admin');
    expect(help.text).not.toContain('[New action]');

    const dm = await h.fake.waitFor(
      () => h.fake.dms('amelia').find((m) => m.text.includes('<@U0VISITOR>') && JSON.stringify(m.blocks ?? []).includes('care_link_approve')),
      { timeoutMs: 10_000 },
    );
    const asked = h.fake.visibleText(dm, { viewer: 'amelia' });
    expect(asked).toContain('Val Visitor · @visitor · val@agency.example asks to link their Slack account');
    expect(asked).toContain('Approve lets you pick their care user by name or email.');

    await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Approve' });
    const modal = await h.fake.waitFor(
      () => (h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user') ? h.fake.openModal('amelia') : undefined),
      {
        timeoutMs: 10_000,
      },
    );
    const shown = h.fake.visibleText(modal.view, { viewer: 'amelia' });
    expect(shown).toContain('Link Val Visitor · @visitor · val@agency.example to which care user?');
    const list = modal.view.blocks.find((b) => b.block_id === 'link_care_user') as { element: Record<string, unknown>; optional?: boolean };
    expect(list.element).toMatchObject({ type: 'external_select', min_query_length: 0 });

    const options = async (query: string) =>
      (await h.driver.suggestOn('amelia', { modal: true }, 'link_care_user', 'value', query)).map((o) => (o.text as { text: string }).text);
    // Val's Slack email is not Chloe's: marked.
    const chloe = '⚠ other email · Chloe Evans (chloe.evans@brightwatercare.example)';
    expect(await options('chlo')).toEqual([chloe]);
    expect(await options('evans chloe')).toEqual([chloe]);
    expect(await options('chloe.evans@brightwatercare')).toEqual([chloe]);
    const everyone = await options('');
    expect(everyone.length).toBe(20);
    const names = everyone.map((t) => t.replace(/^(⛔ linked · |⚠ other email · )+/, ''));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(await options('nobody-like-this')).toEqual([]);
    // Names and emails of care staff are for admins: anyone else asking for the options gets none.
    const sneaky = await h.driver.sendPayload('block_suggestion', 'value', 'U0SOPHIE', {
      type: 'block_suggestion',
      user: { id: 'U0SOPHIE', name: 'sophie', team_id: 'T0CARE' },
      team: { id: 'T0CARE', domain: 'brightwater' },
      api_app_id: 'A0CAREAPP',
      container: { type: 'view', view_id: modal.view.id },
      block_id: 'link_care_user',
      action_id: 'value',
      value: 'chloe',
    });
    expect((sneaky.json as { options: unknown[] }).options).toEqual([]);

    const form = h.driver.modal('amelia');
    const nothing = await form.submit();
    expect(nothing.outcome).toBe('errors');
    expect(h.fake.inlineError('amelia', 'Care user')).toBe('Pick the care user from the list, or type their care user Id below.');

    const priyaId = await careUserIdByEmail(h, 'priya.sharma@brightwatercare.example');
    await pickCareUser(h, 'chloe evans', chloe);
    const both = await form.fill('Care user Id', priyaId).submit();
    expect(both.outcome).toBe('errors');
    expect(h.fake.inlineError('amelia', 'Care user Id')).toContain('This Id is not the care user picked above');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();

    const ok = await form.fill('Care user Id', '').submit();
    expect(ok.outcome).toBe('closed');
    const chloeId = await careUserIdByEmail(h, 'chloe.evans@brightwatercare.example');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toMatchObject({ careUserId: chloeId, method: 'request', linkedBy: 'U0AMELIA' });
    await h.fake.waitFor(
      () => dmText(h, 'amelia').some((t) => t.includes('approved by @amelia. Linked to Chloe Evans (chloe.evans@brightwatercare.example).')),
      { timeoutMs: 10_000 },
    );
    await h.fake.waitFor(() => h.fake.dms('visitor').find((m) => m.text.includes('linked your Slack account to the care account of *Chloe Evans*')), {
      timeoutMs: 10_000,
    });

    // /care links names both sides: the Slack person and the care user's name and email, no raw Ids.
    const links = (await command(h, 'amelia', '/care links')).text;
    expect(links).toContain('@visitor → Chloe Evans (chloe.evans@brightwatercare.example) · request approved by @amelia');
    expect(links).not.toMatch(/[0-9a-f]{24}/);
    await command(h, 'amelia', '/care unlink <@U0VISITOR|visitor>');
  });

  it('lets an admin both pick and type the same care user, or only type the Id', async () => {
    const chloeId = await careUserIdByEmail(h, 'chloe.evans@brightwatercare.example');
    for (const pick of [true, false]) {
      expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
      const dm = await visitorsRequest(h);
      await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Approve' });
      await h.fake.waitFor(() => h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user'), { timeoutMs: 10_000 });
      if (pick) await pickCareUser(h, 'chloe', '⚠ other email · Chloe Evans (chloe.evans@brightwatercare.example)');
      const form = h.driver.modal('amelia').fill('Care user Id', pick ? chloeId : chloeId.toUpperCase());
      expect((await form.submit()).outcome).toBe('closed');
      expect((await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR'))?.careUserId).toBe(chloeId);
      await command(h, 'amelia', '/care unlink <@U0VISITOR|visitor>');
    }
  });

  it('a request naming a care user shows that person, but picks nobody: the admin picks them', async () => {
    const chloeId = await careUserIdByEmail(h, 'chloe.evans@brightwatercare.example');
    expect((await command(h, 'visitor', `/care link ${chloeId}`)).text).toContain('asked an admin');
    const dm = await visitorsRequest(h);
    expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain('They named care user Chloe Evans.');
    await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Approve' });
    const modal = await h.fake.waitFor(
      () => (h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user') ? h.fake.openModal('amelia') : undefined),
      { timeoutMs: 10_000 },
    );
    expect(h.fake.visibleText(modal.view, { viewer: 'amelia' })).toContain(
      'They named Chloe Evans (chloe.evans@brightwatercare.example): pick or type them below if that is right.',
    );
    const list = modal.view.blocks.find((b) => b.block_id === 'link_care_user') as { element: { initial_option?: unknown } };
    expect(list.element.initial_option).toBeUndefined();
    expect((await h.driver.modal('amelia').submit()).outcome).toBe('errors');
    await pickCareUser(h, 'chloe', '⚠ other email · Chloe Evans (chloe.evans@brightwatercare.example)');
    expect((await h.driver.modal('amelia').submit()).outcome).toBe('closed');
    expect((await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR'))?.careUserId).toBe(chloeId);
    await command(h, 'amelia', '/care unlink <@U0VISITOR|visitor>');
  });

  it('refuses an Id no care user has, under the Id field', async () => {
    expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
    const dm = await visitorsRequest(h);
    await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Approve' });
    await h.fake.waitFor(() => h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user'), { timeoutMs: 10_000 });
    const result = await h.driver.modal('amelia').fill('Care user Id', '0123456789abcdef01234567').submit();
    expect(result.outcome).toBe('errors');
    expect(h.fake.inlineError('amelia', 'Care user Id')).toContain('No care user has the Id 0123456789abcdef01234567');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();
    await h.driver.modal('amelia').close();
  });

  it('lets an admin link someone to a care user Id, and shows who did it', async () => {
    const priyaId = await careUserIdByEmail(h, 'priya.sharma@brightwatercare.example');
    const { text } = await command(h, 'amelia', `/care link <@U0PRIYA|priya> ${priyaId}`);
    expect(text).toContain('Linked @priya to the care account of Priya Sharma (priya.sharma@brightwatercare.example).');
    expect((await command(h, 'priya', '/care whoami')).text).toContain('by @amelia');
    expect((await h.app.store.listAudit()).some((e) => e.verb === 'link.admin' && e.userId === 'U0AMELIA')).toBe(true);
  });

  it('refuses an admin link to a care user that does not exist', async () => {
    const { text } = await command(h, 'amelia', '/care link <@U0OLIVER|oliver> 0123456789abcdef01234567');
    expect(text).toContain('No care user has the Id');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER')).toBeNull();
  });

  it('lists the links for admins, with Unlink buttons that work', async () => {
    const { text } = await command(h, 'amelia', '/care links');
    expect(text).toContain('Linked accounts');
    expect(text).toContain('@sophie');
    expect(text).toContain('Priya Sharma');
    expect(text).toContain('[Unlink]');

    // The first row's Unlink button unlinks the person on that row, and nobody else.
    const firstRow = (await command(h, 'amelia', '/care links')).message.blocks!.find((b) => String(b.block_id ?? '').startsWith('link_'))!;
    const unlinked = String(firstRow.block_id).slice('link_'.length);
    const stays = unlinked === 'U0PRIYA' ? 'U0SOPHIE' : 'U0PRIYA';
    const before = h.fake.ephemerals('amelia').length;
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Unlink', confirm: 'accept' });
    const note = await h.fake.waitFor(
      () =>
        h.fake
          .ephemerals('amelia')
          .slice(before)
          .find((e) => e.text.includes('is unlinked')),
      { timeoutMs: 10_000 },
    );
    expect(note.text).toBe(`<@${unlinked}> is unlinked.`);
    expect(await h.app.store.getLinkBySlackUser('T0CARE', unlinked)).toBeNull();
    expect(await h.app.store.getLinkBySlackUser('T0CARE', stays)).not.toBeNull();
    expect((await h.app.store.listAudit()).some((e) => e.verb === 'link.remove' && e.userId === 'U0AMELIA')).toBe(true);
  });

  it('refuses admin commands from people who are not admins, clearly, changing nothing', async () => {
    await command(h, 'sophie', '/care link');
    const oliverLink = await command(h, 'oliver', '/care link');
    expect(oliverLink.text).toContain('Linked');
    const priyaId = await careUserIdByEmail(h, 'priya.sharma@brightwatercare.example');

    expect((await command(h, 'sophie', '/care links')).text).toContain('Only admins can do that.');
    expect((await command(h, 'sophie', `/care link <@U0PRIYA|priya> ${priyaId}`)).text).toContain('Only admins can do that.');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0PRIYA')).toBeNull();
    expect((await command(h, 'sophie', '/care unlink <@U0OLIVER|oliver>')).text).toContain('Only admins can do that.');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER')).not.toBeNull();
    // Help does not offer them the admin commands either.
    expect((await command(h, 'sophie', '/care help')).text).not.toContain('/care links');
  });

  it('names the right form for a bad link command', async () => {
    const { text } = await command(h, 'amelia', '/care link <@U0PRIYA|priya> not-an-id');
    expect(text).toContain('/care link [your care user Id]');
    expect(text).toContain('24 letters and digits');
    expect((await command(h, 'sophie', '/care unlink everyone')).text).toContain('/care unlink');
  });
});

describe('linking when the API key may not read care users', () => {
  let h: Harness;
  const lookupKey = { apiKey: 'lookup-key', apiSecret: 'lookup-secret' };
  let oliverCareId: string;

  beforeAll(async () => {
    h = await startHarness({
      sandbox: {
        // The app's key may do everything but read users; a second key (ours) may read them.
        permissions: { actions: ['read', 'create', 'update'], locations: ['read'], 'literature-items': ['read'], 'notification-groups': ['read'] },
        extraKeys: [lookupKey],
      },
      adminSlackUserIds: ['U0AMELIA', 'U0PRIYA'],
    });
    const lookup = createCareClient({ baseUrl: h.sandbox.url, accountId: h.sandbox.credentials.accountId, ...lookupKey });
    try {
      const page = await lookup.users.list({ filters: { q: 'oliver.bennett@brightwatercare.example' }, attributes: ['_id', 'email'] });
      oliverCareId = page.items[0]!._id;
    } finally {
      await lookup.close();
    }
  });
  afterAll(async () => h?.close());

  it('sends a request the admins approve with a care user Id in a modal', async () => {
    const { text } = await command(h, 'oliver', '/care link');
    expect(text).toContain('I cannot look people up in the care system');
    expect(text).toContain('asked an admin');
    await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => m.text.includes('<@U0OLIVER>')), { timeoutMs: 10_000 });

    const again = await command(h, 'oliver', '/care link');
    expect(again.text).toContain('still waiting');
    expect(h.fake.dms('amelia').filter((m) => m.text.includes('<@U0OLIVER>'))).toHaveLength(1);
    expect((await command(h, 'oliver', '/care whoami')).text).toContain('is waiting for an admin');

    await h.driver.clickButton('amelia', { dm: true, text: 'Approve' });
    // The API key may not list care users: no list to search, the Id is asked for, saying why.
    const shown = await h.fake.waitFor(
      () => (h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user_id') ? h.fake.openModal('amelia') : undefined),
      {
        timeoutMs: 10_000,
      },
    );
    expect(shown.view.blocks.some((b) => b.block_id === 'link_care_user')).toBe(false);
    expect(h.fake.visibleText(shown.view, { viewer: 'amelia' })).toContain('Oliver Bennett · @oliver · oliver.bennett@brightwatercare.example');
    expect(h.fake.visibleText(shown.view, { viewer: 'amelia' })).toContain('I may not list the care system’s users, so give the Id');
    const modal = h.driver.modal('amelia');
    const bad = await modal.fill('Care user Id', 'z'.repeat(24)).submit();
    expect(bad.outcome).toBe('errors');
    expect(h.fake.inlineError('amelia', 'Care user Id')).toContain('24 letters');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER')).toBeNull();

    const ok = await modal.fill('Care user Id', oliverCareId).submit();
    expect(ok.outcome).toBe('closed');
    const link = await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER');
    expect(link).toMatchObject({ careUserId: oliverCareId, method: 'request', linkedBy: 'U0AMELIA' });
    await h.fake.waitFor(() => h.fake.dms('oliver').find((m) => m.text.includes('linked your Slack account to the care account of')), { timeoutMs: 10_000 });
    await h.fake.waitFor(() => dmText(h, 'amelia').some((t) => t.includes('approved by @amelia')), { timeoutMs: 10_000 });
    expect((await command(h, 'oliver', '/care whoami')).text).toContain('request approved by @amelia');
    expect((await h.app.store.listAudit()).some((e) => e.verb === 'link.approve' && e.userId === 'U0AMELIA')).toBe(true);
  });

  it('tells a second admin who clicks the same request that it was already decided', async () => {
    expect(h.fake.dms('priya').filter((m) => m.text.includes('<@U0OLIVER>'))).toHaveLength(1);
    await h.driver.clickButton('priya', { dm: true, text: 'Approve' });
    const note = await h.fake.waitFor(() => h.fake.ephemerals('priya').find((e) => e.text.includes('already approved')), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(note, { viewer: 'priya' })).toContain('by @amelia');
    expect(h.fake.openModal('priya')).toBeUndefined();
    await h.driver.clickButton('priya', { dm: true, text: 'Reject' });
    await h.fake.waitFor(() => h.fake.ephemerals('priya').filter((e) => e.text.includes('already approved')).length === 2, { timeoutMs: 10_000 });
    expect((await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER'))?.careUserId).toBe(oliverCareId);
    expect(h.fake.dms('oliver').some((m) => m.text.includes('did not approve'))).toBe(false);
  });

  it('lets an admin link by Id even though the app cannot check the Id', async () => {
    const { text } = await command(h, 'amelia', '/care link <@U0PRIYA|priya> 0123456789abcdef01234567');
    expect(text).toContain('Linked @priya');
    // /care links cannot name the care users, so it says why and shows the Id.
    expect((await command(h, 'amelia', '/care links')).text).toContain('@priya → care user 0123456789abcdef01234567 (name unknown: I may not read care users)');
  });
});

describe('linking when the care API has no users endpoint', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { usersEndpoint: false } });
  });
  afterAll(async () => h?.close());

  it('falls back to a request to the admins, and help still works', async () => {
    const { text } = await command(h, 'sophie', '/care link');
    expect(text).toContain('I cannot look people up in the care system');
    await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => m.text.includes('<@U0SOPHIE>')), { timeoutMs: 10_000 });
    expect((await command(h, 'sophie', '/care help')).text).toContain('not linked');
  });
});
