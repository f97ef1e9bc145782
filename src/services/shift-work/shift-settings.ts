/**
 * A care home's shifts, as its admins set them (`/care shifts`), kept in the
 * home's settings under `shifts` (a JSON list); the default (Day 07:00–19:00,
 * Night 19:00–07:00, every day) until they do. A stored value that no longer
 * reads as shifts counts as the default.
 */
import type { WorkspaceStore } from '../../store/index.js';
import { DEFAULT_SHIFTS, parseShifts, describeShifts, type Shift } from '../../time/shifts.js';

export const SHIFTS_SETTING = 'shifts';

export async function shiftsOf(store: Pick<WorkspaceStore, 'getHomeSetting'>): Promise<readonly Shift[]> {
  const row = await store.getHomeSetting(SHIFTS_SETTING);
  if (!row) return DEFAULT_SHIFTS;
  try {
    const value = JSON.parse(row.value) as Shift[];
    const reread = Array.isArray(value) ? parseShifts(describeShifts(value).replaceAll('–', '-')) : null;
    return reread && 'shifts' in reread ? reread.shifts : DEFAULT_SHIFTS;
  } catch {
    return DEFAULT_SHIFTS;
  }
}

/** Keep `shifts` (already read by parseShifts); null goes back to the default. */
export async function saveShifts(store: Pick<WorkspaceStore, 'setHomeSetting'>, shifts: readonly Shift[] | null, by: string): Promise<void> {
  await store.setHomeSetting(SHIFTS_SETTING, shifts === null ? null : JSON.stringify(shifts), by);
}
