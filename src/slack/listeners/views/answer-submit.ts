import type { App } from '@slack/bolt';
import { z } from 'zod';
import { CARE_ID, CallbackIds, FIELD_ACTION_ID, FieldIds } from '../../ids.js';
import { CANT_TITLE, ON_IT_TITLE } from '../../views/answer-modals.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';
import { tellAnswerer } from '../actions/answer-buttons.js';
import { withDmOnFailure } from '../error-policy.js';

const MetaSchema = z.object({ actionId: z.string().regex(CARE_ID), channel: z.string().nullable() });
const SLACK_USER = /^[UW][A-Z0-9]+$/;

type Values = Record<string, Record<string, { value?: string | null; selected_user?: string | null; selected_option?: { value?: string } | null }>>;

/** What an answer modal was filled with. Pure. */
export function readAnswerForm(values: Values): { note: string | null; doer: string | null; reason: string | null } {
  const field = (id: string) => values[id]?.[FIELD_ACTION_ID];
  const note = field(FieldIds.answerNote)?.value?.trim() || null;
  const doer = field(FieldIds.answerDoer)?.selected_user ?? null;
  return { note, doer: doer && SLACK_USER.test(doer) ? doer : null, reason: field(FieldIds.cantReason)?.selected_option?.value ?? null };
}

/**
 * "I'm on it" and "I can't" submitted: closes at once, records the answer (services/urgent/episode-answers.ts: audited,
 * the assignee told, every post redrawn) and tells the person privately, with Undo.
 */
export function registerAnswerSubmits(app: App): void {
  for (const [form, answer, title] of [
    [CallbackIds.onItModal, 'on-it', ON_IT_TITLE],
    [CallbackIds.cantModal, 'cant', CANT_TITLE],
  ] as const) {
    app.view(form, async ({ ack, body, view, context }) => {
      const deps = depsOf(context);
      const actor = { userId: body.user.id };
      const issued = MetaSchema.safeParse(deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form }));
      if (!issued.success) {
        deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', { form, userId: body.user.id });
        await ack({ response_action: 'update', view: damagedFormModal(title) });
        return;
      }
      const filled = readAnswerForm(view.state.values as Values);
      await ack();
      await withDmOnFailure(deps, actor.userId, { log: `${answer} failed`, lead: 'Your answer was not recorded' }, async () => {
        const outcome = await deps.answers.answer(actor, {
          actionId: issued.data.actionId,
          answer,
          reason: filled.reason,
          note: filled.note,
          doer: filled.doer,
        });
        await tellAnswerer(deps, { teamId: workspaceOf(context), ...actor }, { channel: issued.data.channel }, outcome, filled.note);
      });
    });
  }
}
