import { beforeAll, describe, expect, it } from 'vitest';
import { listAll, useSandbox } from './support.js';

const h = useSandbox({ seed: 'empty' });
const ids = (items: any[]) => items.map((a) => a._id).sort();
let locations: any[] = [];
let literature: any[] = [];

beforeAll(async () => {
  const attrs = ['accepts_dementia', 'offers_respite', 'suspended', 'brand', 'groups', 'services', 'name', 'ref'];
  locations = await listAll(h, 'locations', { attributes: attrs, 'filters-suspended': 'unset' });
  literature = await listAll(h, 'literature-items', { attributes: ['archived', 'location', 'name', 'ref'], 'filters-archived': 'unset' });
});

describe('location filters', () => {
  it('hides suspended locations unless asked (filters-suspended defaults to no)', async () => {
    const suspended = locations.filter((l) => l.suspended !== null);
    expect(suspended).toHaveLength(1);
    expect(ids(await listAll(h, 'locations'))).toEqual(ids(locations.filter((l) => l.suspended === null)));
    expect(ids(await listAll(h, 'locations', { 'filters-suspended': 'yes' }))).toEqual(ids(suspended));
    expect(await listAll(h, 'locations', { 'filters-suspended': 'unset' })).toHaveLength(locations.length);
  });

  it('filters by accepts_dementia and offers_respite', async () => {
    const dementia = await listAll(h, 'locations', { 'filters-accepts_dementia': 'yes', 'filters-suspended': 'unset' });
    expect(ids(dementia)).toEqual(ids(locations.filter((l) => l.accepts_dementia)));
    const noRespite = await listAll(h, 'locations', { 'filters-offers_respite': 'no', 'filters-suspended': 'unset' });
    expect(ids(noRespite)).toEqual(ids(locations.filter((l) => !l.offers_respite)));
  });

  it('filters by brand, groups and services (any of the listed values)', async () => {
    const brand = locations[0].brand;
    expect(ids(await listAll(h, 'locations', { 'filters-brand': brand, 'filters-suspended': 'unset' }))).toEqual(
      ids(locations.filter((l) => l.brand === brand)),
    );
    const group = locations.find((l) => l.groups.length === 2).groups[1];
    expect(ids(await listAll(h, 'locations', { 'filters-groups': group, 'filters-suspended': 'unset' }))).toEqual(
      ids(locations.filter((l) => l.groups.includes(group))),
    );
    const services = await listAll(h, 'locations', { 'filters-services': ['home_care', 'nursing_home'], 'filters-suspended': 'unset' });
    expect(ids(services)).toEqual(ids(locations.filter((l) => l.services.includes('home_care') || l.services.includes('nursing_home'))));
    expect(services).toHaveLength(2);
  });

  it('filters-q searches name and ref', async () => {
    expect((await listAll(h, 'locations', { 'filters-q': 'heather', attributes: ['name'] })).map((l) => l.name)).toEqual(['Heather Lodge Nursing Home']);
    expect((await listAll(h, 'locations', { 'filters-q': 'bhc', attributes: ['ref'] })).map((l) => l.ref)).toEqual(['BHC']);
  });

  it('refuses an unknown service and a bad tri-state', async () => {
    const r = await h.api('GET', 'locations', { 'filters-services': ['home_care', 'spa'], 'filters-suspended': 'sometimes' });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors['filters-services']).toEqual(['Not a valid choice: spa']);
    expect(r.json.arg_errors).toHaveProperty('filters-suspended');
  });
});

describe('literature item filters', () => {
  it('hides archived items unless asked (filters-archived defaults to no)', async () => {
    const archived = literature.filter((l) => l.archived);
    expect(archived.length).toBeGreaterThan(0);
    expect(ids(await listAll(h, 'literature-items'))).toEqual(ids(literature.filter((l) => !l.archived)));
    expect(ids(await listAll(h, 'literature-items', { 'filters-archived': 'yes' }))).toEqual(ids(archived));
  });

  it('filters-account: items at account level (no location) or not', async () => {
    const account = await listAll(h, 'literature-items', { 'filters-account': 'yes', 'filters-archived': 'unset' });
    expect(ids(account)).toEqual(ids(literature.filter((l) => l.location === null)));
    const local = await listAll(h, 'literature-items', { 'filters-account': 'no', 'filters-archived': 'unset' });
    expect(ids(local)).toEqual(ids(literature.filter((l) => l.location !== null)));
  });

  it('filters-location and filters-q over name and ref', async () => {
    const loc = literature.find((l) => l.location).location;
    expect(ids(await listAll(h, 'literature-items', { 'filters-location': loc }))).toEqual(ids(literature.filter((l) => l.location === loc && !l.archived)));
    const fees = await listAll(h, 'literature-items', { 'filters-q': 'FEES', 'filters-archived': 'unset', attributes: ['name'] });
    expect(fees.map((l) => l.name).sort()).toEqual(['Fees and funding guide', 'Fees guide 2022']);
    expect(await listAll(h, 'literature-items', { 'filters-q': 'lit-wb' })).toHaveLength(2);
  });
});

describe('notification group and user filters', () => {
  it('notification groups: filters-q over name and description', async () => {
    const byName = await listAll(h, 'notification-groups', { 'filters-q': 'MAINTENANCE', attributes: ['name'] });
    expect(byName.map((g) => g.name)).toEqual(['Maintenance']);
    const byDescription = await listAll(h, 'notification-groups', { 'filters-q': 'medication', attributes: ['name'] });
    expect(byDescription.map((g) => g.name)).toEqual(['Heather Lodge nurses']);
  });

  it('users: filters-q over first name, last name and email', async () => {
    const q = async (text: string) => (await listAll(h, 'users', { 'filters-q': text, attributes: ['email'] })).map((u) => u.email).sort();
    expect(await q("o'connor")).toEqual(['liam.oconnor@brightwatercare.example']);
    expect(await q('PRIYA')).toEqual(['priya.sharma@brightwatercare.example']);
    expect(await q('hannah.price@')).toEqual(['hannah.price@brightwatercare.example']);
    expect(await q('brightwatercare.example')).toHaveLength(20);
    expect(await q('nobody-by-that-name')).toEqual([]);
  });

  it('users: filters-ids and modified window', async () => {
    const users = await listAll(h, 'users', { attributes: ['modified'] });
    const two = users.slice(0, 2).map((u) => u._id);
    expect(ids(await listAll(h, 'users', { 'filters-ids': two }))).toEqual([...two].sort());
    const pivot = users.map((u) => u.modified).sort()[10];
    expect(ids(await listAll(h, 'users', { 'filters-modified_after': pivot }))).toEqual(ids(users.filter((u) => u.modified > pivot)));
  });
});
