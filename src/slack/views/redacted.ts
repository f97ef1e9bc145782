/**
 * What the app's own post or DM about a completed action becomes once the workspace's retention is over
 * (services/evidence/retention.ts): one neutral line, no task, no people, no buttons.
 */
import { userText } from '../text.js';
import { context, type Block } from './blocks.js';

/** "Action #301 — completed; details in the care system" (the Id when the action has no number). */
export function redactedText(action: { actionId: string; actionNo: string }): string {
  const label = action.actionNo ? `#${userText(action.actionNo, 30)}` : `Id ${userText(action.actionId, 40)}`;
  return `Action ${label} — completed; details in the care system`;
}

export function redactedMessage(action: { actionId: string; actionNo: string }): { text: string; blocks: Block[] } {
  const text = redactedText(action);
  return { text, blocks: [context(text)] };
}
