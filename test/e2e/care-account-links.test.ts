/**
 * Issue 23, "harm in one click" on care accounts: a Slack person linked to
 * someone else's care account (item 4), Unlink without a second thought (item
 * 9), and the Home tab of someone whose link request waits for an admin.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/index.js';
import { careUserIdByEmail, command, type Harness, linkDirectly, startHarness } from './harness.js';

const dmText = (h: Harness, user: string) => h.fake.dms(user).map((m) => h.fake.visibleText(m, { viewer: user }));
const email = (first: string, last: string) => `${first}.${last}@brightwatercare.example`.toLowerCase();

/** The options the approval form's list shows Amelia after she typed `query`, as she reads them. */
async function optionsShown(h: Harness, query: string): Promise<string[]> {
  return (await h.driver.suggestOn('amelia', { modal: true }, 'link_care_user', 'value', query)).map((o) => (o.text as { text: string }).text);
}

/** Amelia types `query` in the approval form's list and picks the option that reads `text` (the same query twice within a second would be the same signed request: a replay). */
async function pickCareUser(h: Harness, query: string, text: string): Promise<void> {
  const option = (await h.driver.suggestOn('amelia', { modal: true }, 'link_care_user', 'value', query)).find(
    (o) => (o.text as { text: string }).text === text,
  );
  if (!option) throw new Error(`no option "${text}" after typing "${query}"`);
  await h.driver.dispatchOn('amelia', { modal: true }, 'link_care_user', 'value', { type: 'external_select', selected_option: option });
}

describe("someone else's care account (issue 23, item 4)", () => {
  let h: Harness;
  let dataDir: string;
  let sophieCare: string;
  const visitorsRequest = () =>
    h.fake.waitFor(
      () => h.fake.dms('amelia').findLast((m) => m.text.includes('<@U0VISITOR>') && JSON.stringify(m.blocks ?? []).includes('care_link_approve')),
      {
        timeoutMs: 10_000,
      },
    );
  const openApproval = async () => {
    await h.driver.clickButton('amelia', { dm: true, ts: (await visitorsRequest()).ts, text: 'Approve' });
    return h.fake.waitFor(
      () => (h.fake.openModal('amelia')?.view.blocks.some((b) => b.block_id === 'link_care_user') ? h.fake.openModal('amelia') : undefined),
      {
        timeoutMs: 10_000,
      },
    );
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-links-'));
    h = await startHarness({ sandbox: { seed: 'empty' }, dataDir });
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    sophieCare = await careUserIdByEmail(h, email('Sophie', 'Marsh'));
  });
  afterAll(async () => {
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("approving Val's request for Sophie's care account is refused with who has it; nothing is picked for Amelia, and other emails are marked", async () => {
    expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
    const modal = await openApproval();
    const list = modal.view.blocks.find((b) => b.block_id === 'link_care_user') as { element: { initial_option?: unknown } };
    expect(list.element.initial_option).toBeUndefined();
    expect(h.fake.visibleText(modal.view, { viewer: 'amelia' })).toContain(
      'In the list, ⛔ linked marks someone already linked to another Slack person (unlink them first) and ⚠ other email a care user whose email is not val@agency.example: check it is the same person.',
    );
    // The marks come first: Slack cuts an option at 75 characters.
    expect(await optionsShown(h, 'sophie')).toEqual(['⛔ linked · ⚠ other email · Sophie Marsh (sophie.marsh@brightwatercare.exam…']);
    expect(await optionsShown(h, 'chloe')).toEqual(['⚠ other email · Chloe Evans (chloe.evans@brightwatercare.example)']);

    await pickCareUser(h, 'marsh', (await optionsShown(h, 'sophie marsh'))[0]!);
    const refused = await h.driver.modal('amelia').submit();
    expect(refused.outcome).toBe('errors');
    expect(h.fake.inlineError('amelia', 'Care user')).toBe('Sophie Marsh is already linked to @sophie: unlink first (/care links), then link again.');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();
    expect(await h.app.store.getLinksByCareUser(sophieCare)).toEqual([expect.objectContaining({ slackUserId: 'U0SOPHIE' })]);
    expect((await h.app.store.listLinkRequests({ state: 'pending' })).map((r) => r.slackUserId)).toEqual(['U0VISITOR']);

    // Picking Val's own care account (Chloe Evans, under her agency email) links her, and she is told whose account it is.
    await pickCareUser(h, 'evans', '⚠ other email · Chloe Evans (chloe.evans@brightwatercare.example)');
    expect((await h.driver.modal('amelia').submit()).outcome).toBe('closed');
    const told = await h.fake.waitFor(() => dmText(h, 'visitor').find((t) => t.includes('linked your Slack account')), { timeoutMs: 10_000 });
    expect(told).toContain('@amelia linked your Slack account to the care account of Chloe Evans (chloe.evans@brightwatercare.example).');
    expect(told).toContain('If that is not you, tell an admin at once');
    expect(dmText(h, 'sophie').some((t) => t.includes('linked'))).toBe(false);
    await command(h, 'amelia', '/care unlink <@U0VISITOR|visitor>');
  });

  it("an admin's /care link @person to a care user someone else has is refused, naming them", async () => {
    const reply = await command(h, 'amelia', `/care link <@U0VISITOR|visitor> ${sophieCare}`);
    expect(reply.text).toContain('Sophie Marsh is already linked to @sophie: unlink first');
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0VISITOR')).toBeNull();
    // To a free one it links, and the person is told whose care account it is.
    const chloe = await careUserIdByEmail(h, email('Chloe', 'Evans'));
    expect((await command(h, 'amelia', `/care link <@U0VISITOR|visitor> ${chloe}`)).text).toBe(
      'Linked @visitor to the care account of Chloe Evans (chloe.evans@brightwatercare.example). They were told whose care account it is.',
    );
    const dm = await h.fake.waitFor(() => dmText(h, 'visitor').findLast((t) => t.includes('linked your Slack account')), { timeoutMs: 10_000 });
    expect(dm).toContain('the care account of Chloe Evans (chloe.evans@brightwatercare.example)');
    await command(h, 'amelia', '/care unlink <@U0VISITOR|visitor>');
  });

  it('linking yourself by email to a care account someone else has is refused, naming them', async () => {
    const oliverCare = await careUserIdByEmail(h, email('Oliver', 'Bennett'));
    await command(h, 'amelia', `/care link <@U0PRIYA|priya> ${oliverCare}`);
    const reply = await command(h, 'oliver', '/care link');
    expect(reply.text).toBe(
      'Your Slack email matches Oliver Bennett in the care system, but that care account is already linked to @priya, so I did not link you. If it is yours, ask an admin: they can unlink it and link you.',
    );
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0OLIVER')).toBeNull();
    await command(h, 'amelia', '/care unlink <@U0PRIYA|priya>');
    expect((await command(h, 'oliver', '/care link')).text).toContain(
      'Linked: your Slack email matches Oliver Bennett (oliver.bennett@brightwatercare.example)',
    );
  });

  it('/care links flags a care user who, from links made before this rule, has two Slack people', async () => {
    // A second person on Sophie's care account as older data has it (migration 005 marks such links and keeps them).
    const db = new Database(join(dataDir, SQLITE_FILE_NAME));
    try {
      db.prepare(
        'INSERT INTO identity_links (team_id, slack_user_id, care_user_id, method, linked_by, linked_at, legacy_duplicate) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run('T0CARE', 'U0VISITOR', sophieCare, 'admin', 'U0AMELIA', h.now().getTime());
    } finally {
      db.close();
    }
    const links = (await command(h, 'amelia', '/care links')).text;
    expect(links).toContain('1 care user has more than one Slack person (linked before this was refused).');
    expect(links).toContain('@sophie → Sophie Marsh (sophie.marsh@brightwatercare.example) · email match\n:warning: Also linked to this care user: @visitor');
    expect(links).toContain('@visitor → Sophie Marsh');
  });
});

describe('Unlink in /care links (issue 23, item 9)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('asks first, naming the Slack person and the care user; Cancel keeps the link, Unlink removes it', async () => {
    const links = await command(h, 'amelia', '/care links');
    expect(links.text).toContain('@priya → Priya Sharma');
    const cancelled = await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Unlink', confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    const dialog = h.fake.confirmations('amelia').at(-1)!;
    expect(dialog).toMatchObject({ title: 'Unlink Priya Sharma?', confirmLabel: 'Unlink', denyLabel: 'Cancel', answer: 'deny' });
    expect(dialog.text).toBe(
      "Priya Sharma's Slack account will no longer be linked to care user Priya Sharma (priya.sharma@brightwatercare.example). Until it is linked again, they cannot see or change care actions in Slack.",
    );
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0PRIYA')).not.toBeNull();

    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Unlink', confirm: 'accept' });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text === '<@U0PRIYA> is unlinked.'), { timeoutMs: 10_000 });
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0PRIYA')).toBeNull();
  });
});

describe('the Home tab of someone whose link request is waiting', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, adminSlackUserIds: ['U0AMELIA', 'U0PRIYA'] });
  });
  afterAll(async () => h?.close());

  it('says the request is waiting for an admin and which admins were asked, not "Type /care link"; after a Reject it says how to link again', async () => {
    expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
    await h.driver.openHome('visitor');
    const home = await h.fake.waitFor(
      () => {
        const text = h.fake.home('visitor') && h.fake.visibleText(h.fake.home('visitor')!, { viewer: 'visitor' });
        return text?.includes('waiting') ? text : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(home).toContain('Your request to link your care account, sent today at');
    expect(home).toContain('is waiting for an admin (asked: @amelia, @priya). You will get a message when it is decided; nothing more to do meanwhile.');
    expect(home).not.toContain('Type /care link');

    await h.driver.clickButton('amelia', { dm: true, text: 'Reject' });
    await h.fake.waitFor(() => dmText(h, 'visitor').find((t) => t.includes('did not approve')), { timeoutMs: 10_000 });
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.home('visitor')!).includes('Type /care link') ? true : undefined), { timeoutMs: 10_000 });
  });
});
