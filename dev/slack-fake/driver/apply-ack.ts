import { ApiError } from '../api/api-error.js';
import { parseContent } from '../api/content.js';
import { formatBlockError } from '../block-kit/limits.js';
import { validateView } from '../block-kit/validate-view.js';
import type { FakeStore } from '../store.js';
import type { FakeChannel, SlackUser } from '../types.js';
import { closeModals, modalStack, pushModal, updateView, type ViewInput } from '../view-ops.js';
import type { AppAnswer } from './send.js';

/** What Slack shows when it could not use the app's answer. */
export const TROUBLE_CONNECTING = 'We had some trouble connecting. Try again?';

export type SubmitOutcome = 'closed' | 'errors' | 'updated' | 'pushed' | 'cleared' | 'client_errors' | 'not_acked' | 'invalid_ack';

type Obj = Record<string, unknown>;

function showGeneralError(store: FakeStore, user: string, message: string): void {
  const top = modalStack(store, user).at(-1);
  if (top) {
    top.generalError = message;
    store.emit({ kind: 'view.updated', user, viewId: top.view.id });
  }
}

/**
 * Applies the app's answer to a view_submission like Slack: empty closes the
 * top view; `errors` shows inline errors (keys must be input block_ids);
 * `update` / `push` / `clear`; anything else (or no answer in time) leaves
 * the modal open with Slack's "trouble connecting" banner.
 */
export function applySubmissionAck(store: FakeStore, user: string, answer: AppAnswer): { outcome: SubmitOutcome; problem?: string } {
  const top = modalStack(store, user).at(-1);
  if (!top) return { outcome: 'invalid_ack', problem: 'no modal open' };
  if (!answer.acked) {
    showGeneralError(store, user, TROUBLE_CONNECTING);
    return { outcome: 'not_acked', problem: answer.failure ?? 'not acked' };
  }
  if (answer.text.trim() === '') {
    closeModals(store, user, false);
    return { outcome: 'closed' };
  }
  const body = answer.json as Obj | undefined;
  const fail = (problem: string) => {
    showGeneralError(store, user, TROUBLE_CONNECTING);
    return { outcome: 'invalid_ack' as const, problem };
  };
  if (!body || typeof body !== 'object') return fail('answer is not JSON');
  switch (body.response_action) {
    case 'errors': {
      const errors = body.errors as Obj | undefined;
      if (!errors || typeof errors !== 'object') return fail('errors must be an object');
      const inputIds = new Set(top.view.blocks.filter((b) => b.type === 'input').map((b) => b.block_id as string));
      const unknown = Object.keys(errors).filter((k) => !inputIds.has(k));
      if (unknown.length > 0) return fail(`errors for block_ids that are not input blocks: ${unknown.join(', ')}`);
      top.errors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
      store.emit({ kind: 'view.updated', user, viewId: top.view.id });
      return { outcome: 'errors' };
    }
    case 'update':
    case 'push': {
      const problems = validateView(body.view, 'modal');
      if (problems.length > 0) return fail(problems.map(formatBlockError).join('; '));
      try {
        if (body.response_action === 'update') {
          updateView(store, { surface: 'modal', user, record: top, index: modalStack(store, user).length - 1 }, body.view as ViewInput);
          return { outcome: 'updated' };
        }
        pushModal(store, user, body.view as ViewInput);
        return { outcome: 'pushed' };
      } catch (e) {
        if (e instanceof ApiError) return fail(e.error);
        throw e;
      }
    }
    case 'clear':
      closeModals(store, user, true);
      return { outcome: 'cleared' };
    default:
      return fail(`unknown response_action: ${String(body.response_action)}`);
  }
}

/**
 * A slash command's ack body is a message: plain text or `{text, blocks,
 * response_type}`; ephemeral unless `in_channel`. Empty shows nothing.
 */
export function applyCommandAck(store: FakeStore, user: SlackUser, channel: FakeChannel, answer: AppAnswer): void {
  if (!answer.acked || answer.text.trim() === '') return;
  const body: Obj = answer.json && typeof answer.json === 'object' ? (answer.json as Obj) : { text: answer.text };
  let content: ReturnType<typeof parseContent>;
  try {
    content = parseContent(body, { requireSomething: true });
  } catch {
    return;
  }
  const ts = store.newTs();
  if (body.response_type === 'in_channel') {
    const { bot, team } = store.state;
    store.addMessage({
      type: 'message',
      ts,
      channel: channel.id,
      user: bot.userId,
      bot_id: bot.botId,
      app_id: bot.appId,
      team: team.id,
      text: content.text ?? '',
      ...(content.blocks ? { blocks: content.blocks } : {}),
      via: 'command_ack',
    });
  } else {
    store.addEphemeral({
      ts,
      channel: channel.id,
      user: user.id,
      text: content.text ?? '',
      ...(content.blocks ? { blocks: content.blocks } : {}),
      via: 'command_ack',
    });
  }
}
