/**
 * Open a modal, then fill it: the one way a click or a command shows a view
 * that needs reading first. A trigger_id lives 3 s and the reading (the care
 * API, Slack's users.info) may take longer, so a "Loading…" modal opens at once,
 * before any call, and the work's view replaces it. When the work (or that
 * update) fails, the modal says what went wrong in the error policy's words and
 * the failure is logged by its rules (a person's mistake at info, without its
 * text); nothing is thrown. When the modal cannot be opened at all, that error
 * reaches the listener's wrapper, which tells the person where they acted.
 */
import type { types } from '@slack/bolt';
import { describeError } from '../../services/errors.js';
import { logFailure, type Teller } from './error-policy.js';
import { loadingModal, messageModal } from '../views/simple-modals.js';

export interface ModalFlow {
  triggerId: string;
  /** The modal's title, while loading and if it fails. */
  title: string;
  /** The log line when filling fails. */
  log: string;
  /** Told once the modal is open (the person sees an answer). */
  onOpened?: (() => void) | undefined;
}

/** A modal that says what went wrong, in the error policy's words. */
export function failedModal(title: string, err: unknown): types.ModalView {
  return messageModal(title, `:warning: ${describeError(err)}`);
}

/** Open a "Loading…" modal, then replace it with `fill`'s view (or the failure). True when the work's view is shown. */
export async function openThenFill(deps: Teller, flow: ModalFlow, fill: () => Promise<types.ModalView>): Promise<boolean> {
  const opened = await deps.slack.views.open({ trigger_id: flow.triggerId, view: loadingModal(flow.title) });
  const viewId = opened.view?.id;
  if (!viewId) return false;
  flow.onOpened?.();
  try {
    await deps.slack.views.update({ view_id: viewId, view: await fill() });
    return true;
  } catch (err) {
    logFailure(deps.logger, flow.log, err);
    await deps.slack.views
      .update({ view_id: viewId, view: failedModal(flow.title, err) })
      .catch((e) => deps.logger.info('the modal was gone; its failure was not shown', { error: e }));
    return false;
  }
}
