/**
 * Completion notices beyond test/e2e/completion-notices.test.ts: email_to
 * members found with users.lookupByEmail, routed channels, a reopen in Slack
 * followed by a completion in the web app, one DM per person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';

describe('completion notices to group members and routed channels', () => {
  let h: Harness;
  const group: Record<string, string> = {};
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const dms = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === actionId);
  const posts = (channel: string, actionId: string) =>
    h.fake.messages(channel).filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === actionId);
  const soon = () => new Date(h.now().getTime() + 3 * 3600_000);

  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, logLevel: 'info' });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
    // Amelia is not linked: she is told because the "Willow Bank seniors" group emails her.
    for (const g of await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })) group[g.name!] = g._id;
    expect(Object.keys(group)).toEqual(expect.arrayContaining(['Willow Bank seniors', 'Home care coordinators', 'Home managers']));
    expect((await command(h, 'amelia', '/care route Willow Bank seniors <#C0LEADS|care-leads>')).text).toContain('will also be posted in');
    expect((await command(h, 'amelia', '/care route Home care coordinators <#C0CARE|care-team>')).text).toContain('will also be posted in');
    const routes = (await command(h, 'amelia', '/care routes')).text;
    expect(routes).toContain('Willow Bank seniors → #care-leads');
    expect(routes).toContain('Home care coordinators → #care-team');
    await poll(h); // the poll's cursor starts here
  });
  afterAll(async () => h?.close());

  it('a web-app completion DMs linked members and email_to members once, and posts in each routed channel', async () => {
    await later();
    const a = await webAppAction(h, {
      task: 'Fit the new door lock',
      due: soon(),
      notify_on_complete: [group['Willow Bank seniors']!, group['Home care coordinators']!],
    });
    await h.control(`actions/${a._id}/complete`, {});
    await poll(h);
    await poll(h);
    expect(dms('sophie', a._id)).toHaveLength(1); // a user of the group, linked
    expect(dms('oliver', a._id)).toHaveLength(1);
    expect(dms('amelia', a._id)).toHaveLength(1); // by email_to -> users.lookupByEmail
    expect(dms('priya', a._id)).toHaveLength(0);
    expect(h.fake.calls('users.lookupByEmail').map((c) => c.args.email)).toContain('amelia.hughes@brightwatercare.example');
    expect(h.fake.visibleText(dms('amelia', a._id)[0]!, { viewer: 'amelia' })).toContain('Fit the new door lock');

    // Routed: the private channel shows the task, the public one does not.
    expect(posts('#care-leads', a._id)).toHaveLength(1);
    expect(posts('#care-team', a._id)).toHaveLength(1);
    expect(h.fake.visibleText(posts('#care-leads', a._id)[0]!, { viewer: 'amelia' })).toContain('Fit the new door lock');
    const hidden = h.fake.visibleText(posts('#care-team', a._id)[0]!, { viewer: 'amelia' });
    expect(hidden).toContain(`#${a.action_no} was completed`);
    expect(hidden).not.toContain('door lock');

    // Ella Fraser (email_to of "Home care coordinators") has no Slack user: counted at info level once, address never logged.
    const logs = h.logs.join('\n');
    expect(logs).toMatch(/notification addresses without a Slack user.*"count":1/);
    expect(logs).not.toContain('ella.fraser');
  });

  it('a completion in Slack is announced at once through the same ledger; the poller adds nothing', async () => {
    await later();
    const sophie = (await h.app.store.getLinkBySlackUser(h.fake.teamId, 'U0SOPHIE'))!.careUserId;
    const b = await webAppAction(h, { task: 'Refill the sharps bin', due: soon(), assigned_to: sophie, notify_on_complete: [group['Willow Bank seniors']!] });
    expect((await command(h, 'sophie', `/care done ${b.action_no}`)).text).toContain('Completed');
    await h.fake.waitFor(() => dms('amelia', b._id).length === 1 && posts('#care-leads', b._id).length === 1, {
      timeoutMs: 15_000,
      message: 'the fast path did not notify everyone',
    });
    await poll(h);
    await poll(h);
    expect(dms('amelia', b._id)).toHaveLength(1);
    // Sophie, in the group, completed it herself: no notice about her own completion (issue 32).
    expect(dms('sophie', b._id)).toHaveLength(0);
    expect(posts('#care-leads', b._id)).toHaveLength(1);

    // Reopened in Slack, completed again in the web app: a new completion, so everyone is told again.
    expect((await command(h, 'sophie', `/care reopen ${b.action_no}`)).text).toMatch(/reopen/i);
    await later();
    await h.control(`actions/${b._id}/complete`, {});
    await poll(h);
    await poll(h);
    expect(dms('amelia', b._id)).toHaveLength(2);
    // Completed by someone in the web app this time: Sophie is told as a group member.
    expect(dms('sophie', b._id)).toHaveLength(1);
    expect(posts('#care-leads', b._id)).toHaveLength(2);
  });

  it('a person reached through two groups gets one DM naming both', async () => {
    await linkDirectly(h, 'amelia'); // now also a linked user of "Home managers"
    await later();
    const c = await webAppAction(h, { task: 'Sign off the audit', due: soon(), notify_on_complete: [group['Willow Bank seniors']!, group['Home managers']!] });
    await h.control(`actions/${c._id}/complete`, {});
    await poll(h);
    const [only, ...more] = dms('amelia', c._id);
    expect(more).toEqual([]);
    const shown = h.fake.visibleText(only!, { viewer: 'amelia' });
    expect(shown).toContain('Willow Bank seniors');
    expect(shown).toContain('Home managers');
  });

  it('/care route off stops the channel posts but not the DMs', async () => {
    expect((await command(h, 'amelia', '/care route off Home care coordinators')).text).toContain('Route removed.');
    await later();
    const d = await webAppAction(h, { task: 'Update the rota', due: soon(), notify_on_complete: [group['Home care coordinators']!] });
    await h.control(`actions/${d._id}/complete`, {});
    await poll(h);
    expect(dms('oliver', d._id)).toHaveLength(1);
    expect(posts('#care-team', d._id)).toHaveLength(0);
  });
});
