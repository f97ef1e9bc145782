/**
 * What the changes poll of one workspace has already worked, in this instance's memory: each action's
 * version (its id and a fingerprint of everything the feed returned of it) once every notice, alert,
 * memory and redraw of it went through. The poll reads again, at every run, the actions modified within
 * its overlap before the cursor; an exact repeat of a version worked here changes nothing (all its work is
 * idempotent), so it is not worked again. Any change to the action (a new `modified`, or a second change
 * within the same second: `modified` has whole seconds) is a new fingerprint, and is worked.
 *
 * Bounded: a version is forgotten once its `modified` is before where the poll reads from (the feed can
 * never return it again), and at most `limit` are kept (the oldest forgotten first: worked again at worst).
 * Never shared across instances and lost at a restart: another instance, or this one after a crash, works
 * the overlap again as before.
 */
import { createHash } from 'node:crypto';
import type { Action } from '../care/index.js';
import { parseApiDateTime } from '../time/slack-date.js';

export interface WorkedVersions {
  /** Worked here already, exactly as read now. */
  has(action: Action): boolean;
  /** Every piece of work of this version went through. */
  add(action: Action): void;
  /** Forget the versions the feed cannot return again: modified before `sinceMs`. */
  forgetBefore(sinceMs: number): void;
  readonly size: number;
}

/** The version of an action as read: its whole record (the feed's attributes), hashed. */
export function fingerprintOf(action: Action): string {
  return createHash('sha1').update(JSON.stringify(action)).digest('base64');
}

export function createWorkedVersions(limit = 5_000): WorkedVersions {
  /** Action id → the version worked and its `modified` (ms); insertion order is the feed's, oldest first. */
  const worked = new Map<string, { fingerprint: string; modifiedMs: number }>();
  return {
    has(action) {
      const seen = worked.get(action._id);
      return seen !== undefined && seen.fingerprint === fingerprintOf(action);
    },
    add(action) {
      const modifiedMs = parseApiDateTime(action.modified)?.getTime();
      if (modifiedMs === undefined) return; // nothing to forget it by: worked every time, as before
      worked.delete(action._id);
      worked.set(action._id, { fingerprint: fingerprintOf(action), modifiedMs });
      for (const id of worked.keys()) {
        if (worked.size <= limit) break;
        worked.delete(id);
      }
    },
    forgetBefore(sinceMs) {
      for (const [id, v] of worked) if (v.modifiedMs < sinceMs) worked.delete(id);
    },
    get size() {
      return worked.size;
    },
  };
}
