/**
 * Two-person work (issue 33): `/care settings two-staff [<tag ids>|off]` (admins: the care system's action
 * tags, `user_tags` Ids, that mean an action needs two staff; none: show them) and `/care two-staff <no> on|off`
 * (mark one action in the app as needing two staff, as the form's More options would). Pure.
 */
import type { ActionRef } from '../../services/action-model.js';

export type TwoStaffCommand = { kind: 'two-staff-tags'; tags: string[] | null | undefined } | { kind: 'two-staff-mark'; ref: ActionRef; on: boolean };

const TAG = /^[0-9a-f]{24}$/;
export const TWO_STAFF_USAGE = '`/care settings two-staff <tag Ids, commas between>|off` or `/care two-staff <action number> on|off`';

/** The words after `/care` as a two-staff command; null when they are not one; `{error}` when they are one, badly. */
export function parseTwoStaff(words: string[], parseActionRef: (raw: string) => ActionRef | null): TwoStaffCommand | { error: string } | null {
  const [head = '', second = '', ...rest] = words;
  if (/^settings?$/i.test(head) && second.toLowerCase() === 'two-staff') {
    const args = rest
      .join(' ')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (!args.length) return { kind: 'two-staff-tags', tags: undefined };
    if (args.length === 1 && args[0]!.toLowerCase() === 'off') return { kind: 'two-staff-tags', tags: null };
    const bad = args.find((t) => !TAG.test(t));
    if (bad) return { error: `“${bad.slice(0, 40)}” is not a care system tag Id (24 hex digits). Usage: ${TWO_STAFF_USAGE}.` };
    return { kind: 'two-staff-tags', tags: [...new Set(args)] };
  }
  if (head.toLowerCase() !== 'two-staff') return null;
  const ref = parseActionRef(second);
  const on = rest[0]?.toLowerCase();
  if (!ref || rest.length !== 1 || (on !== 'on' && on !== 'off')) return { error: `Usage: ${TWO_STAFF_USAGE}.` };
  return { kind: 'two-staff-mark', ref, on: on === 'on' };
}
