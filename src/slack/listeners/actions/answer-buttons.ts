import type { App, BlockAction, types } from '@slack/bolt';

type KnownBlock = types.KnownBlock;
import type { AnswerOutcome } from '../../../services/urgent/episode-answers.js';
import { ANSWER_UNDO_MS } from '../../../services/urgent/episode-answers.js';
import { answerUndoValue, readAnswerUndo } from '../../sealed/answer-undo-token.js';
import type { SlackDeps } from '../../deps.js';
import { ActionIds, CallbackIds, isCareId } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { actionLabel, assigneeText } from '../../views/action-card.js';
import { CANT_TITLE, cantModal, ON_IT_TITLE, onItModal } from '../../views/answer-modals.js';
import { answerConfirmation } from '../../views/answer-confirmation.js';
import { messageModal } from '../../views/simple-modals.js';
import { workspaceOf } from '../../workspace-on-context.js';
import { buttonListener, tellClicker } from '../error-policy.js';

/** Where an answer was given: the conversation of the post clicked (null on the Home tab or in a modal). */
export interface AnswerPlace {
  channel: string | null;
}

export function placeOf(body: BlockAction): AnswerPlace {
  const channel = body.container?.type === 'view' ? null : (body.channel?.id ?? body.container?.channel_id ?? null);
  return { channel: channel ?? null };
}

/**
 * Tell the person who answered, privately (an ephemeral message where they clicked, else a DM): what was
 * recorded, with their note, and Undo for a few minutes; or why nothing was.
 */
export async function tellAnswerer(
  deps: SlackDeps,
  actor: { teamId: string; userId: string },
  place: AnswerPlace,
  outcome: AnswerOutcome,
  note?: string | null,
): Promise<void> {
  const [view] = await deps.actions.views([outcome.action]);
  const undo = outcome.kind === 'recorded' ? answerUndoValue(deps.signedMetadata, actor.teamId, actor.userId, outcome.action._id, outcome.answer.id) : null;
  const message = answerConfirmation(view!, outcome.kind === 'recorded' ? outcome.answer.answer : null, outcome.kind, {
    note: note ?? null,
    undo: undo ? { value: undo, minutes: ANSWER_UNDO_MS / 60_000 } : null,
  });
  await tellPrivately(deps, actor.userId, place, message);
}

/** A message for one person: ephemeral in the conversation they clicked in, else (or when that fails) a DM. */
async function tellPrivately(deps: SlackDeps, userId: string, place: AnswerPlace, message: { text: string; blocks?: KnownBlock[] }): Promise<void> {
  const post = place.channel
    ? deps.slack.chat.postEphemeral({ channel: place.channel, user: userId, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) })
    : deps.slack.chat.postMessage({ channel: userId, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
  await post.catch(async (err) => {
    deps.logger.warn('could not tell someone privately where they clicked; told by DM', { error: err });
    await deps.slack.chat.postMessage({ channel: userId, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) }).catch(() => undefined);
  });
}

/** The sealed metadata of an answer modal: which action, and where it was clicked. */
export interface AnswerModalMeta {
  actionId: string;
  channel: string | null;
}

/**
 * "I'm on it" and "I can't" (value: the action Id) open their modals (they ask first); "Join" (asked first by
 * its confirm) records at once; Undo of an answer, by the one who gave it, once, for a few minutes.
 */
export function registerAnswerButtons(app: App): void {
  for (const kind of ['on-it', 'cant'] as const) {
    app.action(
      kind === 'on-it' ? ActionIds.onIt : ActionIds.cant,
      buttonListener(kind === 'on-it' ? 'on it' : 'cant', async ({ body, action, context }, deps) => {
        const actor = { userId: body.user.id };
        const id = action.value ?? '';
        if (!isCareId(id)) throw new Error('the answer button carried no action Id');
        const title = kind === 'on-it' ? ON_IT_TITLE : CANT_TITLE;
        await openThenFill(deps, { triggerId: body.trigger_id, title, log: `could not open the ${kind} form` }, async () => {
          const current = await deps.actions.resolve({ type: 'id', id });
          const [view] = await deps.actions.views([current]);
          if (current.completed || !current.urgent || !(await deps.answers.episodeOf(id)))
            return messageModal(title, `${actionLabel(view!)} is not asking for anyone now (it is completed, no longer urgent, or was never alerted).`);
          const form = kind === 'on-it' ? CallbackIds.onItModal : CallbackIds.cantModal;
          const meta: AnswerModalMeta = { actionId: id, channel: placeOf(body).channel };
          const sealed = deps.signedMetadata.encode(meta, { teamId: workspaceOf(context), ...actor, form });
          return kind === 'on-it'
            ? onItModal(sealed, { label: actionLabel(view!), assignee: view!.assignee ? assigneeText(view!) : null })
            : cantModal(sealed, { label: actionLabel(view!) });
        });
      }),
    );
  }

  app.action(
    ActionIds.joinIn,
    buttonListener('join', async ({ body, action, context }, deps) => {
      const actor = { userId: body.user.id };
      const id = action.value ?? '';
      if (!isCareId(id)) throw new Error('the Join button carried no action Id');
      const outcome = await deps.answers.answer(actor, { actionId: id, answer: 'join' });
      await tellAnswerer(deps, { teamId: workspaceOf(context), ...actor }, placeOf(body), outcome);
    }),
  );

  app.action(
    ActionIds.answerUndo,
    buttonListener('undo an answer', async ({ body, action, respond, context }, deps) => {
      const actor = { userId: body.user.id };
      const grant = readAnswerUndo(deps.signedMetadata, workspaceOf(context), action.value);
      if (!grant) {
        await tellClicker(deps, body, respond, 'This Undo is no longer valid.');
        return;
      }
      if (grant.by !== actor.userId) {
        await tellClicker(deps, body, respond, `Only <@${grant.by}> can undo this.`);
        return;
      }
      const result = await deps.answers.undo(actor, grant.actionId, grant.answerId);
      const said: Record<typeof result, string> = {
        undone: ':leftwards_arrow_with_hook: Undone: your answer no longer shows, and the escalation goes on where its timetable is.',
        spent: 'This answer was already undone.',
        'not-yours': `Only <@${grant.by}> can undo this.`,
        'too-late': `It is too late to undo: Undo works for ${ANSWER_UNDO_MS / 60_000} minutes after answering.`,
        gone: 'That answer is no longer kept.',
      };
      if (result === 'undone') await tellPrivately(deps, actor.userId, placeOf(body), { text: said.undone });
      else await tellClicker(deps, body, respond, said[result]);
    }),
  );
}
