import { describe, expect, it } from 'vitest';
import { listAll, useSandbox } from './support.js';

const h = useSandbox({ seed: 'demo' });

async function someIds() {
  const users = await listAll(h, 'users', { attributes: ['email'] });
  const groups = await listAll(h, 'notification-groups');
  const withSubject = (await h.api('GET', 'actions', { attributes: ['parent_subject', 'parent_subject_type', 'location'], per_page: 100 })).json.items;
  const enquiry = withSubject.find((a: any) => a.parent_subject_type === 'care_enquiry');
  const serviceUser = withSubject.find((a: any) => a.parent_subject_type === 'service_user');
  return { users, groups, enquiry, serviceUser };
}

const clock = async () => (await h.control('GET', 'clock')).json.wire as string;
const advance = (ms: number) => h.control('POST', 'clock', { advanceMs: ms });

describe('create (PUT /v1/actions)', () => {
  it('creates an action with every field and returns the full object', async () => {
    const { users, groups } = await someIds();
    const tag = '6724fbc74f73a2cebf637806';
    const r = await h.api('PUT', 'actions', {
      due: '2024-06-12 14:30:00',
      task: 'Call the GP about repeat prescriptions',
      assigned_to: users[3]._id,
      notify_on_complete: [groups[0]._id, groups[1]._id],
      pin_to_calendar: 'user',
      urgent: 'true',
      user_tags: tag,
      'reminders_0-method': 'email',
      'reminders_0-offset_type': 'delta',
      'reminders_0-offset_delta': '30',
      'reminders_1-method': 'sms_or_whatsapp',
      'reminders_1-offset_type': 'time',
      'reminders_1-offset_time_str': '08:15',
    });
    expect(r.status).toBe(200);
    const a = r.json;
    const now = await clock();
    expect(a).toMatchObject({
      due: '2024-06-12 14:30:00',
      task: 'Call the GP about repeat prescriptions',
      assigned_to: users[3]._id,
      notify_on_complete: [groups[0]._id, groups[1]._id],
      pin_to_calendar: 'user',
      urgent: true,
      user_tags: [tag],
      completed: null,
      tag: null,
      reminders: [
        { method: 'email', offset_type: 'delta', offset_delta: 30 },
        { method: 'sms_or_whatsapp', offset_type: 'time', offset_delta: null, offset_time_str: '08:15' },
      ],
    });
    expect(a._id).toMatch(/^[0-9a-f]{24}$/);
    expect(a.created).toBe(a.modified);
    expect(a.created <= now).toBe(true);
    expect(parseInt(a._id.slice(0, 8), 16)).toBe(Date.parse(`${a.created.replace(' ', 'T')}Z`) / 1000);
    expect((await h.api('GET', `actions/${a._id}`)).json).toEqual(a);
  });

  it('stamps created with the virtual clock and numbers actions uniquely and increasingly', async () => {
    await h.control('POST', 'clock', { set: '2030-01-02T03:04:05Z' });
    const one = (await h.api('PUT', 'actions', { due: '2030-01-03 09:00:00', task: 'First' })).json;
    const two = (await h.api('PUT', 'actions', { due: '2030-01-03 09:00:00', task: 'Second' })).json;
    expect(one.created.startsWith('2030-01-02 03:04')).toBe(true);
    expect(Number(two.action_no)).toBe(Number(one.action_no) + 1);
    expect(Number(one.action_no)).toBeGreaterThan(300);
    expect(two._id > one._id).toBe(true);
    await h.control('POST', 'clock', { set: '2024-06-10T09:30:00Z' });
  });

  it('treats a boolean as true when the key is present with any value', async () => {
    const r = await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Flag', urgent: 'false' });
    expect(r.json.urgent).toBe(true);
    expect((await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'No flag' })).json.urgent).toBe(false);
  });

  it('links a care enquiry or a service user as the subject and takes its location', async () => {
    const { enquiry, serviceUser } = await someIds();
    const e = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Enquiry', care_enquiry: enquiry.parent_subject })).json;
    expect(e).toMatchObject({
      subject_type: 'care_enquiry',
      care_enquiry: enquiry.parent_subject,
      parent_subject: enquiry.parent_subject,
      parent_subject_type: 'care_enquiry',
    });
    expect(e.location).toMatch(/^[0-9a-f]{24}$/);
    const s = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'SU', service_user: serviceUser.parent_subject })).json;
    expect(s).toMatchObject({ subject_type: 'service_user', service_users: serviceUser.parent_subject, parent_subject_type: 'service_user' });
    const both = await h.api('PUT', 'actions', {
      due: '2024-06-12 09:00:00',
      task: 'x',
      care_enquiry: enquiry.parent_subject,
      service_user: serviceUser.parent_subject,
    });
    expect(both.status).toBe(400);
  });

  it('requires due and task', async () => {
    const r = await h.api('PUT', 'actions', { urgent: 'true' });
    expect(r.status).toBe(400);
    expect(r.json.arg_errors).toEqual({ due: ['This field is required.'], task: ['This field is required.'] });
    expect(r.json.hint).toMatch(/due, task/);
    expect((await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: '   ' })).json.arg_errors).toEqual({ task: ['This field is required.'] });
  });

  const invalid: [string, Record<string, string | string[]>, string, string][] = [
    ['an ISO due', { due: '2024-06-12T09:00:00Z' }, 'due', 'Not a valid date/time (YYYY-MM-DD HH:MM:SS, UTC).'],
    ['an impossible due', { due: '2024-02-30 09:00:00' }, 'due', 'Not a valid date/time (YYYY-MM-DD HH:MM:SS, UTC).'],
    ['a malformed assignee', { assigned_to: 'amelia' }, 'assigned_to', 'Not a valid Id.'],
    ['an unknown assignee', { assigned_to: '000000000000000000000001' }, 'assigned_to', 'No user with this Id.'],
    [
      'an unknown notification group',
      { notify_on_complete: '000000000000000000000002' },
      'notify_on_complete',
      'No notification group with Id 000000000000000000000002.',
    ],
    ['a bad pin_to_calendar', { pin_to_calendar: 'team' }, 'pin_to_calendar', 'Not a valid choice (location, user).'],
    ['a bad reminder method', { 'reminders_0-method': 'pigeon' }, 'reminders_0-method', 'Not a valid choice (email, sms_or_whatsapp, voice, user_pref).'],
    ['a reminder without method', { 'reminders_1-offset_type': 'none' }, 'reminders_1-method', 'This field is required.'],
    [
      'a bad offset type',
      { 'reminders_0-method': 'email', 'reminders_0-offset_type': 'later' },
      'reminders_0-offset_type',
      'Not a valid choice (none, delta, time).',
    ],
    [
      'an offset_delta of 20',
      { 'reminders_0-method': 'email', 'reminders_0-offset_type': 'delta', 'reminders_0-offset_delta': '20' },
      'reminders_0-offset_delta',
      'Not a valid choice (5, 10, 15, 30, 45, 60).',
    ],
    [
      'a delta without offset_delta',
      { 'reminders_0-method': 'voice', 'reminders_0-offset_type': 'delta' },
      'reminders_0-offset_delta',
      'This field is required.',
    ],
    [
      'a time of 25:00',
      { 'reminders_0-method': 'email', 'reminders_0-offset_type': 'time', 'reminders_0-offset_time_str': '25:00' },
      'reminders_0-offset_time_str',
      'Not a valid time (HH:MM).',
    ],
    [
      'a time of 9:5',
      { 'reminders_0-method': 'email', 'reminders_0-offset_type': 'time', 'reminders_0-offset_time_str': '9:5' },
      'reminders_0-offset_time_str',
      'Not a valid time (HH:MM).',
    ],
    ['a third reminder', { 'reminders_2-method': 'email' }, 'reminders', 'At most 2 reminders may be set (reminders_0 and reminders_1).'],
    ['a malformed user tag', { user_tags: 'urgent-ish' }, 'user_tags', 'Not a valid Id: urgent-ish'],
  ];
  for (const [what, params, field, message] of invalid) {
    it(`refuses ${what} with 400 and arg_errors.${field}`, async () => {
      const r = await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Validate', ...params });
      expect(r.status).toBe(400);
      expect(r.json.arg_errors[field]).toEqual([message]);
    });
  }

  it('accepts every allowed reminder value', async () => {
    for (const delta of [5, 10, 15, 30, 45, 60]) {
      for (const method of ['email', 'sms_or_whatsapp', 'voice', 'user_pref']) {
        const r = await h.api('PUT', 'actions', {
          due: '2024-06-12 09:00:00',
          task: 'R',
          'reminders_0-method': method,
          'reminders_0-offset_type': 'delta',
          'reminders_0-offset_delta': delta,
        });
        expect(r.status).toBe(200);
      }
    }
    const none = await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'R', 'reminders_0-method': 'voice' });
    expect(none.json.reminders).toEqual([{ method: 'voice', offset_type: 'none', offset_delta: null }]);
  });
});

describe('update (PATCH /v1/actions/<id>)', () => {
  it('replaces the editable fields, clears omitted optional ones and bumps modified', async () => {
    const { users, groups } = await someIds();
    const created = (
      await h.api('PUT', 'actions', {
        due: '2024-06-12 09:00:00',
        task: 'Before',
        assigned_to: users[0]._id,
        urgent: 'y',
        notify_on_complete: groups[0]._id,
        pin_to_calendar: 'location',
        'reminders_0-method': 'email',
      })
    ).json;
    await advance(61_000);
    const r = await h.api('PATCH', `actions/${created._id}`, { due: '2024-06-13 10:00:00', task: 'After', assigned_to: users[1]._id });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      _id: created._id,
      action_no: created.action_no,
      created: created.created,
      due: '2024-06-13 10:00:00',
      task: 'After',
      assigned_to: users[1]._id,
      urgent: false,
      notify_on_complete: [],
      pin_to_calendar: null,
      reminders: [],
      user_tags: [],
    });
    expect(r.json.modified > created.modified).toBe(true);
    expect((await h.api('GET', `actions/${created._id}`)).json).toEqual(r.json);
  });

  it('requires due and task on update too, and keeps the action unchanged when refused', async () => {
    const created = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Keep' })).json;
    const r = await h.api('PATCH', `actions/${created._id}`, { urgent: 'true' });
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.arg_errors).sort()).toEqual(['due', 'task']);
    expect((await h.api('GET', `actions/${created._id}`)).json).toEqual(created);
  });

  it('answers 404 for an unknown action', async () => {
    const r = await h.api('PATCH', 'actions/0000000000000000000000aa', { due: '2024-06-12 09:00:00', task: 'x' });
    expect(r.status).toBe(404);
  });
});

describe('lists after writes', () => {
  it('answers the same list query with fresh data after every kind of write', async () => {
    const params = { 'filters-q': 'fresh-data-check', attributes: ['task', 'urgent', 'completed'] };
    expect((await h.api('GET', 'actions', params)).json.items).toEqual([]);
    const made = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'fresh-data-check' })).json;
    expect((await h.api('GET', 'actions', params)).json.items).toEqual([{ _id: made._id, task: 'fresh-data-check', urgent: false, completed: null }]);
    await h.api('PATCH', `actions/${made._id}`, { due: '2024-06-12 09:00:00', task: 'fresh-data-check', urgent: '1' });
    expect((await h.api('GET', 'actions', params)).json.items[0].urgent).toBe(true);
    await h.control('POST', `actions/${made._id}/complete`);
    expect((await h.api('GET', 'actions', params)).json.items[0].completed).not.toBeNull();
  });
});

describe('complete and reopen', () => {
  it('completes with the virtual time, then reopens, bumping modified each time', async () => {
    const created = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Cycle' })).json;
    await advance(120_000);
    const done = await h.api('PATCH', `actions/${created._id}/complete`);
    expect(done.status).toBe(200);
    expect(done.json.completed).toBe(done.json.modified);
    expect(done.json.completed > created.modified).toBe(true);
    await advance(120_000);
    const reopened = await h.api('PATCH', `actions/${created._id}/reopen`);
    expect(reopened.json.completed).toBeNull();
    expect(reopened.json.modified > done.json.modified).toBe(true);
  });

  it('is idempotent: completing a complete action or reopening an open one changes nothing', async () => {
    const created = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Twice' })).json;
    const reopenOpen = await h.api('PATCH', `actions/${created._id}/reopen`);
    expect(reopenOpen.status).toBe(200);
    expect(reopenOpen.json).toEqual(created);
    const first = (await h.api('PATCH', `actions/${created._id}/complete`)).json;
    await advance(60_000);
    const second = await h.api('PATCH', `actions/${created._id}/complete`);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first);
  });

  it('shows a completion made through the API to a poller of filters-completed and modified_after', async () => {
    const created = (await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'Polled' })).json;
    const since = created.modified;
    await advance(5_000);
    await h.api('PATCH', `actions/${created._id}/complete`);
    const seen = await listAll(h, 'actions', { 'filters-completed': 'yes', 'filters-modified_after': since });
    expect(seen.map((a) => a._id)).toContain(created._id);
  });
});
