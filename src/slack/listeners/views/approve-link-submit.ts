import type { App } from '@slack/bolt';
import { z } from 'zod';
import { publishHome } from '../../home-publisher.js';
import { CallbackIds, FIELD_ACTION_ID, FieldIds, isCareId } from '../../ids.js';
import { careAccountText, linkedNotice } from '../../views/links.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { fieldError } from '../error-policy.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const MetaSchema = z.object({ requestId: z.string().regex(/^\d+$/), channel: z.string().optional(), ts: z.string().optional() });

// Only strings get through, whatever arrives.
const ValuesSchema = z.record(
  z.string(),
  z.record(z.string(), z.looseObject({ value: z.string().nullish(), selected_option: z.looseObject({ value: z.string() }).nullish() })),
);

type Picked = { careUserId: string; from: string } | { errors: Record<string, string> };

/**
 * The care user the admin chose: picked from the list, or typed as an Id
 * (either is enough; both must agree). Errors go under a field the form shows.
 */
export function chosenCareUser(raw: unknown, shown: ReadonlySet<string>): Picked {
  const values = ValuesSchema.safeParse(raw);
  const fallback = shown.has(FieldIds.linkCareUser) ? FieldIds.linkCareUser : FieldIds.linkCareUserId;
  if (!values.success) return { errors: { [fallback]: 'The form arrived damaged; please close it and try again.' } };
  const listed = shown.has(FieldIds.linkCareUser) ? (values.data[FieldIds.linkCareUser]?.[FIELD_ACTION_ID]?.selected_option?.value ?? '') : '';
  const typed = (values.data[FieldIds.linkCareUserId]?.[FIELD_ACTION_ID]?.value ?? '').trim().toLowerCase();
  if (typed && !isCareId(typed)) return { errors: { [FieldIds.linkCareUserId]: 'A care user Id is 24 letters (a–f) and digits.' } };
  if (listed && !isCareId(listed)) return { errors: { [FieldIds.linkCareUser]: 'Pick the care user from the list again.' } };
  if (listed && typed && listed !== typed)
    return { errors: { [FieldIds.linkCareUserId]: 'This Id is not the care user picked above. Clear one of the two, or make them the same person.' } };
  if (!listed && !typed)
    return {
      errors: {
        [fallback]: shown.has(FieldIds.linkCareUser) ? 'Pick the care user from the list, or type their care user Id below.' : 'Give their care user Id.',
      },
    };
  return listed ? { careUserId: listed, from: FieldIds.linkCareUser } : { careUserId: typed, from: FieldIds.linkCareUserId };
}

/** The admin's "Approve link" modal: link the requester to the care user picked (or whose Id was given). */
export function registerApproveLinkModal(app: App): void {
  app.view(CallbackIds.approveLinkModal, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const admin = { userId: body.user.id };
    // Which request is decided and which message is updated come only from metadata we sealed for this admin.
    const issued = MetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...admin, form: CallbackIds.approveLinkModal }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.approveLinkModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal('Approve link') });
      return;
    }
    const meta = issued.data;
    const picked = chosenCareUser(view.state.values, new Set(view.blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : []))));
    if ('errors' in picked) {
      await ack({ response_action: 'errors', errors: picked.errors });
      return;
    }
    const { careUserId } = picked;
    const errorBlock = picked.from;
    try {
      const request = await deps.identity.decideRequest(admin, Number(meta.requestId), 'approved', careUserId);
      await ack();
      const user = (await deps.identity.careUsers([careUserId])).get(careUserId);
      const to = { careUserId, careUserName: user?.name, careUserEmail: user?.email, by: admin.userId };
      if (meta.channel && meta.ts) {
        const linked = user ? ` Linked to ${careAccountText(to)}.` : '';
        await deps.slack.chat
          .update({
            channel: meta.channel,
            ts: meta.ts,
            text: `Link request from <@${request.slackUserId}> approved by <@${admin.userId}>.${linked}`,
            blocks: [],
          })
          .catch((err) => deps.logger.warn('could not update the request message', { error: err }));
      }
      await deps.slack.chat.postMessage({ channel: request.slackUserId, text: linkedNotice(to) });
      await publishHome(deps, workspaceOf(context), request.slackUserId);
    } catch (err) {
      // An inline error is plain text: no code marks, no mentions.
      await ack({ response_action: 'errors', errors: { [errorBlock]: fieldError(deps.logger, 'approving a link failed', err, { plain: true }) } });
    }
  });
}
