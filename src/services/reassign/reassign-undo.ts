/**
 * Undo of a reassign run (admins), from the Undo on the run's result DM: the actions that run moved go
 * back, and only those, once, within REASSIGN_UNDO_WINDOW_MS of the run's end.
 *
 * - Once across instances: a one-time key in the store (`reassign-undo:<run>`, one conditional
 *   statement) is claimed first; a second press, here or on another instance, or by another admin,
 *   is told it was already undone. The record is deleted once the Undo has run.
 * - Each action is read again first: one completed, given to someone else or deleted since the run is
 *   left as it is, and named in the result. Moves are audited (`reassign-undo`) like the run's, and each
 *   person affected who is in Slack gets one summary DM through the exactly-once ledger.
 * - `sweep` (the retention job; never throws) deletes records past their time: Undo records after the window, plans
 *   never run (or whose run died) a day after they were counted.
 */
import type { WebClient } from '@slack/web-api';
import type { CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import type { AssignmentNotices } from '../notices/assignment-notices.js';
import type { Deliverer } from '../notices/delivery.js';
import { createDmChannels } from '../dm-channels.js';
import { UserFacingError } from '../errors.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { moveOne } from './reassign-move.js';
import { parseReassignRecord, REASSIGN_RECORD_PREFIX, reassignRecordName, sweptAt, type UndoSide } from './reassign-records.js';
import type { ReassignOutcome, ReassignRenderers, RotaPerson } from './reassign.js';

export type ReassignUndoResult =
  /** Moved back what could be: `from` gets the work back from `to`. */
  | { kind: 'undone'; from: RotaPerson; to: RotaPerson; outcome: ReassignOutcome }
  /** Already undone (this press came second). */
  | { kind: 'spent' }
  /** The window has passed (or the run is no longer known). */
  | { kind: 'expired' };

export interface ReassignUndo {
  /** Admins only. `onProgress` after each action. */
  undo(admin: Actor, runId: string, onProgress?: (done: number, total: number) => Promise<void> | void): Promise<ReassignUndoResult>;
  /** Delete the reassign records past their time; resolves to how many. */
  sweep(): Promise<number>;
}

const KEY_MARGIN_MS = 60_000;
const spendKey = (runId: string) => `reassign-undo:${runId}`;

export function createReassignUndo(deps: {
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  assignments: Pick<AssignmentNotices, 'quietly'>;
  deliverer: Deliverer;
  slack: WebClient;
  render: Pick<ReassignRenderers, 'summary'>;
  now: () => Date;
  logger: Logger;
  /** The workspace it undoes in (bound at composition: the team of its DMs' recipients). */
  teamId: () => Promise<string>;
}): ReassignUndo {
  const { store, identity, logger } = deps;
  const dmChannel = createDmChannels(deps.slack);

  const person = async (side: UndoSide): Promise<RotaPerson> => ({
    careUserId: side.careUserId,
    name: (await identity.careUserName(side.careUserId).catch(() => null)) ?? 'Care user',
    ...(side.slackUserId ? { slackUserId: side.slackUserId } : {}),
  });

  async function tell(admin: Actor, runId: string, from: RotaPerson, to: RotaPerson, outcome: ReassignOutcome): Promise<void> {
    if (!outcome.moved.length) return;
    // `to` loses the work it was given, `from` gets it back.
    for (const [reader, p] of [
      ['from', to],
      ['to', from],
    ] as const) {
      if (!p.slackUserId || p.slackUserId === admin.userId) continue;
      const key = {
        kind: 'reassign-summary',
        actionId: `run:${runId}`,
        occurrence: `undo:${runId}`,
        recipient: `user:${await deps.teamId()}/${p.slackUserId}`,
      };
      const message = deps.render.summary({ by: admin.userId, from: to, to: from, moved: outcome.moved, reader, back: true });
      await deps.deliverer.deliver(key, () => dmChannel(p.slackUserId!), message);
    }
  }

  return {
    async undo(admin, runId, onProgress) {
      if (!(await identity.isAdmin(admin)))
        throw new UserFacingError('Only admins can undo a reassignment. Ask a workspace admin (`/care admins` lists them).', 'not-admin');
      // A run's Id is a UUID (reassign-flow.ts): anything else names no run.
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(runId)) return { kind: 'expired' };
      const now = deps.now().getTime();
      const name = reassignRecordName(runId);
      const record = parseReassignRecord(await store.getCursor(name));
      const undoable = record?.state === 'undoable' ? record : null;
      if (undoable && undoable.expiresAt <= now) return { kind: 'expired' };
      const key = spendKey(runId);
      if (!(await store.markRequestSeen(key, { now, expiresAt: (undoable?.expiresAt ?? now) + KEY_MARGIN_MS }))) return { kind: 'spent' };
      if (!undoable) {
        await store.forgetRequestSeen(key);
        return { kind: 'expired' };
      }
      const [from, to] = await Promise.all([person(undoable.from), person(undoable.to)]);
      const outcome: ReassignOutcome = { moved: [], failed: [] };
      let done = 0;
      for (const planned of undoable.moved) {
        const move = { planned, from: to.careUserId, to: from.careUserId, verb: 'reassign-undo', run: runId, since: 'since the reassignment' };
        const one = await moveOne({ care: deps.care, store, assignments: deps.assignments, logger }, admin, move);
        if (one.moved) outcome.moved.push(one.action);
        else outcome.failed.push({ ...one.action, why: one.why });
        done++;
        try {
          await onProgress?.(done, undoable.moved.length);
        } catch (err) {
          logger.warn('could not show how far an Undo of a reassignment has got', { error: err });
        }
      }
      logger.info('undid a reassignment', { by: admin.userId, moved: outcome.moved.length, left: outcome.failed.length, run: runId });
      await store.deleteCursor(name);
      await tell(admin, runId, from, to, outcome).catch((err) => logger.warn('could not send a reassignment summary', { error: err }));
      return { kind: 'undone', from, to, outcome };
    },

    async sweep() {
      const now = deps.now().getTime();
      let n = 0;
      try {
        for (const c of await store.listCursors(REASSIGN_RECORD_PREFIX)) {
          if (sweptAt(parseReassignRecord(c.value), now) && (await store.deleteCursor(c.name))) n++;
        }
      } catch (err) {
        logger.warn('could not delete reassign records past their time; the next run tries again', { error: err });
      }
      if (n) logger.info('deleted reassign records past their time', { count: n });
      return n;
    },
  };
}
