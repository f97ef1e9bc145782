import { describe, expect, it } from 'vitest';
import { normaliseDueWords, readDuePhrase } from '../../src/time/due-phrases.js';
import { zonedToUtc } from '../../src/time/zones.js';

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';
const SYDNEY = 'Australia/Sydney';

/** [what the person typed, their zone, now (UTC), the task left, the due date and time they see ('' = no time)] */
type Row = [typed: string, tz: string, now: string, task: string, due: string | null];

// Tuesday 10 March 2026, 14:05 in London (GMT); 10:05 in New York (EDT since 8 March); 01:05 on the 11th in Sydney.
const TUE = '2026-03-10T14:05:00Z';

const TABLE: Row[] = [
  // The brief's phrases, in London.
  ['Call the GP tomorrow 3pm', LONDON, TUE, 'Call the GP', '2026-03-11 15:00'],
  ['Physio tues 9am', LONDON, TUE, 'Physio', '2026-03-17 09:00'], // 9am today has passed: next Tuesday
  ['Physio tues 4pm', LONDON, TUE, 'Physio', '2026-03-10 16:00'],
  // A room number before the phrase is the room's, not an hour ("12 today" is not read as 12 o'clock).
  ['Bed rail loose in room 12 today 6pm', LONDON, TUE, 'Bed rail loose in room 12', '2026-03-10 18:00'],
  ['Check room 12 tomorrow 9am', LONDON, TUE, 'Check room 12', '2026-03-11 09:00'],
  ['Dressing change 23/11 14:00', LONDON, TUE, 'Dressing change', '2026-11-23 14:00'], // day first
  ['Chase the prescription in 2 hours', LONDON, TUE, 'Chase the prescription', '2026-03-10 16:05'],
  ['Check on Mr Patel tonight', LONDON, TUE, 'Check on Mr Patel', '2026-03-10 20:00'],
  ['Order more pads tomorrow', LONDON, TUE, 'Order more pads', '2026-03-11 '],
  ['Review the care plan next Monday', LONDON, TUE, 'Review the care plan', '2026-03-16 '],
  ['Meds round 3pm', LONDON, TUE, 'Meds round', '2026-03-10 15:00'],
  ['Meds round 9am', LONDON, TUE, 'Meds round', '2026-03-11 09:00'], // past today: tomorrow
  ['weds 9am hearing test', LONDON, TUE, 'hearing test', '2026-03-11 09:00'],
  ['Bloods thurs 10:30', LONDON, TUE, 'Bloods', '2026-03-12 10:30'],
  ['Bloods tomorrow morning', LONDON, TUE, 'Bloods', '2026-03-11 09:00'],
  ['Family visit on sat', LONDON, TUE, 'Family visit', '2026-03-14 '],
  ['Podiatrist 23/11/2026 9am', LONDON, TUE, 'Podiatrist', '2026-11-23 09:00'],
  // Taken out cleanly wherever it stands.
  ['Call the GP tomorrow at 3pm about bloods', LONDON, TUE, 'Call the GP about bloods', '2026-03-11 15:00'],
  ['Book a taxi for tomorrow 3pm', LONDON, TUE, 'Book a taxi', '2026-03-11 15:00'],
  ['Ring the family, tomorrow 10am, about the visit', LONDON, TUE, 'Ring the family, about the visit', '2026-03-11 10:00'],
  ['Fire drill by 3pm', LONDON, TUE, 'Fire drill', '2026-03-10 15:00'],
  ['tomorrow 3pm', LONDON, TUE, '', '2026-03-11 15:00'],
  // Words that are not a date stay in the task.
  ['Call the GP about Mr Ahmed’s bloods', LONDON, TUE, 'Call the GP about Mr Ahmed’s bloods', null],
  ['Dr March to visit', LONDON, TUE, 'Dr March to visit', null],
  ['Give 1/2 dose', LONDON, TUE, 'Give 1/2 dose', null],
  ['Post for Flat 3/4', LONDON, TUE, 'Post for Flat 3/4', null],
  ['Sat with Mrs Jones', LONDON, TUE, 'Sat with Mrs Jones', null],
  ['Sun cream for the garden trip', LONDON, TUE, 'Sun cream for the garden trip', null],
  ['Give 2 tablets at 8', LONDON, TUE, 'Give 2 tablets at 8', null], // 8 am or 8 pm? The person says.
  ['Give 2 tablets 3 times a day', LONDON, TUE, 'Give 2 tablets 3 times a day', null],
  ['Rest for 10 mins after lunch', LONDON, TUE, 'Rest for 10 mins after lunch', null],
  ['Call the family now', LONDON, TUE, 'Call the family now', null],
  ['Night staff handover notes', LONDON, TUE, 'Night staff handover notes', null],
  ['Morning meds for Mrs Jones', LONDON, TUE, 'Morning meds for Mrs Jones', null],
  ['Ask about last night', LONDON, TUE, 'Ask about last night', null],
  ['Check the heating this evening', LONDON, TUE, 'Check the heating', '2026-03-10 18:00'],
  // Another zone: "tomorrow" is the person's tomorrow.
  ['Call the GP tomorrow 3pm', NEW_YORK, TUE, 'Call the GP', '2026-03-11 15:00'],
  ['Call the GP tomorrow 3pm', SYDNEY, TUE, 'Call the GP', '2026-03-12 15:00'], // already the 11th in Sydney
  ['Chase it in 2 hours', SYDNEY, TUE, 'Chase it', '2026-03-11 03:05'],
  ['Check on Mr Patel tonight', NEW_YORK, TUE, 'Check on Mr Patel', '2026-03-10 20:00'],
  // Across clock changes.
  ['Bloods tomorrow 9am', LONDON, '2026-03-28T12:00:00Z', 'Bloods', '2026-03-29 09:00'], // BST starts on the 29th at 01:00
  ['Check the alarm in 2 hours', LONDON, '2026-03-29T00:30:00Z', 'Check the alarm', '2026-03-29 03:30'], // 00:30 GMT + 2 h = 03:30 BST
  ['Night check tomorrow 1:30am', LONDON, '2026-03-28T12:00:00Z', 'Night check', '2026-03-29 02:30'], // 01:30 does not exist that night
  ['Check the alarm in 2 hours', LONDON, '2026-10-25T00:30:00Z', 'Check the alarm', '2026-10-25 02:30'], // 01:30 BST + 2 h = 02:30 GMT (the clocks went back an hour)
  ['Bloods tomorrow 9am', NEW_YORK, '2026-03-07T17:00:00Z', 'Bloods', '2026-03-08 09:00'], // EDT starts on the 8th
  ['Check the alarm in 2 hours', NEW_YORK, '2026-03-08T06:30:00Z', 'Check the alarm', '2026-03-08 04:30'], // 01:30 EST + 2 h = 04:30 EDT
  ['Bloods tomorrow 9am', SYDNEY, '2026-04-04T03:00:00Z', 'Bloods', '2026-04-05 09:00'], // AEDT ends on the 5th
];

describe('due phrases in a task', () => {
  it.each(TABLE)('%s (%s, now %s) -> "%s", due %s', (typed, tz, now, task, due) => {
    const read = readDuePhrase(typed, new Date(now), tz);
    expect(read.task).toBe(task);
    if (due === null) {
      expect(read.date).toBeUndefined();
      expect(read.time).toBeUndefined();
      expect(read.phrase).toBeUndefined();
    } else {
      const [date, time] = due.split(' ');
      expect(read.date).toBe(date);
      expect(read.time ?? '').toBe(time);
    }
  });

  it('names the real instants across the spring change', () => {
    const before = readDuePhrase('Bloods tomorrow 9am', new Date('2026-03-28T12:00:00Z'), LONDON);
    expect(zonedToUtc(before.date!, before.time!, LONDON).toISOString()).toBe('2026-03-29T08:00:00.000Z');
    const elapsed = readDuePhrase('in 2 hours', new Date('2026-03-29T00:30:00Z'), LONDON);
    expect(zonedToUtc(elapsed.date!, elapsed.time!, LONDON).toISOString()).toBe('2026-03-29T02:30:00.000Z');
  });

  it('keeps the words it read, as written', () => {
    expect(readDuePhrase('Call the GP Tues 4pm', new Date(TUE), LONDON).phrase).toBe('Tues 4pm');
  });

  it('spells "tues" and "weds" the way chrono knows, without moving the other words', () => {
    expect(normaliseDueWords('Physio tues 9am, weds and Weds.')).toBe('Physio tue. 9am, wed. and Wed..');
    expect(normaliseDueWords('Tuesday and Wednesday')).toBe('Tuesday and Wednesday');
  });
});

// Thursday 26 November 2026, 10:00 in London (GMT).
const NOV26 = '2026-11-26T10:00:00Z';

describe('a due time that has passed', () => {
  /** [typed, now (UTC), task left, due 'YYYY-MM-DD HH:MM' (or 'YYYY-MM-DD ' for a day alone), past] */
  const PAST: [typed: string, now: string, task: string, due: string, past: boolean][] = [
    // A day and month just gone is that day, shown as past, not moved a year on.
    ['Check fridge temps 24/11 14:00', NOV26, 'Check fridge temps', '2026-11-24 14:00', true],
    ['Check fridge on 24/11', NOV26, 'Check fridge', '2026-11-24 ', true],
    ['Check fridge 26/11 09:00', NOV26, 'Check fridge', '2026-11-26 09:00', true], // earlier today
    ['Bloods 30/12 9am', '2027-01-05T10:00:00Z', 'Bloods', '2026-12-30 09:00', true], // across the new year
    ['Check fridge temps 24/11 14:00', TUE, 'Check fridge temps', '2026-11-24 14:00', false], // months ahead: this year's
    ['Fridge temps 20/9 14:00', NOV26, 'Fridge temps', '2027-09-20 14:00', false], // over two months gone: next year's
    // Said as a past time: read, and past.
    ['yesterday 3pm', NOV26, '', '2026-11-25 15:00', true],
    ['Call the GP 3pm yesterday', NOV26, 'Call the GP', '2026-11-25 15:00', true],
    ['Dressing 24/11/2025 14:00', NOV26, 'Dressing', '2025-11-24 14:00', true],
    ['Meds check today 9am', NOV26, 'Meds check', '2026-11-26 09:00', true],
  ];

  it.each(PAST)('%s (now %s) -> "%s", due %s, past: %s', (typed, now, task, due, past) => {
    const read = readDuePhrase(typed, new Date(now), LONDON);
    const [date, time] = due.split(' ');
    expect(read.task).toBe(task);
    expect(read.date).toBe(date);
    expect(read.time ?? '').toBe(time);
    expect(read.past ?? false).toBe(past);
  });
});

describe('taking the words out tidies only where they were', () => {
  const TIDY: [typed: string, task: string][] = [
    ['Check :fire: doors tomorrow 10am', 'Check :fire: doors'],
    ['Rota : nights , weekends tomorrow 10am', 'Rota : nights , weekends'],
    ['Visit (tomorrow 3pm) Mr Patel', 'Visit Mr Patel'],
    ['Handover\ntomorrow 9am check bloods', 'Handover\ncheck bloods'],
    ['Call the GP tomorrow 3pm. Bring the notes', 'Call the GP. Bring the notes'],
    ['Fire drill: tomorrow 3pm', 'Fire drill'],
    ['- Order pads tomorrow 3pm', '- Order pads'],
    ['Ring the family,  tomorrow 10am, about the visit', 'Ring the family, about the visit'],
    ['Mr  Patel’s  meds , 8 am  tomorrow', 'Mr  Patel’s  meds'],
  ];
  it.each(TIDY)('%j -> %j', (typed, task) => {
    expect(readDuePhrase(typed, new Date(TUE), LONDON).task).toBe(task);
  });
});

describe('words that look like a date but were not read', () => {
  const UNREAD: [typed: string, now: string, unread: string[]][] = [
    ['Give 2 tablets at 8 tomorrow', TUE, ['at 8 tomorrow']], // 8 am or 8 pm?
    ['Check fridge 24/11', NOV26, ['24/11']], // a fraction, or a date? Left to the person.
    ['Call the GP tomorrow 3pm re appt on 24/12', TUE, ['24/12']], // the first is read, the second is not
    ['Follow up yesterday’s fall', NOV26, ['yesterday']],
    ['Ask about last night', TUE, ['last night']],
    ['Rest for 10 mins after lunch', TUE, ['10 mins after']],
    // Everyday words are not listed.
    ['Sat with Mrs Jones', TUE, []],
    ['Dr March to visit', TUE, []],
    ['Night staff handover notes', TUE, []],
    ['Call the family now', TUE, []],
    ['Give 2 tablets 3 times a day', TUE, []],
    ['Call the GP tomorrow 3pm', TUE, []],
  ];
  it.each(UNREAD)('%s (now %s) -> not read: %j', (typed, now, unread) => {
    const read = readDuePhrase(typed, new Date(now), LONDON);
    expect(read.unread ?? []).toEqual(unread);
    for (const words of unread) expect(read.task).toContain(words);
  });
});
