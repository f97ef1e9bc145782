import type { ActionView, RenderContext } from '../../services/action-model.js';
import { actionCard, actionLabel } from './action-card.js';
import { section, type Block } from './blocks.js';

const VERBS = { complete: 'completed', reopen: 'reopened', take: 'took' } as const;

/**
 * The DM to an action's assignee when someone else completed, reopened or took
 * it through Slack: who, what, and the card (their own, so its buttons work as
 * on any card). The notification text names no task.
 */
export function changeNotice(a: ActionView, ctx: RenderContext, change: { kind: keyof typeof VERBS; by: string }): { text: string; blocks: Block[] } {
  const text = `<@${change.by}> ${VERBS[change.kind]} your action ${actionLabel(a)}`;
  const more = change.kind === 'take' ? ' It is now assigned to them.' : '';
  return { text, blocks: [section(`:bust_in_silhouette: *${text}*.${more}`), ...actionCard(a, { ...ctx, shared: false })] };
}
