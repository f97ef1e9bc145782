import type { App } from '@slack/bolt';
import { FieldIds } from '../../ids.js';
import { assigneeOption } from '../../views/action-form-modal.js';
import { depsOf } from '../../workspace-on-context.js';

const BUDGET_MS = 2500;

/**
 * The action form's assignee picker: everyone on the rota (every care user of
 * the care system), by name as the person types, each not linked to Slack in
 * this workspace marked so ("… — not in Slack: they see it in the care
 * system"). Names only, no emails; for linked people (only they can save the
 * form) and admins (Reassign work's "Move them to" asks the same way). Past the budget, or when users cannot be read, the list is empty.
 */
export function registerAssigneeOptions(app: App): void {
  app.options<'block_suggestion'>({ type: 'block_suggestion', block_id: FieldIds.assignee }, async ({ ack, body, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const query = 'value' in body && typeof body.value === 'string' ? body.value : '';
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), BUDGET_MS).unref());
    const found = await Promise.race([
      (async () => ((await deps.identity.getLink(actor)) || (await deps.identity.isAdmin(actor)) ? deps.identity.assigneeChoices(actor, query) : null))().catch(
        (err) => {
          deps.logger.warn('could not list care users for the assignee picker', { error: err });
          return null;
        },
      ),
      timeout,
    ]);
    await ack({ options: (found?.users ?? []).slice(0, 100).map(assigneeOption) });
  });
}
