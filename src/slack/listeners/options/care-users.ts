import type { App } from '@slack/bolt';
import { z } from 'zod';
import { CallbackIds, FieldIds } from '../../ids.js';
import { careUserOption } from '../../views/simple-modals.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const BUDGET_MS = 2500;

/** The request the approval form decides, from its sealed metadata (absent: the options go unmarked). */
const MetaSchema = z.object({ requestId: z.string().regex(/^\d+$/) });

/**
 * Care users for the approval form's list, by name or email as the admin
 * types, each marked when already linked to someone of the workspace or when
 * their email is not the requester's. Admins only: anyone else gets no options
 * (names and emails of care staff are not for everyone). Past the budget, or
 * when users cannot be read, the list is empty and the form's Id field remains.
 */
export function registerCareUserOptions(app: App): void {
  app.options<'block_suggestion'>({ type: 'block_suggestion', block_id: FieldIds.linkCareUser }, async ({ ack, body, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const query = 'value' in body && typeof body.value === 'string' ? body.value : '';
    const sealed = body.view?.private_metadata;
    const meta = sealed
      ? MetaSchema.safeParse(deps.signedMetadata.decode(sealed, { teamId: workspaceOf(context), ...actor, form: CallbackIds.approveLinkModal }))
      : undefined;
    const requestId = meta?.success ? Number(meta.data.requestId) : undefined;
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), BUDGET_MS).unref());
    const found = await Promise.race([
      (async () => ((await deps.identity.isAdmin(actor)) ? deps.identity.linkChoices(actor, query, requestId) : null))().catch((err) => {
        deps.logger.warn('could not list care users for the approval form', { error: err });
        return null;
      }),
      timeout,
    ]);
    await ack({ options: (found?.users ?? []).slice(0, 100).map(careUserOption) });
  });
}
