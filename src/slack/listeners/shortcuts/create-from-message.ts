import type { App, MessageShortcut } from '@slack/bolt';
import { CallbackIds } from '../../ids.js';
import { openCreateForm } from '../../forms/open-action-form.js';
import { tellByDm, withDmOnFailure } from '../error-policy.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

/** Message shortcut "Create care action": task prefilled from the message, confirmed in its thread. */
export function registerCreateFromMessage(app: App): void {
  app.shortcut<MessageShortcut>(CallbackIds.createFromMessage, async ({ ack, shortcut, context }) => {
    const deps = depsOf(context);
    await ack();
    const actor = { userId: shortcut.user.id };
    // A shortcut has no response_url: the person hears why in a DM instead of nothing happening.
    await withDmOnFailure(deps, actor.userId, { log: 'message shortcut failed', lead: 'I could not open the form' }, async () => {
      if (!(await deps.identity.getLink(actor))) {
        await tellByDm(deps, actor.userId, 'To create care actions from messages, link your care account first: type `/care link`.');
        return;
      }
      await openCreateForm(
        deps,
        shortcut.trigger_id,
        { teamId: workspaceOf(context), ...actor },
        {
          channelId: shortcut.channel.id,
          threadTs: shortcut.message.thread_ts ?? shortcut.message.ts,
          task: shortcut.message.text ?? '',
        },
      );
    });
  });
}
