import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';
import { clickedOnSharedPost, clickedPostOf } from '../../surface.js';
import { changedWithUndo, refreshHomesAfterClick, showWhereClicked } from '../after-click.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/**
 * Complete and Reopen buttons, on any message, ephemeral answer or the Home tab.
 * On a channel post (where they ask first, see cardButtons) the post then says
 * who did it, with Undo for UNDO_WINDOW_MS (see undo.ts).
 */
export function registerCompleteReopen(app: App): void {
  for (const kind of ['complete', 'reopen'] as const) {
    app.action(
      ActionIds[kind],
      buttonListener(kind, async ({ body, action, respond, context }, deps) => {
        const actor = { userId: body.user.id, at: clickedPostOf(body) };
        const id = action.value ?? '';
        const result = kind === 'complete' ? await deps.actions.complete(actor, id) : await deps.actions.reopen(actor, id);
        const [view] = await deps.actions.views([result.action]);
        const note = result.changed
          ? undefined
          : kind === 'complete'
            ? 'That action was already complete; the card now shows its current state.'
            : 'That action was already open; the card now shows its current state.';
        const changedBy =
          result.changed && clickedOnSharedPost(body) ? changedWithUndo(deps, workspaceOf(context), actor.userId, result.action, { kind }) : undefined;
        await showWhereClicked(deps, workspaceOf(context), body, respond, view!, note, changedBy);
        if (result.changed) await refreshHomesAfterClick(deps, workspaceOf(context), body, view!);
      }),
    );
  }
}
