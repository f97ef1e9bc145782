import type { App, BlockAction, ButtonAction, types } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import type { SlackDeps } from '../../deps.js';
import { publishHome, refreshHomes } from '../../home.js';
import { ActionIds } from '../../ids.js';
import { listSourceOfBlockId, renderCommandList, type ListSource } from '../../lists.js';
import { safeRespond, type Responder } from '../../respond.js';
import { actionCard } from '../../views/action-card.js';
import type { ActionView } from '../../views/model.js';
import { patchActionBlocks } from '../../views/patch.js';

type Body = BlockAction<ButtonAction>;

function listSourceOf(body: Body): ListSource | null {
  return listSourceOfBlockId(body.actions?.[0]?.block_id);
}

/** Put the new state where the person clicked: the Home tab, the message, or their ephemeral answer. */
export async function showWhereClicked(deps: SlackDeps, body: Body, respond: Responder, view: ActionView, note?: string): Promise<void> {
  const teamId = body.team?.id ?? '';
  if (body.container?.type === 'view') {
    await publishHome(deps, teamId, body.user.id);
    return;
  }
  const channelId = body.channel?.id ?? body.container?.channel_id;
  const tz = (await deps.profiles.get(body.user.id).catch(() => null))?.tz ?? deps.timezone;
  const ephemeral = Boolean(body.container?.is_ephemeral);
  const showTask = ephemeral || !channelId ? true : await deps.channels.showTasksIn(teamId, channelId);
  const ctx = { now: deps.now(), timezone: tz, showTask };
  const original = (body.message?.blocks ?? []) as types.AnyBlock[];
  const patched = patchActionBlocks(original, view, ctx);
  if (!ephemeral && channelId && body.message?.ts) {
    const blocks = patched ?? actionCard(view, ctx);
    await deps.slack.chat.update({ channel: channelId, ts: body.message.ts, blocks: blocks as types.KnownBlock[], text: body.message.text ?? 'Care action' });
  } else {
    // Slack does not send an ephemeral message's blocks back: a list answer is rendered again from where it came from.
    const source = patched ? null : listSourceOf(body);
    const list = source
      ? await renderCommandList(deps, { teamId, userId: body.user.id }, source, tz, view).catch((err) => {
          deps.logger.warn('could not render the list again', { error: err });
          return null;
        })
      : null;
    const message = list ?? { text: 'Care action', blocks: patched ?? actionCard(view, ctx) };
    await safeRespond(respond, { replace_original: true, ...message }, deps.logger);
  }
  if (note) await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: note }, deps.logger);
}

/** Complete and Reopen buttons, on any message, ephemeral answer or the Home tab. */
export function registerCompleteReopen(app: App, deps: SlackDeps): void {
  for (const kind of ['complete', 'reopen'] as const) {
    app.action<Body>(ActionIds[kind], async ({ ack, body, action, respond }) => {
      await ack();
      const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
      try {
        const id = action.value ?? '';
        const result = kind === 'complete' ? await deps.actions.complete(actor, id) : await deps.actions.reopen(actor, id);
        const [view] = await deps.actions.views([result.action], actor.teamId);
        const note = result.changed
          ? undefined
          : kind === 'complete'
            ? 'That action was already complete; the card now shows its current state.'
            : 'That action was already open; the card now shows its current state.';
        await showWhereClicked(deps, body, respond, view!, note);
        if (result.changed)
          await refreshHomes(
            deps,
            actor.teamId,
            [actor.userId, view!.assignee?.slackUserId].filter((u) => u !== actor.userId || body.container?.type !== 'view'),
          );
      } catch (err) {
        deps.logger.warn(`${kind} button failed`, { error: err });
        await tellClicker(deps, body, respond, describeError(err));
      }
    });
  }
}

/** An error for the person who clicked, wherever they clicked. */
export async function tellClicker(deps: SlackDeps, body: Body, respond: Responder, message: string): Promise<void> {
  if (
    body.container?.type === 'view' ||
    !(await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text: `:warning: ${message}` }, deps.logger))
  ) {
    await deps.slack.chat
      .postMessage({ channel: body.user.id, text: `:warning: ${message}` })
      .catch((err) => deps.logger.warn('could not report an error', { error: err }));
  }
}
