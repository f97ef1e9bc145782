/**
 * `/care shifts`: everyone sees the care home's shifts and which is on now;
 * admins set them (or go back to the default). Every change is in the audit log
 * (`shifts.set`: the shifts before and after, no care data).
 */
import type { WorkspaceStore } from '../../store/index.js';
import { currentShift, DEFAULT_SHIFTS, describeShifts, nextShiftChange, type Shift, type ShiftOccurrence } from '../../time/shifts.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { saveShifts, shiftsOf } from './shift-settings.js';

/** The shifts and where the home is in them now. */
export interface ShiftsNow {
  shifts: readonly Shift[];
  /** True while the home has not set its own (Day 07:00–19:00, Night 19:00–07:00). */
  isDefault: boolean;
  /** The home's zone: the shifts' times are its wall clock. */
  timezone: string;
  current: ShiftOccurrence;
  next: ShiftOccurrence;
}

export interface HomeShifts {
  /** Anyone: the shifts, the one on now and the next change. */
  now(): Promise<ShiftsNow>;
  /** Admins: set the shifts (already read by parseShifts), or null for the default. */
  set(admin: Actor, shifts: readonly Shift[] | null): Promise<ShiftsNow>;
}

const sameShifts = (a: readonly Shift[], b: readonly Shift[]) => describeShifts(a) === describeShifts(b);

export function createHomeShifts(deps: {
  store: Pick<WorkspaceStore, 'getHomeSetting' | 'setHomeSetting' | 'appendAudit'>;
  identity: Pick<IdentityService, 'isAdmin' | 'adminIds'>;
  /** The workspace's zone. */
  timezone: string;
  now: () => Date;
}): HomeShifts {
  const { store } = deps;

  const view = (shifts: readonly Shift[]): ShiftsNow => {
    const now = deps.now();
    return {
      shifts,
      isDefault: sameShifts(shifts, DEFAULT_SHIFTS),
      timezone: deps.timezone,
      current: currentShift(shifts, now, deps.timezone),
      next: nextShiftChange(shifts, now, deps.timezone),
    };
  };

  return {
    async now() {
      return view(await shiftsOf(store));
    },

    async set(admin, shifts) {
      if (!(await deps.identity.isAdmin(admin))) {
        const named = deps.identity.adminIds().map((id) => `<@${id}>`);
        const who = named.length ? `${named.join(', ')} and the Slack workspace's admins and owners` : "the Slack workspace's admins and owners";
        throw new UserFacingError(`Only Care Actions admins can change the shifts: ${who}. \`/care shifts\` alone shows them.`, 'not-admin');
      }
      const before = await shiftsOf(store);
      await saveShifts(store, shifts, admin.userId);
      const after = shifts ?? DEFAULT_SHIFTS;
      await store.appendAudit({
        userId: admin.userId,
        verb: 'shifts.set',
        details: { before: describeShifts(before), after: describeShifts(after), ...(shifts === null ? { default: true } : {}) },
      });
      return view(after);
    },
  };
}
