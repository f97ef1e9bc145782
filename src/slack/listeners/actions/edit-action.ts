import type { App } from '@slack/bolt';
import type { Action } from '../../../care/index.js';
import { parseApiDateTime } from '../../../time/slack-date.js';
import { localParts } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { clickOrigin } from '../../forms/edited-in-place.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { assigneeInitial } from '../../forms/open-action-form.js';
import {
  type ActionFormInitial,
  type ActionModalMeta,
  actionModal,
  hasMoreOptions,
  NOT_IN_SLACK,
  type ReminderForm,
  type SharedEditWas,
} from '../../views/action-form-modal.js';
import { clickedOnSharedPost } from '../../surface.js';
import { fitTask } from '../../forms/task-limit.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';
import { cutId } from '../../cut.js';

const TITLE = 'Edit care action';

/** The form's starting values from the action as the care system has it, in the editor's zone. */
async function initialValues(deps: SlackDeps, action: Action, tz: string, task: string): Promise<ActionFormInitial> {
  const due = parseApiDateTime(action.due);
  const local = due ? localParts(due, tz) : null;
  const assignee = action.assigned_to ? await assigneeInitial(deps, action.assigned_to) : undefined;
  const groupNames = await deps.directory.groupNames(action.notify_on_complete ?? []);
  const initial: ActionFormInitial = {
    task,
    ...(local ? { dueDate: local.date, dueTime: local.time } : {}),
    ...(assignee ? { assignee } : {}),
    urgent: Boolean(action.urgent),
    pin: action.pin_to_calendar === 'location' || action.pin_to_calendar === 'user' ? action.pin_to_calendar : null,
    notify: (action.notify_on_complete ?? []).map((id) => ({ id, name: groupNames.get(id) ?? id })),
    reminders: (action.reminders ?? []).map(
      (r): ReminderForm => ({
        ...(r.method ? { method: r.method } : {}),
        offset: r.offset_type === 'delta' || r.offset_type === 'time' ? r.offset_type : 'none',
        ...(r.offset_delta ? { minutes: r.offset_delta } : {}),
        ...(r.offset_time_str ? { time: r.offset_time_str } : {}),
      }),
    ),
  };
  // Pin or a reminder set: More options open, so what the action has is seen (and kept when saved).
  return { ...initial, more: hasMoreOptions(initial) };
}

/** The action as the form shows it, remembered (sealed) when the form is opened from a channel post. */
function sharedWas(action: Action, initial: ActionFormInitial): SharedEditWas {
  const name = initial.assignee ? cutId(initial.assignee.label.replace(` — ${NOT_IN_SLACK}`, ''), 80) : null;
  return { assignee: action.assigned_to ?? null, name, urgent: Boolean(action.urgent) };
}

/**
 * Edit: a "Loading…" modal at once (the trigger lives 3 s), then the form filled from the API (openThenFill).
 * From a channel post the form names the assignee and says everyone sees the change; saving a new
 * assignee, due time or urgency there asks first (action-form-submit.ts).
 */
export function registerEditButton(app: App): void {
  app.action(
    ActionIds.edit,
    buttonListener('edit', async ({ body, action, respond, context }, deps) => {
      const actor = { userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, 'Only people with a linked care account can edit actions. Type `/care link`.');
        return;
      }
      await openThenFill(deps, { triggerId: body.trigger_id, title: TITLE, log: 'could not open the edit form' }, async () => {
        const [tz, current] = await Promise.all([deps.profiles.tz(body.user.id), deps.actions.resolve({ type: 'id', id: action.value ?? '' })]);
        const channelId = body.channel?.id ?? body.container?.channel_id;
        const origin = clickOrigin(body, action.block_id);
        const dueWas = parseApiDateTime(current.due)?.toISOString();
        // A task longer than the form holds is shown cut, and saving it unchanged is refused (never cut silently).
        const fitted = fitTask(current.task ?? '');
        const meta: ActionModalMeta = {
          mode: 'edit',
          actionId: current._id,
          tz,
          ...(channelId ? { channelId } : {}),
          ...(origin ? { origin } : {}),
          ...(dueWas ? { dueWas } : {}),
          ...(fitted.cut ? { taskCut: fitted.cut } : {}),
        };
        const initial = await initialValues(deps, current, tz, fitted.task);
        if (clickedOnSharedPost(body)) meta.shared = sharedWas(current, initial);
        const sealed = deps.signedMetadata.encode(meta, { teamId: workspaceOf(context), ...actor, form: CallbackIds.actionModal });
        return actionModal(meta, sealed, initial);
      });
    }),
  );
}
