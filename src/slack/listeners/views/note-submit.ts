import type { App } from '@slack/bolt';
import { z } from 'zod';
import { checkNote } from '../../../services/actions/action-notes.js';
import { isValidTimeZone } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { type EditOrigin, showEditedInPlace } from '../../forms/edited-in-place.js';
import { EditOriginSchema } from '../../forms/action-form-meta.js';
import { refreshHomes } from '../../home-publisher.js';
import { keepNote, NOTE_KEPT_TEXT } from '../../keep-note.js';
import { CARE_ID, CallbackIds, FIELD_ACTION_ID, FieldIds } from '../../ids.js';
import { isSharedConversation } from '../../surface.js';
import type { ChangedBy } from '../../views/changed-by.js';
import { NOTE_TITLE, type NoteMove } from '../../views/note-menu.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { changedWithUndo } from '../after-click.js';
import { lostTakeNote } from '../actions/take-it.js';
import { tellByDm, withDmOnFailure } from '../error-policy.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const MetaSchema = z.object({
  actionId: z.string().regex(CARE_ID),
  move: z.enum(['complete', 'take']),
  tz: z.string().refine(isValidTimeZone),
  shownAssignee: z.string().regex(CARE_ID).nullable(),
  origin: EditOriginSchema.optional(),
});

type Values = Record<string, Record<string, { value?: string | null }>>;

/**
 * "Complete with note" / "Take it with note" answered: the note is checked (empty or too long: said under the
 * field, nothing done), the form closes, the action is completed or taken as its button would, and the note is
 * kept with that change only (a change that did not happen keeps no note: the person is told by DM). The card
 * it came from is drawn in place; on a channel post with who did it (and Undo for a Complete), never the note.
 */
export function registerNoteSubmit(app: App): void {
  app.view(CallbackIds.noteModal, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const issued = MetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form: CallbackIds.noteModal }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.noteModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal('Note') });
      return;
    }
    const meta = issued.data;
    const typed = (view.state.values as Values)[FieldIds.note]?.[FIELD_ACTION_ID]?.value ?? '';
    const checked = checkNote(typed);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [FieldIds.note]: checked.message } });
      return;
    }
    await ack();
    await finishWithNote(deps, { teamId: workspaceOf(context), ...actor }, { ...meta, note: checked.text });
  });
}

/** After the form closed: the change, the note with it, the card in place, the Home tabs. Problems go to the person by DM. */
export async function finishWithNote(
  deps: SlackDeps,
  actor: { teamId: string; userId: string },
  request: { actionId: string; move: NoteMove; tz: string; shownAssignee: string | null; note: string; origin?: EditOrigin | undefined },
): Promise<void> {
  const lead = request.move === 'complete' ? 'The action was not completed' : 'The action was not taken';
  await withDmOnFailure(deps, actor.userId, { log: `${NOTE_TITLE[request.move]} failed`, lead }, async () => {
    // The post it came from is drawn below, with who did it (every other post follows by itself).
    const at = request.origin?.ts ? { channel: request.origin.channel, ts: request.origin.ts } : undefined;
    const by = { ...actor, at };
    let changed: boolean;
    let action: Awaited<ReturnType<SlackDeps['actions']['complete']>>['action'];
    let changedBy: ChangedBy | undefined;
    let previous: string | null = null;
    if (request.move === 'complete') {
      const result = await deps.actions.complete(by, request.actionId);
      ({ changed, action } = result);
      if (!changed) await tellByDm(deps, actor.userId, 'That action was already complete, so your note was not kept: a note goes with your own change.');
      changedBy = changed ? changedWithUndo(deps, actor.teamId, actor.userId, action, { kind: 'complete' }) : undefined;
    } else {
      // Shown as nobody's: if someone took it meanwhile, it is not taken from them unasked (as Take it).
      const result = await deps.actions.takeIt(by, request.actionId, { onlyIfUnassigned: request.shownAssignee === null });
      ({ changed, action } = result);
      previous = result.previousAssignee;
      if (result.takenBy !== undefined) await tellByDm(deps, actor.userId, `${lostTakeNote(result.takenBy, actor.userId)} Your note was not kept.`);
      else if (!changed)
        await tellByDm(deps, actor.userId, 'Nothing was taken (it is complete, already yours, or someone has it now), so your note was not kept.');
      changedBy = changed ? { kind: 'take', by: actor.userId } : undefined;
    }
    if (changed) {
      const kept = await keepNote(deps, actor, { action, changed }, request.note, request.move);
      if (kept !== 'kept') await tellByDm(deps, actor.userId, NOTE_KEPT_TEXT[kept]);
    }
    const [view] = await deps.actions.views([action]);
    if (request.origin) {
      const onPost = changed && Boolean(request.origin.ts) && isSharedConversation(request.origin.channel);
      await showEditedInPlace(deps, actor, request.origin, view!, request.tz, onPost ? changedBy : undefined).catch((err) => {
        deps.logger.warn('could not update the card in place', { error: err });
        return false;
      });
    }
    if (!changed) return;
    const from = previous ? await deps.identity.slackUserFor(previous) : null;
    await refreshHomes(deps, actor.teamId, [actor.userId, view?.assignee?.slackUserId, from]);
  });
}
