import type { App } from '@slack/bolt';
import { publishHome } from '../../home-publisher.js';
import { ActionIds } from '../../ids.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** "Retry" beside a failed delivery on an admin's Home tab: send it again now (once), then show the new numbers. */
export function registerRetryDeliveryButton(app: App): void {
  app.action(
    ActionIds.retryDelivery,
    buttonListener('retry delivery', async ({ body, action, context }, deps) => {
      const actor = { userId: body.user.id };
      const { result, delivery } = await deps.status.retry(actor, Number(action.value));
      deps.logger.info('an admin retried a delivery', { userId: actor.userId, deliveryId: delivery.id, kind: delivery.kind, result });
      await publishHome(deps, workspaceOf(context), actor.userId);
    }),
  );
}
