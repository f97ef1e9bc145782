/**
 * Task text in a public channel's digest takes a second, explicit step: the
 * reply to `/care digest here … --show-tasks` asks, with a button that says who
 * can read the channel. Pure.
 */
import type { ShowTasksResult } from '../../services/shift-work/channel-setup.js';
import { ActionIds, BlockIds } from '../ids.js';
import { actions, button, section, type Block } from './blocks.js';

/** The button's words: what pressing it means, on the button itself (≤ 75 characters). */
export const SHOW_TASKS_BUTTON = 'Show task text: everyone in the workspace, guests included, can read it';

/** Under the reply: why the text is still hidden, and the button (its value: the digest's set-up time). */
export function showTasksQuestion(channelId: string, setUpAt: number): Block[] {
  return [
    section(
      `:lock: <#${channelId}> is a public channel: everyone in the workspace, guests included, can read it and its history, now and later. Task text often names residents and their care. Show it here only if that is what your organisation allows.`,
    ),
    actions(BlockIds.showTasks, [button(SHOW_TASKS_BUTTON, ActionIds.showTasksConfirm, String(setUpAt), 'danger')]),
  ];
}

/** What the reply says once the button was pressed. */
export function showTasksAnswer(channelId: string, result: ShowTasksResult): string {
  switch (result) {
    case 'shown':
      return `:white_check_mark: Task text is now shown in <#${channelId}>'s digest and posts, as you confirmed. \`/care digest here\` without --show-tasks hides it again.`;
    case 'changed':
      return 'This digest was set again since: that setting decides. To show task text, type `/care digest here … --show-tasks` again.';
    default:
      return 'This channel has no digest any more. Set one up with `/care digest here`.';
  }
}
