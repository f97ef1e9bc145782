import { describeError } from '../services/errors.js';
import { localParts } from '../time/zones.js';
import type { SlackDeps } from './deps.js';
import { CallbackIds } from './ids.js';
import { plain } from './text.js';
import { actionModal } from './views/action-form-modal.js';
import { loadingModal, messageModal } from './views/simple-modals.js';

const TITLE = 'New care action';

/**
 * Open the create form. The trigger lives 3 s, so `views.open` goes first with
 * a loading view; the person's time zone (a Slack call) comes after, and the
 * form replaces the loading view. A failure after opening is shown in the modal.
 */
export async function openCreateForm(
  deps: SlackDeps,
  triggerId: string,
  actor: { teamId: string; userId: string },
  where: { channelId?: string | undefined; threadTs?: string | undefined; task?: string | undefined },
): Promise<void> {
  const opened = await deps.slack.views.open({ trigger_id: triggerId, view: loadingModal(TITLE) });
  const viewId = opened.view?.id;
  if (!viewId) return;
  try {
    const tz = await deps.profiles.tz(actor.userId);
    const meta = {
      mode: 'create' as const,
      tz,
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(where.threadTs ? { threadTs: where.threadTs } : {}),
    };
    const initial = { ...(where.task ? { task: plain(where.task, 3000) } : {}), dueDate: localParts(deps.now(), tz).date };
    const sealed = deps.signedMetadata.encode(meta, { ...actor, form: CallbackIds.actionModal });
    await deps.slack.views.update({ view_id: viewId, view: actionModal(meta, sealed, initial) });
  } catch (err) {
    deps.logger.warn('could not fill the create form', { error: err });
    await deps.slack.views.update({ view_id: viewId, view: messageModal(TITLE, `:warning: ${describeError(err)}`) }).catch(() => undefined);
  }
}
