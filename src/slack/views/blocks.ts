import type { types } from '@slack/bolt';
import { plain } from '../text.js';
import { cut, cutId } from '../cut.js';

export type Block = types.KnownBlock;

export const mrkdwn = (text: string): types.MrkdwnElement => ({ type: 'mrkdwn', text: cut(text, 3000) });
export const plainText = (text: string, max = 3000): types.PlainTextElement => ({ type: 'plain_text', text: plain(text, max), emoji: true });

export function section(text: string, extra: Partial<types.SectionBlock> = {}): types.SectionBlock {
  return { type: 'section', text: mrkdwn(text), ...extra };
}

export function header(text: string): types.HeaderBlock {
  return { type: 'header', text: plainText(text, 150) };
}

export function context(...texts: string[]): types.ContextBlock {
  return { type: 'context', elements: texts.slice(0, 10).map((t) => mrkdwn(t)) };
}

export const divider = (): types.DividerBlock => ({ type: 'divider' });

export function button(text: string, actionId: string, value: string, style?: 'primary' | 'danger', confirm?: types.ConfirmationDialog): types.Button {
  return {
    type: 'button',
    text: plainText(text, 75),
    action_id: actionId,
    value: cutId(value, 2000),
    ...(style ? { style } : {}),
    ...(confirm ? { confirm } : {}),
  };
}

/**
 * A "are you sure?" dialog Slack shows before sending the click (title ≤ 100, text ≤ 300, buttons ≤ 30
 * characters). Slack shows its text as plain text: no mrkdwn, no mentions; name people by their names.
 */
export function confirmDialog(title: string, text: string, confirm: string, deny = 'Cancel'): types.ConfirmationDialog {
  return { title: plainText(title, 100), text: plainText(text, 300), confirm: plainText(confirm, 30), deny: plainText(deny, 30) };
}

export function actions(blockId: string, elements: types.ActionsBlockElement[]): types.ActionsBlock {
  return { type: 'actions', block_id: cutId(blockId, 255), elements };
}

/** A button that opens a web page (Slack still sends the app a block_actions, which it acks). */
export function linkButton(text: string, actionId: string, url: string): types.Button {
  return { type: 'button', text: plainText(text, 75), action_id: actionId, url: cutId(url, 3000) };
}

/** A menu of choices acted on as soon as one is picked (outside input blocks). */
export function staticSelect(actionId: string, placeholder: string, options: { text: string; value: string }[]): types.StaticSelect {
  return {
    type: 'static_select',
    action_id: actionId,
    placeholder: plainText(placeholder, 150),
    options: options.slice(0, 100).map((o) => ({ text: plainText(o.text, 75), value: cutId(o.value, 150) })),
  };
}
