import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { FieldIds } from '../../ids.js';
import { careUserOption } from '../../views/simple-modals.js';

const BUDGET_MS = 2500;

/**
 * Care users for the approval form's list, by name or email as the admin
 * types. Admins only: anyone else gets no options (names and emails of care
 * staff are not for everyone). Past the budget, or when users cannot be read,
 * the list is empty and the form's Id field remains.
 */
export function registerCareUserOptions(app: App, deps: SlackDeps): void {
  app.options<'block_suggestion'>({ type: 'block_suggestion', block_id: FieldIds.linkCareUser }, async ({ ack, body }) => {
    const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
    const query = 'value' in body && typeof body.value === 'string' ? body.value : '';
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), BUDGET_MS).unref());
    const found = await Promise.race([
      (async () => ((await deps.identity.isAdmin(actor)) ? deps.identity.findCareUsers(query) : null))().catch((err) => {
        deps.logger.warn('could not list care users for the approval form', { error: err });
        return null;
      }),
      timeout,
    ]);
    await ack({ options: (found?.users ?? []).slice(0, 100).map(careUserOption) });
  });
}
