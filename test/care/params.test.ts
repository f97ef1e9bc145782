import { describe, expect, it } from 'vitest';
import { canonicalParams } from '../../src/care/signing.js';
import { encodeParams, flattenFilters, flattenListParams, formatDate, formatDateTime } from '../../src/care/params.js';
import { flattenActionInput, flattenReminders } from '../../src/care/resources/action-input.js';

describe('dates and date/times', () => {
  it('sends a Date as a UTC date/time, whatever the local time zone', () => {
    expect(formatDateTime(new Date('2026-03-29T01:30:05+01:00'))).toBe('2026-03-29 00:30:05');
  });

  it('keeps a string already in API format and refuses ISO strings or invalid dates', () => {
    expect(formatDateTime('2026-11-21 09:00:00')).toBe('2026-11-21 09:00:00');
    expect(() => formatDateTime('2026-11-21T09:00:00Z')).toThrow(RangeError);
    expect(() => formatDateTime(new Date('nope'))).toThrow(/invalid Date/);
  });

  it('sends a Date filter as its UTC day and keeps YYYY-MM-DD strings', () => {
    expect(formatDate(new Date('2026-11-21T23:30:00-02:00'))).toBe('2026-11-22');
    expect(formatDate('2026-11-21')).toBe('2026-11-21');
    expect(() => formatDate('21/11/2026')).toThrow(RangeError);
  });
});

describe('list parameters', () => {
  it('flattens filters to filters-<name> keys, lists stay lists, dates formatted by kind', () => {
    expect(
      flattenFilters({
        completed: 'yes',
        start_date: new Date('2026-11-21T10:00:00Z'),
        end_date: '2026-11-30',
        assigned_to: ['a1', 'b2'],
        modified_after: new Date('2026-11-20T08:15:00Z'),
        q: 'tea & toast',
        urgent: undefined,
      }),
    ).toEqual({
      'filters-completed': 'yes',
      'filters-start_date': '2026-11-21',
      'filters-end_date': '2026-11-30',
      'filters-assigned_to': ['a1', 'b2'],
      'filters-modified_after': '2026-11-20 08:15:00',
      'filters-q': 'tea & toast',
    });
  });

  it('sends nothing for what is not given, so the API defaults apply', () => {
    expect(flattenListParams({})).toEqual({});
    expect(flattenListParams({ attributes: [], filters: { ids: [] } })).toEqual({});
  });

  it('sends attributes and sort_by as lists and page numbers as strings', () => {
    expect(flattenListParams({ attributes: ['_id', 'due'], page: 2, per_page: 100, sort_by: '-due' })).toEqual({
      attributes: ['_id', 'due'],
      page: '2',
      per_page: '100',
      sort_by: ['-due'],
    });
    expect(() => flattenListParams({ per_page: 0 })).toThrow(RangeError);
  });

  it('encodes lists as repeated keys, with no [] suffix and no commas', () => {
    const wire = flattenListParams({ attributes: ['_id', 'name'], filters: { ids: ['x', 'y'], q: 'a b' } });
    expect(encodeParams(wire)).toBe('attributes=_id&attributes=name&filters-ids=x&filters-ids=y&filters-q=a+b');
    expect(new URLSearchParams(encodeParams(wire)).getAll('filters-ids')).toEqual(['x', 'y']);
  });
});

describe('action input', () => {
  const due = new Date('2026-11-21T09:30:00Z');

  it('flattens reminders to reminders_<i>-<field> keys', () => {
    expect(
      flattenReminders([
        { method: 'email', offset_type: 'delta', offset_delta: 15 },
        { method: 'sms_or_whatsapp', offset_type: 'time', offset_time_str: '08:00' },
      ]),
    ).toEqual({
      'reminders_0-method': 'email',
      'reminders_0-offset_type': 'delta',
      'reminders_0-offset_delta': '15',
      'reminders_1-method': 'sms_or_whatsapp',
      'reminders_1-offset_type': 'time',
      'reminders_1-offset_time_str': '08:00',
    });
  });

  it('refuses a third reminder, an offset the API does not allow, or a malformed time', () => {
    const r = { method: 'email' } as const;
    expect(() => flattenReminders([r, r, r])).toThrow(/at most 2/);
    expect(() => flattenReminders([{ method: 'email', offset_delta: 7 as 5 }])).toThrow(/offset_delta/);
    expect(() => flattenReminders([{ method: 'voice', offset_time_str: '8:00' }])).toThrow(/HH:MM/);
  });

  it('sends urgent=true only when true, and leaves false out entirely', () => {
    expect(flattenActionInput({ due, task: 'Call', urgent: true }, 'create')).toMatchObject({ urgent: 'true' });
    expect(flattenActionInput({ due, task: 'Call', urgent: false }, 'create')).not.toHaveProperty('urgent');
  });

  it('sends due as UTC, lists as lists, and drops nulls and empty lists', () => {
    expect(
      flattenActionInput(
        { due, task: 'Call back', assigned_to: null, care_enquiry: 'ce1', notify_on_complete: ['g1', 'g2'], user_tags: [], pin_to_calendar: 'user' },
        'create',
      ),
    ).toEqual({ due: '2026-11-21 09:30:00', task: 'Call back', care_enquiry: 'ce1', notify_on_complete: ['g1', 'g2'], pin_to_calendar: 'user' });
  });

  it('never sends care_enquiry or service_user on update', () => {
    const input = { due, task: 'x', care_enquiry: 'ce1', service_user: 'su1' };
    expect(flattenActionInput(input, 'update')).toEqual({ due: '2026-11-21 09:30:00', task: 'x' });
  });

  it('produces parameters the signer canonicalises in key then value order', () => {
    const wire = flattenActionInput({ due, task: 't', notify_on_complete: ['b', 'a'], reminders: [{ method: 'email' }] }, 'create');
    expect(canonicalParams(wire)).toBe('due=2026-11-21 09:30:00\nnotify_on_complete=a\nnotify_on_complete=b\nreminders_0-method=email\ntask=t');
  });
});
