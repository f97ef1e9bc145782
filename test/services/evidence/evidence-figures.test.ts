import { describe, expect, it } from 'vitest';
import { durationText, evidenceFigures, median } from '../../../src/services/evidence/evidence-figures.js';
import type { EvidenceRow, Timeliness } from '../../../src/services/evidence/evidence-rows.js';

const row = (location: string, timeliness: Timeliness): EvidenceRow => ({
  number: '1',
  location,
  created: 0,
  firstDue: 0,
  due: 0,
  reschedules: 0,
  assignedTo: '',
  urgent: false,
  completed: timeliness.kind === 'on-time' || timeliness.kind === 'late' ? 1 : null,
  completedBy: '',
  through: null,
  timeliness,
  task: null,
});

describe('headline figures', () => {
  it('gives on-time % of the completed, the median lateness of the late ones and counts by location', () => {
    const f = evidenceFigures([
      row('Willow', { kind: 'on-time' }),
      row('Willow', { kind: 'late', minutesLate: 60 }),
      row('Willow', { kind: 'late', minutesLate: 10 }),
      row('Heather', { kind: 'on-time' }),
      row('Heather', { kind: 'late', minutesLate: 25 }),
      row('Heather', { kind: 'open-overdue', minutesOverdue: 5 }),
      row('Beeches', { kind: 'open' }),
    ]);
    expect(f).toMatchObject({ actions: 7, completed: 5, onTime: 2, late: 3, openOverdue: 1, onTimePercent: 40, medianMinutesLate: 25 });
    expect(f.byLocation).toEqual([
      { location: 'Heather', actions: 3, completed: 2, late: 1, openOverdue: 1 },
      { location: 'Willow', actions: 3, completed: 3, late: 2, openOverdue: 0 },
      { location: 'Beeches', actions: 1, completed: 0, late: 0, openOverdue: 0 },
    ]);
  });

  it('rounds on-time % down (199 of 200 is 99%, not 100%) and says null with nothing to judge', () => {
    const rows = [...Array.from({ length: 199 }, () => row('W', { kind: 'on-time' })), row('W', { kind: 'late', minutesLate: 1 })];
    expect(evidenceFigures(rows).onTimePercent).toBe(99);
    expect(evidenceFigures([row('W', { kind: 'open' })])).toMatchObject({ onTimePercent: null, medianMinutesLate: null });
  });

  it('takes the middle value, or the mean of the middle two rounded up', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([1, 2, 3, 10])).toBe(3);
    expect(median([])).toBeNull();
  });

  it('writes durations as people read them', () => {
    expect([durationText(45), durationText(60), durationText(125), durationText(1440), durationText(1500 + 240)]).toEqual([
      '45 min',
      '1 h',
      '2 h 5 min',
      '1 d',
      '1 d 5 h',
    ]);
  });
});
