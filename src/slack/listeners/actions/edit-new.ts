import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import { parseApiDateTime } from '../../../time/slack-date.js';
import { localParts } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { ActionIds } from '../../ids.js';
import { actionModal, type ActionFormInitial, type ReminderForm } from '../../views/action-modal.js';
import { loadingModal, messageModal } from '../../views/simple-modals.js';
import { tellClicker } from './complete-reopen.js';

type Body = BlockAction<ButtonAction>;

/** Edit: open a "Loading…" modal at once (the trigger lives 3 s), then fill it from the API. */
export function registerEditAndNew(app: App, deps: SlackDeps): void {
  app.action<Body>(ActionIds.edit, async ({ ack, body, action, respond }) => {
    await ack();
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    if (!(await deps.identity.getLink(actor))) {
      await tellClicker(deps, body, respond, 'Only people with a linked care account can edit actions. Type `/care link`.');
      return;
    }
    let viewId: string | undefined;
    try {
      const opened = await deps.slack.views.open({ trigger_id: body.trigger_id, view: loadingModal('Edit care action') });
      viewId = opened.view?.id;
      const [tz, action_] = await Promise.all([
        deps.profiles.get(body.user.id).then((p) => p.tz),
        deps.actions.resolve({ type: 'id', id: action.value ?? '' }),
      ]);
      const due = parseApiDateTime(action_.due);
      const local = due ? localParts(due, tz) : null;
      const assignee = action_.assigned_to ? await deps.identity.slackUserFor(actor.teamId, action_.assigned_to) : null;
      const groupNames = await deps.directory.groupNames(action_.notify_on_complete ?? []);
      const initial: ActionFormInitial = {
        task: action_.task ?? '',
        ...(local ? { dueDate: local.date, dueTime: local.time } : {}),
        ...(assignee ? { assigneeSlackUserId: assignee } : {}),
        urgent: Boolean(action_.urgent),
        pin: action_.pin_to_calendar === 'location' || action_.pin_to_calendar === 'user' ? action_.pin_to_calendar : null,
        notify: (action_.notify_on_complete ?? []).map((id) => ({ id, name: groupNames.get(id) ?? id })),
        reminders: (action_.reminders ?? []).map(
          (r): ReminderForm => ({
            ...(r.method ? { method: r.method } : {}),
            offset: r.offset_type === 'delta' || r.offset_type === 'time' ? r.offset_type : 'none',
            ...(r.offset_delta ? { minutes: r.offset_delta } : {}),
            ...(r.offset_time_str ? { time: r.offset_time_str } : {}),
          }),
        ),
      };
      const channelId = body.channel?.id ?? body.container?.channel_id;
      // Remember where Edit was clicked, so the saved state replaces that card in place.
      const origin =
        body.container?.type === 'message' && channelId
          ? body.container.is_ephemeral
            ? { channel: channelId, responseUrl: body.response_url, blockId: action.block_id }
            : { channel: channelId, ts: body.message?.ts ?? body.container.message_ts, threadTs: body.message?.thread_ts ?? body.container.thread_ts }
          : undefined;
      const meta = {
        mode: 'edit' as const,
        actionId: action_._id,
        tz,
        ...(channelId ? { channelId } : {}),
        ...(origin ? { origin } : {}),
      };
      if (viewId) await deps.slack.views.update({ view_id: viewId, view: actionModal(meta, initial) });
    } catch (err) {
      deps.logger.warn('could not open the edit form', { error: err });
      if (viewId) await deps.slack.views.update({ view_id: viewId, view: messageModal('Edit care action', describeError(err)) }).catch(() => undefined);
      else await tellClicker(deps, body, respond, describeError(err));
    }
  });

  app.action<Body>(ActionIds.newAction, async ({ ack, body, respond }) => {
    await ack();
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, 'Link your care account first: type `/care link`.');
        return;
      }
      const tz = (await deps.profiles.get(body.user.id)).tz;
      await deps.slack.views.open({
        trigger_id: body.trigger_id,
        view: actionModal({ mode: 'create', tz, ...(body.channel?.id ? { channelId: body.channel.id } : {}) }, { dueDate: localParts(deps.now(), tz).date }),
      });
    } catch (err) {
      await tellClicker(deps, body, respond, describeError(err));
    }
  });
}
