import type { App } from '@slack/bolt';
import { ActionIds, CallbackIds, isCareId } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { REASSIGN_TITLE } from '../../reassign-flow.js';
import { reassignPickModal } from '../../views/reassign.js';
import { workspaceOf } from '../../workspace-on-context.js';
import { buttonListener } from '../error-policy.js';

/**
 * "Reassign work" on a carer of the admins' Team view (value: their care user
 * Id): a modal asks who gets it and which of it; the next step counts what
 * moves before anything does. Admins only (checked again at every step).
 */
export function registerReassignWorkButton(app: App): void {
  app.action(
    ActionIds.reassignWork,
    buttonListener('reassign-work', async ({ body, action, context }, deps) => {
      const admin = { userId: body.user.id };
      const careUserId = action.value ?? '';
      if (!isCareId(careUserId)) throw new Error('the Reassign work button carried no care user Id');
      const flow = { triggerId: body.trigger_id, title: REASSIGN_TITLE, log: 'could not open Reassign work' };
      await openThenFill(deps, flow, async () => {
        await deps.identity.requireAdmin(admin);
        const from = await deps.reassign.person({ type: 'care', id: careUserId });
        return reassignPickModal(from, deps.signedMetadata.encode({ from }, { teamId: workspaceOf(context), ...admin, form: CallbackIds.reassignPick }));
      });
    }),
  );
}
