import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import type { Workspace } from '../../dev/slack-fake/index.js';
import { command, type Harness, linkDirectly, startHarness } from './harness.js';

/**
 * Admins set up routes and digests typing channels and people as they read
 * them (`#care-team`, `care-team`, `@priya`, `Priya Sharma`), not only as
 * Slack mentions. The workspace is big enough that users.list and
 * conversations.list take several pages, and the people and channels looked
 * for sit on the last ones.
 */
function bigWorkspace(): Workspace {
  const ws = careWorkspace();
  for (let i = 0; i < 450; i++) {
    const n = String(i).padStart(3, '0');
    ws.users.push({ id: `U1FILL${n}`, name: `staff${n}`, realName: `Staff Member ${n}`, email: `staff${n}@agency.example`, tz: 'Europe/London' });
  }
  // A second Priya, on the last page, and someone who left (deleted people are never matched).
  ws.users.push({ id: 'U0PRIYAP', name: 'priya.p', displayName: 'Priya P', realName: 'Priya Patel', email: 'priya.patel@agency.example', tz: 'Europe/London' });
  ws.users.push({ id: 'U0GONE', name: 'gone', realName: 'Gordon Gone', email: 'gone@agency.example', tz: 'Europe/London', deleted: true });
  ws.users.push({ id: 'U0NIGHT', name: 'nightowl', displayName: 'Night Owl', realName: 'Nadia Owusu', email: 'nadia@agency.example', tz: 'Europe/London' });
  for (let i = 0; i < 250; i++)
    ws.channels.push({ id: `C1WARD${String(i).padStart(3, '0')}`, name: `ward-${String(i).padStart(3, '0')}`, members: ['U0AMELIA'] });
  ws.channels.push({ id: 'C0NIGHTS', name: 'care-team-nights', members: ['U0AMELIA', 'U0BOT'] });
  ws.channels.push({ id: 'C0OLDCARE', name: 'care-old', members: ['U0AMELIA', 'U0BOT'], archived: true });
  ws.channels.push({ id: 'C0SECRET', name: 'managers-private', isPrivate: true, members: ['U0AMELIA'] });
  return ws;
}

describe('set-up by plain names', () => {
  let h: Harness;
  const calls = (method: string) => h.fake.state.calls.filter((c) => c.method === method);

  beforeAll(async () => {
    h = await startHarness({ workspace: bigWorkspace() });
    await linkDirectly(h, 'priya');
    await linkDirectly(h, 'oliver');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    for (const r of await h.app.store.listRoutes(h.fake.teamId)) await h.app.store.deleteRoute(h.fake.teamId, r.groupId);
  });

  const routes = async () => (await h.app.store.listRoutes(h.fake.teamId)).map((r) => [r.groupName, r.channelId]);

  it('routes a multi-word group to a channel typed as #name, reading every page of conversations.list', async () => {
    const before = calls('conversations.list').length;
    const { text } = await command(h, 'amelia', '/care route Home managers #care-team-nights');
    expect(text).toContain('Completions notified to Home managers will also be posted in #care-team-nights');
    expect(await routes()).toEqual([['Home managers', 'C0NIGHTS']]);
    const listed = calls('conversations.list').slice(before);
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.every((c) => c.args.types === 'public_channel,private_channel')).toBe(true);
  });

  it('takes the channel typed without #, and the mention as before', async () => {
    expect((await command(h, 'amelia', '/care route Home care coordinators care-team')).text).toContain('will also be posted in #care-team');
    expect((await command(h, 'amelia', '/care route Maintenance <#C0LEADS|care-leads>')).text).toContain('will also be posted in #care-leads');
    expect((await routes()).sort()).toEqual([
      ['Home care coordinators', 'C0CARE'],
      ['Maintenance', 'C0LEADS'],
    ]);
  });

  it('a channel name that is only part of one gets a list of the channels meant, and nothing is set', async () => {
    const { text, raw } = await command(h, 'amelia', '/care route Home managers #care');
    expect(text).toContain('No channel I can see is called #care.');
    expect(text).toContain('Did you mean #care-team, #care-leads, #care-team-nights?');
    expect(raw).toContain('<#C0CARE>');
    // Archived channels and private ones the app is not in are not offered.
    expect(text).not.toContain('care-old');
    expect((await command(h, 'amelia', '/care route Home managers #managers-private')).text).toContain('A private channel shows only once I am in it');
    expect(await routes()).toEqual([]);
  });

  it('a channel the app is not in is named, with how to invite it', async () => {
    const { text } = await command(h, 'amelia', '/care route Home managers random');
    expect(text).toContain('I am not in #random');
    expect(text).toContain('/invite @Care Actions');
    expect(await routes()).toEqual([]);
  });

  it('an unknown group lists the groups there are', async () => {
    const { text } = await command(h, 'amelia', '/care route Night staff #care-team');
    expect(text).toContain('No notification group is called “Night staff”.');
    expect(text).toContain('The groups are: Family liaison, Heather Lodge nurses, Home care coordinators, Home managers');
    expect(text).toContain('/care route <group name> #channel');
  });

  it('sets a digest for people typed as @name, display name and real name, read from every page of users.list', async () => {
    const before = calls('users.list').length;
    const { text } = await command(h, 'amelia', '/care digest here 07:30 @oliver Priya Sharma, Night Owl', { channel: '#care-team' });
    expect(text).toContain('Digest set for this channel: 07:30 every day (Europe/London)');
    expect(text).toContain('actions of @oliver @priya @Night Owl');
    // Nadia has no care link yet: said, as for mentions.
    expect(text).toContain('Not linked yet, so not covered: @Night Owl');
    const sub = await h.app.store.getSubscription(h.fake.teamId, 'C0CARE');
    expect(sub?.filters.slackUserIds).toEqual(['U0OLIVER', 'U0PRIYA', 'U0NIGHT']);
    expect(calls('users.list').length - before).toBeGreaterThan(1);
  });

  it('splits names typed one after another when no one has them all ("priya oliver")', async () => {
    await command(h, 'amelia', '/care digest here sharma oliver', { channel: '#care-team' });
    expect((await h.app.store.getSubscription(h.fake.teamId, 'C0CARE'))?.filters.slackUserIds).toEqual(['U0PRIYA', 'U0OLIVER']);
  });

  it('an ambiguous name gets the people it could be, with mentions and Ids to type instead, and changes nothing', async () => {
    await command(h, 'amelia', '/care digest here 08:00 <@U0OLIVER|oliver>', { channel: '#care-team' });
    const { text, raw } = await command(h, 'amelia', '/care digest here 09:00 Priya', { channel: '#care-team' });
    expect(text).toContain('More than one person matches “Priya”:');
    expect(text).toContain('• @priya Priya Sharma · Id U0PRIYA');
    expect(text).toContain('• @Priya P Priya Patel · Id U0PRIYAP');
    expect(raw).toContain('<@U0PRIYAP>');
    expect(text).toContain('give their Id instead of “Priya” (e.g. U0PRIYA)');
    const sub = await h.app.store.getSubscription(h.fake.teamId, 'C0CARE');
    expect([sub?.time, sub?.filters.slackUserIds]).toEqual(['08:00', ['U0OLIVER']]);

    // Retyped with the Id from the list, or as @handle, it is set.
    await command(h, 'amelia', '/care digest here 09:00 U0PRIYAP', { channel: '#care-team' });
    expect((await h.app.store.getSubscription(h.fake.teamId, 'C0CARE'))?.filters.slackUserIds).toEqual(['U0PRIYAP']);
    await command(h, 'amelia', '/care digest here 09:00 @priya', { channel: '#care-team' });
    expect((await h.app.store.getSubscription(h.fake.teamId, 'C0CARE'))?.filters.slackUserIds).toEqual(['U0PRIYA']);
  });

  it('an unknown name says so, suggests near names, and reminds of the options; deleted people are never matched', async () => {
    const typo = (await command(h, 'amelia', '/care digest here weekday', { channel: '#care-team' })).text;
    expect(typo).toContain('No one in this workspace is called “weekday”. Check the spelling, or pick the person with @ from Slack’s list.');
    expect(typo).toContain('The options are: /care digest here [HH:MM|shift-start|at <shift> start] [daily|weekdays]');
    const near = (await command(h, 'amelia', '/care digest here Owus', { channel: '#care-team' })).text;
    expect(near).toContain('No one in this workspace is called “Owus”. Did you mean:');
    expect(near).toContain('• @Night Owl Nadia Owusu · Id U0NIGHT');
    expect((await command(h, 'amelia', '/care digest here Gordon Gone', { channel: '#care-team' })).text).toContain(
      'No one in this workspace is called “Gordon”',
    );
  });

  it('/care due takes a colleague as @name too', async () => {
    const { text } = await command(h, 'priya', '/care due week @oliver');
    expect(text).toContain('Due in the next 7 days for @oliver');
    expect((await command(h, 'priya', '/care due week @Priya P')).text).toContain('@Priya P has not linked a care account');
    expect((await command(h, 'priya', '/care due week @nobody')).text).toContain('No one in this workspace is called “@nobody”');
  });

  it('looks names up only for admins (a refusal reads no list)', async () => {
    const before = calls('users.list').length + calls('conversations.list').length;
    expect((await command(h, 'sophie', '/care route Home managers #care-team')).text).toContain('Only admins can do that.');
    expect((await command(h, 'sophie', '/care digest here @priya', { channel: '#care-team' })).text).toContain('Only admins can do that.');
    expect(calls('users.list').length + calls('conversations.list').length).toBe(before);
  });
});
