import type { App } from '@slack/bolt';
import { publishHome } from '../../home-publisher.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { approveLinkModal } from '../../views/simple-modals.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

const TITLE = 'Approve link';

/** Approve / Reject on a link request in an admin's DM. */
export function registerLinkRequestButtons(app: App): void {
  app.action(
    ActionIds.approveLink,
    buttonListener('approve link', async ({ body, action, context }, deps) => {
      // Only the store is read before views.open (the trigger lives 3 s); that the clicker is an
      // admin is checked when the form is submitted (decideRequest), before anything changes.
      const admin = { userId: body.user.id };
      const request = await deps.identity.pendingRequest(Number(action.value));
      await openThenFill(deps, { triggerId: body.trigger_id, title: TITLE, log: 'could not fill the approval form' }, async () => {
        const meta = {
          requestId: String(request.id),
          ...(body.channel?.id ? { channel: body.channel.id } : {}),
          ...(body.message?.ts ? { ts: body.message.ts } : {}),
        };
        const sealed = deps.signedMetadata.encode(meta, { teamId: workspaceOf(context), ...admin, form: CallbackIds.approveLinkModal });
        // Who asked (name and email from Slack), whether care users can be listed, and the care user they named, if any.
        const [profile, canSearch, named] = await Promise.all([
          deps.profiles.get(request.slackUserId).catch(() => null),
          deps.identity.canListCareUsers(),
          request.careUserId ? deps.identity.careUsers([request.careUserId]) : Promise.resolve(new Map()),
        ]);
        const suggested = request.careUserId ? (named.get(request.careUserId) ?? { id: request.careUserId }) : undefined;
        const requester = { slackUserId: request.slackUserId, ...(profile ? { name: profile.name, email: profile.email } : {}) };
        return approveLinkModal(CallbackIds.approveLinkModal, sealed, requester, { canSearch, ...(suggested ? { suggested } : {}) });
      });
    }),
  );

  app.action(
    ActionIds.rejectLink,
    buttonListener('reject link', async ({ body, action, context }, deps) => {
      const admin = { userId: body.user.id };
      const request = await deps.identity.decideRequest(admin, Number(action.value), 'rejected');
      if (body.channel?.id && body.message?.ts) {
        await deps.slack.chat.update({
          channel: body.channel.id,
          ts: body.message.ts,
          text: `Link request from <@${request.slackUserId}> rejected by <@${admin.userId}>.`,
          blocks: [],
        });
      }
      await deps.slack.chat.postMessage({
        channel: request.slackUserId,
        text: 'An admin did not approve your request to link your care account. Ask them if you think this is wrong.',
      });
      await publishHome(deps, workspaceOf(context), request.slackUserId);
    }),
  );
}
