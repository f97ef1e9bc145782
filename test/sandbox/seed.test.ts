import { describe, expect, it } from 'vitest';
import { DEMO_USERS, startSandbox } from '../../dev/sandbox/index.js';
import { rawClient } from '../helpers/raw-signer.js';
import { listAll, START, TODAY, useSandbox } from './support.js';

const demo = useSandbox({ seed: 'demo', seedValue: 7 });
const same = useSandbox({ seed: 'demo', seedValue: 7 });
const other = useSandbox({ seed: 'demo', seedValue: 8 });

const FULL = [
  'action_no',
  'assigned_to',
  'completed',
  'created',
  'due',
  'location',
  'modified',
  'notify_on_complete',
  'parent_subject',
  'reminders',
  'task',
  'urgent',
];

describe('seed data', () => {
  it('is identical for the same seed value and start time, and differs for another value', async () => {
    const a = await listAll(demo, 'actions', { attributes: FULL });
    const b = await listAll(same, 'actions', { attributes: FULL });
    const c = await listAll(other, 'actions', { attributes: FULL });
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(await listAll(same, 'users', { attributes: ['email', 'created'] })).toEqual(await listAll(demo, 'users', { attributes: ['email', 'created'] }));
  });

  it('has the 20 exported demo people as users, with emails, roles and locations', async () => {
    const users = await listAll(demo, 'users', { attributes: ['email', 'first_name', 'last_name', 'locations', 'location_role', 'mobile'] });
    expect(users).toHaveLength(20);
    expect(DEMO_USERS).toHaveLength(20);
    const byEmail = new Map(users.map((u) => [u.email, u]));
    for (const p of DEMO_USERS) {
      expect(byEmail.get(p.email)).toMatchObject({ first_name: p.first_name, last_name: p.last_name });
      expect(byEmail.get(p.email).locations.length).toBeGreaterThan(0);
    }
  });

  it('has care homes, a home-care office, groups and literature', async () => {
    const locations = await listAll(demo, 'locations', { attributes: ['name', 'services'], 'filters-suspended': 'unset' });
    expect(locations.filter((l) => l.services.includes('home_care'))).toHaveLength(1);
    expect(locations.filter((l) => l.services.includes('residential_home') || l.services.includes('nursing_home')).length).toBeGreaterThanOrEqual(3);
    const emails = new Set(DEMO_USERS.map((u) => u.email));
    const groups = await listAll(demo, 'notification-groups', { attributes: ['email_to', 'users'] });
    const addresses = groups.flatMap((g) => g.email_to);
    expect(addresses.some((e) => emails.has(e))).toBe(true);
    expect(addresses.some((e) => !emails.has(e))).toBe(true);
    expect(groups.some((g) => g.users.length > 0)).toBe(true);
    const literature = await listAll(demo, 'literature-items', { attributes: ['archived', 'location'], 'filters-archived': 'unset' });
    expect(literature.some((l) => l.archived)).toBe(true);
    expect(literature.some((l) => l.location !== null)).toBe(true);
    expect(literature.some((l) => l.location === null)).toBe(true);
  });

  it('spreads a few hundred actions over overdue, today and upcoming, with the variety a demo needs', async () => {
    const actions = await listAll(demo, 'actions', { attributes: FULL });
    expect(actions).toHaveLength(300);
    const open = actions.filter((a) => a.completed === null);
    const now = START.toISOString().slice(0, 19).replace('T', ' ');
    expect(open.filter((a) => a.due < now && !a.due.startsWith(TODAY)).length).toBeGreaterThan(30);
    expect(open.filter((a) => a.due.startsWith(TODAY)).length).toBeGreaterThan(20);
    expect(open.filter((a) => a.due.slice(0, 10) > TODAY).length).toBeGreaterThan(50);
    expect(actions.filter((a) => a.completed !== null).length).toBeGreaterThan(20);
    expect(actions.filter((a) => a.urgent).length).toBeGreaterThan(10);
    expect(actions.filter((a) => a.reminders.length === 2).length).toBeGreaterThan(0);
    expect(actions.filter((a) => a.notify_on_complete.length > 0).length).toBeGreaterThan(10);
    for (const a of actions) {
      expect(a.created <= a.modified).toBe(true);
      expect(a.modified <= now).toBe(true);
      if (a.completed) expect(a.completed <= now).toBe(true);
    }
    expect(actions.map((a) => Number(a.action_no)).sort((x, y) => x - y)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('makes n actions for a numeric seed', async () => {
    const s = await startSandbox({ seed: 1234, rateLimit: 0 });
    try {
      const r = await rawClient(s.url, s.credentials)('GET', 'actions', { per_page: 100 });
      expect(r.json.page_count).toBe(13);
      expect(s.credentials).toEqual({ accountId: 'sandbox-account', apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
    } finally {
      await s.stop();
    }
  });
});
