import type { App, OverflowAction } from '@slack/bolt';
import { clickOrigin } from '../../forms/edited-in-place.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { clickedOnSharedPost } from '../../surface.js';
import { actionLabel, assigneeText } from '../../views/action-card.js';
import { NOTE_TITLE, type NoteMeta, noteModal, parseNoteOption } from '../../views/note-menu.js';
import { messageModal } from '../../views/simple-modals.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { showWhereClicked } from '../after-click.js';
import { workspaceOf } from '../../workspace-on-context.js';

const NOT_LINKED = 'Only people with a linked care account can complete or take actions. Type `/care link` to link yours.';

/**
 * "Complete with note…" and "Take it with note…" (the "⋯" menu of a card or alert): the note's form, read from
 * the action as it is now ("Loading…" at once: the trigger lives 3 s). A complete action is said in the form and
 * its card drawn as it is. The form is sealed to the person, with the card it came from (note-submit.ts).
 */
export function registerNoteMenu(app: App): void {
  app.action(
    ActionIds.noteMenu,
    buttonListener<OverflowAction>('note-menu', async ({ body, action, respond, context }, deps) => {
      const picked = parseNoteOption(action.selected_option?.value);
      if (!picked) throw new Error('the note menu sent an option it does not have');
      const actor = { userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, NOT_LINKED);
        return;
      }
      const title = NOTE_TITLE[picked.move];
      const found: { complete?: Awaited<ReturnType<typeof deps.actions.resolve>> } = {};
      const shown = await openThenFill(deps, { triggerId: body.trigger_id, title, log: 'could not open the note form' }, async () => {
        const [tz, current] = await Promise.all([deps.profiles.tz(actor.userId), deps.actions.resolve({ type: 'id', id: picked.actionId })]);
        if (current.completed) {
          found.complete = current;
          return messageModal(title, 'That action is already complete, so there is nothing to do; its card now shows it.');
        }
        const [view] = await deps.actions.views([current]);
        const origin = clickOrigin(body, action.block_id);
        const meta: NoteMeta = { actionId: current._id, move: picked.move, tz, shownAssignee: current.assigned_to ?? null, ...(origin ? { origin } : {}) };
        const sealed = deps.signedMetadata.encode(meta, { teamId: workspaceOf(context), ...actor, form: CallbackIds.noteModal });
        return noteModal(sealed, {
          move: picked.move,
          label: actionLabel(view!),
          assignee: view!.assignee ? assigneeText(view!) : null,
          shared: clickedOnSharedPost(body),
        });
      });
      if (shown && found.complete) {
        const [view] = await deps.actions.views([found.complete]);
        await showWhereClicked(deps, workspaceOf(context), body, respond, view!);
      }
    }),
  );
}
