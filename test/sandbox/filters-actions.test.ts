import { beforeAll, describe, expect, it } from 'vitest';
import { listAll, TODAY, useSandbox } from './support.js';

const h = useSandbox({ seed: 'demo' });
const ATTRS = ['action_no', 'assigned_to', 'completed', 'due', 'modified', 'parent_subject', 'task', 'urgent'];
let all: any[] = [];

const ids = (items: any[]) => items.map((a) => a._id).sort();
const query = (params: Record<string, any>) => listAll(h, 'actions', { attributes: ATTRS, ...params });

beforeAll(async () => {
  all = await query({});
});

describe('action filters', () => {
  it('filters-completed: yes, no, unset (the default)', async () => {
    const done = all.filter((a) => a.completed !== null);
    expect(done.length).toBeGreaterThan(10);
    expect(ids(await query({ 'filters-completed': 'yes' }))).toEqual(ids(done));
    expect(ids(await query({ 'filters-completed': 'no' }))).toEqual(ids(all.filter((a) => a.completed === null)));
    expect(await query({ 'filters-completed': 'unset' })).toHaveLength(all.length);
  });

  it('filters-urgent: yes and no', async () => {
    const urgent = all.filter((a) => a.urgent);
    expect(urgent.length).toBeGreaterThan(5);
    expect(ids(await query({ 'filters-urgent': 'yes' }))).toEqual(ids(urgent));
    expect(ids(await query({ 'filters-urgent': 'no' }))).toEqual(ids(all.filter((a) => !a.urgent)));
  });

  it('filters-assigned_to: one or several users as repeated keys', async () => {
    const [u1, u2] = [...new Set(all.map((a) => a.assigned_to).filter(Boolean))] as string[];
    expect(ids(await query({ 'filters-assigned_to': u1 }))).toEqual(ids(all.filter((a) => a.assigned_to === u1)));
    const both = await query({ 'filters-assigned_to': [u1, u2] });
    expect(ids(both)).toEqual(ids(all.filter((a) => a.assigned_to === u1 || a.assigned_to === u2)));
  });

  it('filters-start_date and filters-end_date compare the UTC date of due, inclusive', async () => {
    const today = await query({ 'filters-start_date': TODAY, 'filters-end_date': TODAY });
    expect(today.length).toBeGreaterThan(20);
    expect(ids(today)).toEqual(ids(all.filter((a) => a.due.startsWith(TODAY))));
    expect(ids(await query({ 'filters-end_date': '2024-06-09' }))).toEqual(ids(all.filter((a) => a.due.slice(0, 10) <= '2024-06-09')));
    expect(ids(await query({ 'filters-start_date': '2024-06-11' }))).toEqual(ids(all.filter((a) => a.due.slice(0, 10) >= '2024-06-11')));
  });

  it('combines filters: open, due today or earlier, for one assignee', async () => {
    const user = all.find((a) => a.assigned_to)!.assigned_to;
    const got = await query({ 'filters-completed': 'no', 'filters-end_date': TODAY, 'filters-assigned_to': user });
    const expected = all.filter((a) => a.completed === null && a.due.slice(0, 10) <= TODAY && a.assigned_to === user);
    expect(ids(got)).toEqual(ids(expected));
  });

  it('filters-parent_subject: care enquiries and service users', async () => {
    const subjects = [...new Set(all.map((a) => a.parent_subject).filter(Boolean))].slice(0, 3) as string[];
    expect(ids(await query({ 'filters-parent_subject': subjects }))).toEqual(ids(all.filter((a) => subjects.includes(a.parent_subject))));
  });

  it('filters-q searches task and action_no, case-insensitively', async () => {
    const care = await query({ 'filters-q': 'CARE PLAN' });
    expect(care.length).toBeGreaterThan(0);
    expect(ids(care)).toEqual(ids(all.filter((a) => a.task.toLowerCase().includes('care plan') || a.action_no.includes('CARE PLAN'))));
    const byNo = await query({ 'filters-q': '123' });
    expect(byNo.map((a) => a.action_no)).toContain('123');
  });

  it('filters-ids and filters-modified_after/before', async () => {
    const some = all.slice(5, 9).map((a) => a._id);
    expect(ids(await query({ 'filters-ids': some }))).toEqual([...some].sort());
    const pivot = [...all].sort((a, b) => (a.modified < b.modified ? -1 : 1))[150].modified;
    expect(ids(await query({ 'filters-modified_after': pivot }))).toEqual(ids(all.filter((a) => a.modified > pivot)));
    expect(ids(await query({ 'filters-modified_before': pivot }))).toEqual(ids(all.filter((a) => a.modified < pivot)));
  });

  it('refuses invalid filter values with 400 and arg_errors for each', async () => {
    const r = await h.api('GET', 'actions', {
      'filters-completed': 'maybe',
      'filters-urgent': 'true',
      'filters-start_date': '2024-13-01',
      'filters-end_date': '10/06/2024',
      'filters-assigned_to': 'bob',
      'filters-parent_subject': '123',
      'filters-modified_after': '2024-06-01T00:00:00Z',
      'filters-ids': 'x',
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.arg_errors).sort()).toEqual(
      [
        'filters-assigned_to',
        'filters-completed',
        'filters-end_date',
        'filters-ids',
        'filters-modified_after',
        'filters-parent_subject',
        'filters-start_date',
        'filters-urgent',
      ].sort(),
    );
    expect(r.json.arg_errors['filters-completed']).toEqual(['Not a valid choice (yes, no, unset).']);
  });

  it('refuses a filter the resource does not have', async () => {
    const r = await h.api('GET', 'actions', { 'filters-archived': 'yes' });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors).toHaveProperty('filters-archived');
  });
});
