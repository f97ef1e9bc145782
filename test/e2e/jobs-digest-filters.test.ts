import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { digestsIn, lineIds } from './fixtures/jobs-support.js';
import { confirmShowTasks } from './fixtures/show-tasks.js';

/** Every action a channel's newest digest lists (the summary and its thread). */
function listed(h: Harness, channel: string): string[] {
  const digest = digestsIn(h, channel).at(-1);
  if (!digest) return [];
  return [...lineIds(digest), ...(digest.replies ?? []).flatMap((r) => lineIds(r))];
}

describe('digest filters: a person, mine-only, a location', () => {
  let h: Harness;
  let sophie: string;
  let amelia: string;
  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-11-23T09:00:00Z') }); // a Monday, demo data
    sophie = await linkDirectly(h, 'sophie');
    amelia = await linkDirectly(h, 'amelia');
    // Make sure each filter has something due today to list.
    await webAppAction(h, { task: 'Sophie: weigh Mr Green', due: new Date('2026-11-23T15:00:00Z'), assigned_to: sophie });
    await webAppAction(h, { task: 'Amelia: staff rota', due: new Date('2026-11-23T16:00:00Z'), assigned_to: amelia });
  });
  afterAll(async () => h?.close());

  async function assignees(ids: string[]): Promise<(string | null | undefined)[]> {
    return Promise.all(ids.map(async (id) => (await h.app.care.actions.retrieve(id, { attributes: ['_id', 'assigned_to'] })).assigned_to));
  }

  it('@person: only that person’s overdue and due-today actions', async () => {
    expect((await command(h, 'amelia', '/care digest here <@U0SOPHIE|sophie>', { channel: '#care-team' })).text).toContain('actions of @sophie');
    await command(h, 'amelia', '/care digest now', { channel: '#care-team' });
    const ids = listed(h, '#care-team');
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(await assignees(ids))).toEqual(new Set([sophie]));
  });

  it('mine-only: the actions of the admin who set it up', async () => {
    await command(h, 'amelia', '/care digest here mine-only --show-tasks', { channel: '#general' });
    await confirmShowTasks(h, 'amelia', '#general'); // a public channel: the second step
    await command(h, 'amelia', '/care digest now', { channel: '#general' });
    const ids = listed(h, '#general');
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(await assignees(ids))).toEqual(new Set([amelia]));
    expect(h.fake.visibleText(digestsIn(h, '#general').at(-1)!)).toContain('Amelia: staff rota');
  });

  it('location: only actions of that care home', async () => {
    const locations = await h.app.care.locations.collect({ attributes: ['_id', 'name'], limit: 20 });
    // The care home with the most open actions due by today in the demo data.
    const open = await h.app.care.actions.collect({ filters: { completed: 'no', end_date: '2026-11-23' }, attributes: ['_id', 'location'], limit: 5000 });
    const counts = new Map<string, number>();
    for (const a of open) if (a.location) counts.set(a.location, (counts.get(a.location) ?? 0) + 1);
    const busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const name = locations.find((l) => l._id === busiest)!.name!;

    expect((await command(h, 'amelia', `/care digest here location ${name}`, { channel: '#care-leads' })).text).toContain(`location ${name}`);
    await command(h, 'amelia', '/care digest now', { channel: '#care-leads' });
    const ids = listed(h, '#care-leads');
    expect(ids.length).toBeGreaterThan(0);
    const where = await Promise.all(ids.map(async (id) => (await h.app.care.actions.retrieve(id, { attributes: ['_id', 'location'] })).location));
    expect(new Set(where)).toEqual(new Set([busiest]));
  });

  it("a location's name from the care system is shown as its words, never as Slack markup", async () => {
    const [location] = await h.app.care.locations.collect({ attributes: ['_id', 'name'], limit: 1 });
    await command(h, 'amelia', `/care digest here location ${location!.name}`, { channel: '#care-leads' });
    // The care system's name for it, as a care home might type it (stored as the channel's setup keeps it).
    const sub = (await h.app.store.getSubscription(h.fake.teamId, h.fake.channel('care-leads')!.id))!;
    await h.app.store.upsertSubscription({ ...sub, filters: { ...sub.filters, locationName: 'Rose & Ivy <!channel> <@U0SOPHIE>' } });
    await command(h, 'amelia', '/care digest now', { channel: '#care-leads' });
    const digest = digestsIn(h, '#care-leads').at(-1)!;
    expect(h.fake.visibleText(digest)).toContain('Rose & Ivy <!channel> <@U0SOPHIE>');
    expect(JSON.stringify(digest.blocks ?? digest.text)).not.toMatch(/<!channel>|<@U0SOPHIE>/);
  });

  it('a channel the app is not in gets no digest or route set up, and the admin is told to invite it', async () => {
    const digest = await command(h, 'amelia', '/care digest here', { channel: '#random' });
    expect(digest.text).toContain('Invite me first');
    expect(await h.app.store.getSubscription(h.fake.teamId, 'C0RANDOM')).toBeNull();
    const [group] = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], limit: 1 });
    const route = await command(h, 'amelia', `/care route ${group!.name} <#C0RANDOM|random>`, { channel: '#care-team' });
    expect(route.text).toContain('Invite me to it first');
    expect(await h.app.store.listRoutes(h.fake.teamId)).toEqual([]);
  });

  it('an unknown location is refused with a pointer to /care locations', async () => {
    const { text } = await command(h, 'amelia', '/care digest here location Atlantis House', { channel: '#care-leads' });
    expect(text).toContain('No location is called');
    expect(text).toContain('/care locations');
  });
});
