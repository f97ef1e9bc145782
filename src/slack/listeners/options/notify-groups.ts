import type { App } from '@slack/bolt';
import { FieldIds } from '../../ids.js';
import { plain } from '../../text.js';
import { depsOf } from '../../workspace-on-context.js';

const BUDGET_MS = 2500;

/** Notification groups for the modal's multi external select, loaded as the person types. */
export function registerNotifyGroupOptions(app: App): void {
  app.options<'block_suggestion'>({ type: 'block_suggestion', block_id: FieldIds.notify }, async ({ ack, body, context }) => {
    const deps = depsOf(context);
    const query = 'value' in body && typeof body.value === 'string' ? body.value : '';
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), BUDGET_MS).unref());
    const groups = await Promise.race([deps.directory.notificationGroups(query).catch(() => null), timeout]);
    if (!groups) {
      await ack({ options: [] });
      return;
    }
    await ack({ options: groups.slice(0, 100).map((g) => ({ text: { type: 'plain_text' as const, text: plain(g.name, 75) }, value: g.id })) });
  });
}
