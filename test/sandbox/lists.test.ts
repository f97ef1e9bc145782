import { describe, expect, it } from 'vitest';
import { listAll, useSandbox } from './support.js';

const h = useSandbox({ seed: 'demo' });

describe('list paging', () => {
  it('returns ids only, 10 per page, page 1 by default, with counts for the page', async () => {
    const r = await h.api('GET', 'actions');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['item_count', 'items', 'page', 'page_count', 'per_page']);
    expect(r.json).toMatchObject({ item_count: 10, page: 1, per_page: 10, page_count: 30 });
    expect(r.json.items.every((i: object) => Object.keys(i).join() === '_id')).toBe(true);
  });

  it('gives the last page its real item_count and an empty page beyond the end', async () => {
    const last = await h.api('GET', 'actions', { per_page: 7, page: 43 });
    expect(last.json).toMatchObject({ item_count: 6, page: 43, page_count: 43, per_page: 7 });
    const beyond = await h.api('GET', 'actions', { per_page: 7, page: 44 });
    expect(beyond.status).toBe(200);
    expect(beyond.json).toMatchObject({ item_count: 0, items: [], page: 44, page_count: 43 });
  });

  it('walks every page exactly once', async () => {
    const all = await listAll(h, 'actions');
    expect(all).toHaveLength(300);
    expect(new Set(all.map((a) => a._id)).size).toBe(300);
    const ids = all.map((a) => a._id);
    expect(ids).toEqual([...ids].sort());
  });

  it('allows per_page up to 100 and refuses more, zero, or non-numbers with arg_errors', async () => {
    expect((await h.api('GET', 'actions', { per_page: 100 })).json.item_count).toBe(100);
    for (const bad of ['101', '0', 'ten', '-5', '2.5']) {
      const r = await h.api('GET', 'actions', { per_page: bad });
      expect(r.status).toBe(400);
      expect(r.json.arg_errors.per_page[0]).toMatch(/100/);
    }
    for (const bad of ['0', 'x']) {
      const r = await h.api('GET', 'actions', { page: bad });
      expect(r.status).toBe(400);
      expect(r.json.arg_errors).toHaveProperty('page');
    }
  });
});

describe('attributes', () => {
  it('returns the requested attributes (repeated keys) after _id', async () => {
    const r = await h.api('GET', 'actions', { attributes: ['task', 'due', 'reminders'], per_page: 3 });
    for (const item of r.json.items) expect(Object.keys(item)).toEqual(['_id', 'task', 'due', 'reminders']);
  });

  it('refuses an unknown attribute with 400 and arg_errors', async () => {
    const r = await h.api('GET', 'actions', { attributes: ['task', 'colour'] });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors.attributes).toEqual(['Not a valid attribute: colour']);
    expect((await h.api('GET', 'users', { attributes: ['password'] })).status).toBe(400);
  });

  it('returns null for a field with no value', async () => {
    const r = await h.api('GET', 'actions', { attributes: ['completed'], 'filters-completed': 'no', per_page: 1 });
    expect(r.json.items[0].completed).toBeNull();
  });
});

describe('sorting', () => {
  it('sorts by several keys with a leading minus for descending', async () => {
    const all = await listAll(h, 'actions', { attributes: ['urgent', 'due', 'completed', 'modified'] });
    const sorted = await listAll(h, 'actions', { attributes: ['urgent', 'due', 'completed', 'modified'], sort_by: ['completed', '-due'] });
    const expected = [...all].sort((a, b) => {
      const ca = a.completed ?? '';
      const cb = b.completed ?? '';
      if (ca !== cb) return ca < cb ? -1 : 1;
      if (a.due !== b.due) return a.due > b.due ? -1 : 1;
      return a._id < b._id ? -1 : 1;
    });
    expect(sorted.map((a) => a._id)).toEqual(expected.map((a) => a._id));
    expect(sorted[0].completed).toBeNull();
  });

  it('sorts each resource by its allowed fields', async () => {
    const byName = await listAll(h, 'locations', { attributes: ['name'], sort_by: '-name', 'filters-suspended': 'unset' });
    const names = byName.map((l) => l.name);
    expect(names).toEqual([...names].sort().reverse());
    const users = await listAll(h, 'users', { attributes: ['last_name'], sort_by: 'last_name' });
    expect(users.map((u) => u.last_name)).toEqual(users.map((u) => u.last_name).sort());
    const modified = await listAll(h, 'notification-groups', { attributes: ['modified'], sort_by: '-modified' });
    expect(modified.map((g) => g.modified)).toEqual(
      modified
        .map((g) => g.modified)
        .sort()
        .reverse(),
    );
  });

  it('refuses a field that cannot be sorted on with 400', async () => {
    const r = await h.api('GET', 'actions', { sort_by: ['due', 'task'] });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors.sort_by).toEqual(['Not a valid sort field: task']);
    expect((await h.api('GET', 'locations', { sort_by: 'due' })).status).toBe(400);
  });
});

describe('retrieve', () => {
  it('returns the full object of each resource', async () => {
    const expectations: Record<string, string[]> = {
      actions: [
        '_id',
        'action_no',
        'assessment',
        'assigned_to',
        'call',
        'care_enquiry',
        'comment',
        'completed',
        'created',
        'due',
        'home_visit',
        'location',
        'modified',
        'notify_on_complete',
        'parent_subject',
        'parent_subject_type',
        'pin_to_calendar',
        'reminders',
        'service_users',
        'subject_type',
        'tag',
        'task',
        'urgent',
        'user_tags',
      ],
      'notification-groups': ['_id', 'created', 'description', 'email_to', 'modified', 'name', 'users'],
      'literature-items': ['_id', 'archived', 'created', 'file', 'location', 'modified', 'name', 'ref'],
      users: ['_id', 'created', 'email', 'first_name', 'last_name', 'location_role', 'locations', 'mobile', 'modified'],
    };
    for (const [resource, fields] of Object.entries(expectations)) {
      const id = (await h.api('GET', resource, { per_page: 1 })).json.items[0]._id;
      const r = await h.api('GET', `${resource}/${id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.json).sort()).toEqual([...fields].sort());
      expect(r.json._id).toBe(id);
    }
  });

  it('returns locations with addresses, coordinates and services', async () => {
    const id = (await h.api('GET', 'locations', { per_page: 1 })).json.items[0]._id;
    const loc = (await h.api('GET', `locations/${id}`)).json;
    expect(Object.keys(loc.street_address).sort()).toEqual(['address_1', 'address_2', 'country', 'county', 'postcode', 'town']);
    expect(Object.keys(loc.invoicing_address).sort()).toEqual(['address_1', 'address_2', 'country', 'county', 'postcode', 'town']);
    expect(loc.lon_lat).toHaveLength(2);
    expect(loc.services.length).toBeGreaterThan(0);
    expect(Object.keys(loc)).toHaveLength(42);
  });

  it('uses 24-hex ids and UTC date/times on the wire', async () => {
    const r = await h.api('GET', 'actions', { attributes: ['created', 'modified', 'due'], per_page: 20 });
    for (const a of r.json.items) {
      expect(a._id).toMatch(/^[0-9a-f]{24}$/);
      for (const t of [a.created, a.modified, a.due]) expect(t).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(parseInt(a._id.slice(0, 8), 16)).toBe(Date.parse(`${a.created.replace(' ', 'T')}Z`) / 1000);
    }
  });
});
