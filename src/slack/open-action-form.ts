import { describeError } from '../services/errors.js';
import { readDuePhrase } from '../time/due-phrases.js';
import { localParts } from '../time/zones.js';
import type { SlackDeps } from './deps.js';
import { CallbackIds } from './ids.js';
import { fitTask } from './forms/task-limit.js';
import { type ActionFormInitial, actionModal } from './views/action-form-modal.js';
import { loadingModal, messageModal } from './views/simple-modals.js';

const TITLE = 'New care action';

/**
 * Open the create form. The trigger lives 3 s, so `views.open` goes first with
 * a loading view; the person's time zone (a Slack call) comes after, and the
 * form replaces the loading view. A failure after opening is shown in the modal.
 *
 * The assignee starts as the person creating it (when linked: only linked
 * people can be assigned). With `dueFromTask` ("/care new Call the GP tomorrow
 * 3pm") the due date and time are read from the task's words in the person's
 * zone and those words are left out of the task.
 */
export async function openCreateForm(
  deps: SlackDeps,
  triggerId: string,
  actor: { teamId: string; userId: string },
  where: {
    channelId?: string | undefined;
    threadTs?: string | undefined;
    task?: string | undefined;
    dueFromTask?: boolean;
    /** Told once the modal is open (the person sees an answer). */
    onOpened?: () => void;
  },
): Promise<void> {
  const opened = await deps.slack.views.open({ trigger_id: triggerId, view: loadingModal(TITLE) });
  const viewId = opened.view?.id;
  if (!viewId) return;
  where.onOpened?.();
  try {
    const [tz, link] = await Promise.all([deps.profiles.tz(actor.userId), deps.identity.getLink(actor)]);
    const now = deps.now();
    const read = where.task && where.dueFromTask ? readDuePhrase(where.task, now, tz) : { task: where.task ?? '' };
    // Longer than the form holds: the form shows the first 3,000 and says so; saving them unchanged is refused.
    const fitted = fitTask(read.task);
    const initial: ActionFormInitial = {
      ...(fitted.task ? { task: fitted.task } : {}),
      dueDate: read.date ?? localParts(now, tz).date,
      ...(read.time ? { dueTime: read.time } : {}),
      ...(link ? { assigneeSlackUserId: actor.userId } : {}),
    };
    const meta = {
      mode: 'create' as const,
      tz,
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(where.threadTs ? { threadTs: where.threadTs } : {}),
      ...(fitted.cut ? { taskCut: fitted.cut } : {}),
    };
    const sealed = deps.signedMetadata.encode(meta, { ...actor, form: CallbackIds.actionModal });
    await deps.slack.views.update({ view_id: viewId, view: actionModal(meta, sealed, initial) });
  } catch (err) {
    deps.logger.warn('could not fill the create form', { error: err });
    await deps.slack.views.update({ view_id: viewId, view: messageModal(TITLE, `:warning: ${describeError(err)}`) }).catch(() => undefined);
  }
}
