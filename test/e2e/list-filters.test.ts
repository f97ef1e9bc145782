/**
 * Lists narrowed to one location or one resident: `/care mine location …`,
 * `/care due today location …`, `… resident <Id>`, the same way a channel
 * digest's `location <name>` is found. An unknown location is one sentence
 * naming the close ones. Demo data; clock Monday 23 November 2026, 09:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestsIn, lineIds } from './fixtures/jobs-support.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

const START = new Date('2026-11-23T09:00:00Z');

describe('lists by location and resident', () => {
  let h: Harness;
  let here: { id: string; name: string };
  let there: { id: string; name: string };
  let residentThere: string;

  beforeAll(async () => {
    h = await startHarness({ startAt: START });
    const sophie = await linkDirectly(h, 'sophie');
    // Two residents of two different homes (from the demo's own actions about them).
    const about = await h.app.care.actions.collect({ filters: { completed: 'unset' }, attributes: ['_id', 'location', 'service_users'], limit: 2000 });
    const locations = await h.app.care.locations.collect({ attributes: ['_id', 'name'], limit: 50 });
    const nameOf = (id: string) => locations.find((l) => l._id === id)?.name ?? '';
    const first = about.find((a) => a.location && a.service_users && nameOf(a.location))!;
    const second = about.find((a) => a.location && a.service_users && nameOf(a.location) && a.location !== first.location)!;
    here = { id: first.location!, name: nameOf(first.location!) };
    there = { id: second.location!, name: nameOf(second.location!) };
    residentThere = second.service_users!;
    await webAppAction(h, {
      task: 'Filter test: bath hoist check',
      due: new Date(START.getTime() + 3 * 3_600_000),
      assigned_to: sophie,
      service_user: first.service_users,
    } as never);
    await webAppAction(h, {
      task: 'Filter test: family call back',
      due: new Date(START.getTime() + 4 * 3_600_000),
      assigned_to: sophie,
      service_user: residentThere,
    } as never);
  });
  afterAll(async () => h?.close());

  it('/care mine location <name>: only that home’s, and says so', async () => {
    const { text } = await command(h, 'sophie', `/care mine location ${here.name}`);
    expect(text).toContain(`Your open actions at ${here.name}`);
    expect(text).toContain('Filter test: bath hoist check');
    expect(text).not.toContain('Filter test: family call back');
    const all = await command(h, 'sophie', '/care mine');
    expect(all.text).toContain('Filter test: bath hoist check');
    expect(all.text).toContain('Filter test: family call back');
  });

  it('/care due today location <name> and resident <Id>', async () => {
    const at = await command(h, 'sophie', `/care due today location ${there.name.toLowerCase()}`);
    expect(at.text).toContain(`Due today for you at ${there.name}`);
    expect(at.text).toContain('Filter test: family call back');
    expect(at.text).not.toContain('Filter test: bath hoist check');
    const resident = await command(h, 'sophie', `/care due today resident ${residentThere}`);
    expect(resident.text).toContain('Filter test: family call back');
    expect(resident.text).not.toContain('Filter test: bath hoist check');
    const mineResident = await command(h, 'sophie', `/care mine resident ${residentThere}`);
    expect(mineResident.text).toContain('Filter test: family call back');
    expect(mineResident.text).not.toContain('Filter test: bath hoist check');
  });

  it('an unknown location or a resident by name is one clear sentence', async () => {
    const word = here.name.split(/\s+/)[0]!;
    const { text } = await command(h, 'sophie', `/care mine location ${word}zz House`);
    expect(text).toContain(`No location is called “${word}zz House”.`);
    expect(text).toContain('/care locations');
    const byName = await command(h, 'sophie', '/care due today resident Mrs Patel');
    expect(byName.text).toContain('I cannot look residents up by name');
  });

  it('the Home tab filters by location from a menu, remembered for the next time', async () => {
    const homeText = () => h.fake.visibleText(h.fake.home('sophie')!, { viewer: 'sophie' });
    await h.driver.openHome('sophie');
    await h.fake.waitFor(() => (h.fake.home('sophie') && homeText().includes('Filter test: family call back') ? true : undefined), { timeoutMs: 15_000 });
    expect(homeText()).toContain('Filter test: bath hoist check');
    await h.driver.selectOption('sophie', { home: true, control: 'Filter by location', option: here.name });
    await h.fake.waitFor(() => (homeText().includes('Filter test: family call back') ? undefined : true), { timeoutMs: 15_000 });
    expect(homeText()).toContain('Filter test: bath hoist check');
    const menu = (h.fake.home('sophie')!.blocks as any[])
      .find((b) => b.block_id === 'home_top')
      .elements.find((e: any) => e.action_id === 'care_home_location');
    expect(menu.initial_option.text.text).toBe(here.name);
    // Remembered: a later render (the same person's Home tab published again) keeps the filter.
    await h.setTime(new Date(h.now().getTime() + 60_000));
    const published = h.fake.calls('views.publish').length;
    await h.driver.openHome('sophie');
    await h.fake.waitFor(() => (h.fake.calls('views.publish').length > published ? true : undefined), { timeoutMs: 15_000 });
    expect(homeText()).toContain('Filter test: bath hoist check');
    expect(homeText()).not.toContain('Filter test: family call back');
    // All locations: everything again.
    await h.driver.selectOption('sophie', { home: true, control: 'Filter by location', option: 'All locations' });
    await h.fake.waitFor(() => (homeText().includes('Filter test: family call back') ? true : undefined), { timeoutMs: 15_000 });
  });

  it('a channel digest of one resident (and of one location) lists only theirs', async () => {
    await linkDirectly(h, 'amelia');
    const set = await command(h, 'amelia', `/care digest here resident ${residentThere}`, { channel: '#care-leads' });
    expect(set.text).toContain(`resident ${residentThere}`);
    await command(h, 'amelia', '/care digest now', { channel: '#care-leads' });
    const digest = await h.fake.waitFor(() => digestsIn(h, '#care-leads').at(-1), { timeoutMs: 15_000 });
    const ids = [...lineIds(digest), ...(digest.replies ?? []).flatMap((r) => lineIds(r))];
    expect(ids.length).toBeGreaterThan(0);
    const about = await h.app.care.actions.collect({ filters: { completed: 'no', parent_subject: [residentThere] }, attributes: ['_id'], limit: 500 });
    const theirs = new Set(about.map((a) => a._id));
    expect(ids.filter((id) => !theirs.has(id))).toEqual([]);
    // The notification text names no resident.
    expect(digest.text).not.toContain(residentThere);
    // A resident by name is one sentence saying to give the Id.
    const byName = await command(h, 'amelia', '/care digest here resident Mrs Patel', { channel: '#care-leads' });
    expect(byName.text).toContain('Give the resident’s Id after');
  });
});
