import type { App } from '@slack/bolt';
import { z } from 'zod';
import { describeError } from '../../../services/errors.js';
import type { SlackDeps } from '../../deps.js';
import { publishHome } from '../../home-publisher.js';
import { CallbackIds, FIELD_ACTION_ID, FieldIds, isCareId } from '../../ids.js';
import { damagedFormModal } from '../../views/simple-modals.js';

const MetaSchema = z.object({ requestId: z.string().regex(/^\d+$/), channel: z.string().optional(), ts: z.string().optional() });

/** The admin's "Approve link" modal: link the requester to the care user Id given. */
export function registerApproveLinkModal(app: App, deps: SlackDeps): void {
  app.view(CallbackIds.approveLinkModal, async ({ ack, body, view }) => {
    const admin = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    // Which request is decided and which message is updated come only from metadata we sealed for this admin.
    const issued = MetaSchema.safeParse(deps.signedMetadata.decode(view.private_metadata, { ...admin, form: CallbackIds.approveLinkModal }));
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.approveLinkModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal('Approve link') });
      return;
    }
    const meta = issued.data;
    const careUserId = (view.state.values[FieldIds.linkCareUserId]?.[FIELD_ACTION_ID]?.value ?? '').trim().toLowerCase();
    if (!isCareId(careUserId)) {
      await ack({ response_action: 'errors', errors: { [FieldIds.linkCareUserId]: 'A care user Id is 24 letters (a–f) and digits.' } });
      return;
    }
    try {
      const request = await deps.identity.decideRequest(admin, Number(meta.requestId), 'approved', careUserId);
      await ack();
      if (meta.channel && meta.ts) {
        await deps.slack.chat
          .update({ channel: meta.channel, ts: meta.ts, text: `Link request from <@${request.slackUserId}> approved by <@${admin.userId}>.`, blocks: [] })
          .catch((err) => deps.logger.warn('could not update the request message', { error: err }));
      }
      await deps.slack.chat.postMessage({
        channel: request.slackUserId,
        text: ':link: An admin linked your Slack account to the care system. Type `/care mine` to see your actions.',
      });
      await publishHome(deps, admin.teamId, request.slackUserId);
    } catch (err) {
      await ack({ response_action: 'errors', errors: { [FieldIds.linkCareUserId]: describeError(err).slice(0, 150) } });
    }
  });
}
