/**
 * The headline figures of an evidence export (pure): how many were completed on time (of those
 * completed), the median lateness of the late ones, and the counts by location.
 */
import type { EvidenceRow } from './evidence-rows.js';

export interface LocationCount {
  location: string;
  actions: number;
  completed: number;
  late: number;
  openOverdue: number;
}

export interface EvidenceFigures {
  actions: number;
  completed: number;
  onTime: number;
  late: number;
  openOverdue: number;
  /** Whole per cent of completed actions completed on time (rounded down, so 99.6% is not "100%"); null with none completed. */
  onTimePercent: number | null;
  /** Median minutes late of those completed late (the mean of the middle two for an even count, rounded up); null with none. */
  medianMinutesLate: number | null;
  /** By location, most actions first, then by name. */
  byLocation: LocationCount[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.ceil((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export function evidenceFigures(rows: readonly EvidenceRow[]): EvidenceFigures {
  const lateMinutes: number[] = [];
  let onTime = 0;
  let openOverdue = 0;
  const byLocation = new Map<string, LocationCount>();
  for (const r of rows) {
    const loc = byLocation.get(r.location) ?? { location: r.location, actions: 0, completed: 0, late: 0, openOverdue: 0 };
    byLocation.set(r.location, loc);
    loc.actions += 1;
    const t = r.timeliness;
    if (r.completed !== null) loc.completed += 1;
    if (t.kind === 'on-time') onTime += 1;
    if (t.kind === 'late') {
      lateMinutes.push(t.minutesLate);
      loc.late += 1;
    }
    if (t.kind === 'open-overdue') {
      openOverdue += 1;
      loc.openOverdue += 1;
    }
  }
  const completed = rows.filter((r) => r.completed !== null).length;
  return {
    actions: rows.length,
    completed,
    onTime,
    late: lateMinutes.length,
    openOverdue,
    onTimePercent: completed === 0 ? null : Math.floor((onTime * 100) / completed),
    medianMinutesLate: median(lateMinutes),
    byLocation: [...byLocation.values()].sort((a, b) => b.actions - a.actions || a.location.localeCompare(b.location)),
  };
}

/** "2 h 5 min", "45 min", "3 d 4 h": a duration in minutes as people read it. */
export function durationText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
}
