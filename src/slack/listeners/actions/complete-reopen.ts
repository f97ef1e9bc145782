import type { App, BlockAction, types } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { publishHome, refreshHomes } from '../../home-publisher.js';
import { ActionIds, listSourceOfBlockId, type ListSource } from '../../ids.js';
import { renderCommandList } from '../../lists.js';
import { safeRespond, type Responder } from '../../respond.js';
import { actionCard } from '../../views/action-card.js';
import type { ActionView } from '../../../services/action-model.js';
import { patchActionBlocks } from '../../views/patch.js';
import { buttonListener } from '../error-policy.js';

function listSourceOf(body: BlockAction): ListSource | null {
  return listSourceOfBlockId(body.actions?.[0]?.block_id);
}

/** Put the new state where the person clicked: the Home tab, the message, or their ephemeral answer. */
export async function showWhereClicked(deps: SlackDeps, body: BlockAction, respond: Responder, view: ActionView, note?: string): Promise<void> {
  const teamId = body.team?.id ?? '';
  if (body.container?.type === 'view') {
    await publishHome(deps, teamId, body.user.id);
    return;
  }
  const channelId = body.channel?.id ?? body.container?.channel_id;
  const tz = await deps.profiles.tz(body.user.id);
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

/** After a card changed an action: the Home tabs of the clicker and the assignee (the clicker's own Home was just published if they clicked there). */
export async function refreshHomesAfterClick(deps: SlackDeps, body: BlockAction, view: ActionView): Promise<void> {
  const clicker = body.user.id;
  const people = [clicker, view.assignee?.slackUserId].filter((u) => u !== clicker || body.container?.type !== 'view');
  await refreshHomes(deps, body.team?.id ?? '', people);
}

/** Complete and Reopen buttons, on any message, ephemeral answer or the Home tab. */
export function registerCompleteReopen(app: App, deps: SlackDeps): void {
  for (const kind of ['complete', 'reopen'] as const) {
    app.action(
      ActionIds[kind],
      buttonListener(deps, kind, async ({ body, action, respond }) => {
        const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
        const id = action.value ?? '';
        const result = kind === 'complete' ? await deps.actions.complete(actor, id) : await deps.actions.reopen(actor, id);
        const [view] = await deps.actions.views([result.action], actor.teamId);
        const note = result.changed
          ? undefined
          : kind === 'complete'
            ? 'That action was already complete; the card now shows its current state.'
            : 'That action was already open; the card now shows its current state.';
        await showWhereClicked(deps, body, respond, view!, note);
        if (result.changed) await refreshHomesAfterClick(deps, body, view!);
      }),
    );
  }
}
