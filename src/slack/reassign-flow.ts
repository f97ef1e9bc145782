/**
 * Reassign work's modals (admins): the confirmation that counts what moves, then
 * the moves with their progress in the same modal, and the exact result. Shared
 * by `/care reassign …` and the Team view's "Reassign work" button.
 */
import { randomUUID } from 'node:crypto';
import type { types } from '@slack/bolt';
import { z } from 'zod';
import type { Actor } from '../services/people/identity.js';
import type { ReassignScope, RotaPerson } from '../services/reassign/reassign.js';
import type { SlackDeps } from './deps.js';
import { refreshHomes } from './home-publisher.js';
import { logFailure } from './listeners/error-policy.js';
import { failedModal } from './listeners/modal-flow.js';
import { escapeMrkdwn } from './text.js';
import { CARE_ID, CallbackIds } from './ids.js';
import { nothingToMoveText, reassignConfirmModal, reassignProgressModal, reassignResultModal } from './views/reassign.js';
import { messageModal } from './views/simple-modals.js';

export const REASSIGN_TITLE = 'Reassign work';
/** The modal is updated after this many moves (and at the end): Slack's views.update limits, and a readable pace. */
export const PROGRESS_EVERY = 5;

export const RotaPersonSchema = z.object({
  careUserId: z.string().regex(CARE_ID),
  name: z.string().max(200),
  slackUserId: z
    .string()
    .regex(/^[UW][A-Z0-9]+$/)
    .optional(),
});
export const ConfirmMetaSchema = z.object({
  from: RotaPersonSchema,
  to: RotaPersonSchema,
  scope: z.enum(['overdue', 'today', 'all']),
  run: z.string().uuid(),
});
export type ConfirmMeta = z.infer<typeof ConfirmMetaSchema>;

/**
 * The confirmation ("Move 25 open actions from … to …?"), or a plain sentence when there is nothing to move.
 * `admin` is the person alone; `teamId` (their workspace, from Bolt's context) seals the confirmation to them there.
 */
export async function confirmationView(
  deps: SlackDeps,
  teamId: string,
  admin: Actor,
  from: RotaPerson,
  to: RotaPerson,
  scope: ReassignScope,
): Promise<types.ModalView> {
  const run = randomUUID();
  const plan = await deps.reassign.plan(admin, from, to, scope, run);
  if (plan.total === 0) return messageModal(REASSIGN_TITLE, nothingToMoveText(from, scope));
  const meta: ConfirmMeta = { from, to, scope, run };
  return reassignConfirmModal(plan, deps.signedMetadata.encode(meta, { teamId, ...admin, form: CallbackIds.reassignConfirm }));
}

/**
 * After the confirmation was submitted (the modal already shows "Moving…"): move what was
 * confirmed, with the modal updated every few moves, then the exact result there (and, with Undo,
 * in a DM to the admin, sent by the service). Never throws.
 */
export async function runReassign(deps: SlackDeps, teamId: string, admin: Actor, meta: ConfirmMeta, viewId: string): Promise<void> {
  const show = (view: types.ModalView) => deps.slack.views.update({ view_id: viewId, view });
  let shown = true;
  try {
    const { plan: p, outcome } = await deps.reassign.run(admin, meta.run, async (done, total, planned) => {
      if (!shown || done % PROGRESS_EVERY !== 0 || done === total) return;
      await show(reassignProgressModal(planned, done)).catch((err) => {
        shown = false;
        deps.logger.info('the reassignment modal was closed; the result goes by DM', { error: err });
      });
    });
    // The result (with Undo) is in the admin's DMs too (the service sends it): the modal says so.
    if (shown) await show(reassignResultModal(p, outcome)).catch(() => undefined);
    if (outcome.moved.length) await refreshHomes(deps, teamId, [meta.from.slackUserId, meta.to.slackUserId, admin.userId]);
  } catch (err) {
    logFailure(deps.logger, 'a reassignment failed', err);
    await show(failedModal(REASSIGN_TITLE, err)).catch(() => undefined);
  }
}

const whoIs = (p: RotaPerson) => (p.slackUserId ? `<@${p.slackUserId}>` : escapeMrkdwn(p.name));

/** What the modal shows the moment the confirmation is submitted. */
export const progressStart = (meta: ConfirmMeta): types.ModalView =>
  messageModal(REASSIGN_TITLE, `:hourglass_flowing_sand: Moving open actions from ${whoIs(meta.from)} to ${whoIs(meta.to)}…`);
