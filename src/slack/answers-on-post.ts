import type { types } from '@slack/bolt';
import type { ActionView, AnswersShown, RenderContext } from '../services/action-model.js';
import type { SlackDeps } from './deps.js';
import { BlockIds, isActionBlock } from './ids.js';
import type { Block } from './views/blocks.js';
import { withAnswerBlocks } from './views/episode-answers.js';

/** What an urgent post's answers are now: null when the post shows none (or they could not be read: left as they are). */
export type AnswersOnPost = { shown: AnswersShown | undefined } | null;

/**
 * An urgent post's answers as they are now, when the post shows them or is the action's urgent alert (whose answers
 * come back when it is urgent again) (episode-answers.ts).
 */
export async function answersOnPost(deps: Pick<SlackDeps, 'answers'>, blocks: types.AnyBlock[], view: ActionView): Promise<AnswersOnPost> {
  const ours = [BlockIds.answers(view.id), BlockIds.answerButtons(view.id)];
  const ids = blocks.map((b) => ('block_id' in b ? b.block_id : undefined));
  if (!ids.some((id) => ours.includes(id ?? '') || isActionBlock(id, 'alert', view.id))) return null;
  return deps.answers.shown(view).then(
    (shown) => ({ shown }),
    () => null,
  );
}

/**
 * The patched blocks with the answers drawn as they are now: Take it on a two-person action shows "1 of 2";
 * completed or no longer urgent, no more "I'm on it" / "I can't"; urgent again (an Undo), they come back.
 */
export function withAnswersNow(answers: AnswersOnPost, patched: types.AnyBlock[] | null, view: ActionView, ctx: RenderContext): types.AnyBlock[] | null {
  if (!patched || !answers) return patched;
  return withAnswerBlocks({ text: '', blocks: patched as Block[] }, view, { ...ctx, answers: answers.shown }).blocks as types.AnyBlock[];
}
