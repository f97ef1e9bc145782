/**
 * Slack's documented Block Kit limits, as one table. Slack refuses a payload over any of them (often the
 * whole message or view), while the Slack fake accepts it: the view-builder limits test checks every view
 * builder's output against this table. Sources: F = /work/shared/facts/slack.md ("Modals and Block Kit
 * limits" and "Checked against Slack's docs and SDK in 2026"); D = docs.slack.dev reference pages
 * (reference/block-kit/blocks, …/block-elements, …/composition-objects, reference/views, methods/chat.postMessage).
 */
export const SLACK_LIMITS = {
  /** Blocks in one message (F; D chat.postMessage `blocks`). */
  messageBlocks: 50,
  /** Blocks in a modal or the Home tab (F; D reference/views). */
  viewBlocks: 100,
  /** A message's top-level `text` (D chat.postMessage: truncated past 40,000; we stay under). */
  messageText: 40_000,
  /** A section's `text` (F; D section block). */
  sectionText: 3000,
  /** Fields in a section, and each field's text (F; D section block). */
  sectionFields: 10,
  sectionFieldText: 2000,
  /** A header's plain_text (F; D header block). */
  headerText: 150,
  /** Elements in a context block (D context block). */
  contextElements: 10,
  /** Elements in an actions block (D actions block: up to 25). */
  actionsElements: 25,
  /** A button's text and value (F; D button element). */
  buttonText: 75,
  buttonValue: 2000,
  /** A button's url (D button element). */
  buttonUrl: 3000,
  /** `action_id` and `block_id` (F; D blocks / block elements). */
  actionId: 255,
  blockId: 255,
  /** An option's text and value (F "Option text ≤ 75, value ≤ 150"; D option object). */
  optionText: 75,
  optionValue: 150,
  /** Options in a select menu (F; D select menus), and in checkboxes or radio buttons (F). */
  selectOptions: 100,
  checkboxOptions: 10,
  /** A select's or input's placeholder (D select menus / plain-text input: 150). */
  placeholder: 150,
  /** An input block's label and hint (D input block: 2000 each). */
  inputLabel: 2000,
  inputHint: 2000,
  /** A modal's title, submit and close (F; D reference/views). */
  modalTitle: 24,
  modalSubmit: 24,
  modalClose: 24,
  /** A view's private_metadata (F; D reference/views). */
  privateMetadata: 3000,
  /** A view's callback_id and external_id (D reference/views: 255). */
  callbackId: 255,
  /** A confirmation dialog's title, text, confirm and deny, all plain_text (F: 100 / 300 / 30 / 30). */
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** An image's alt_text (D image block/element: 2000). */
  imageAltText: 2000,
} as const;

export type SlackSurface = 'message' | 'modal' | 'home';

/** Blocks that render only on some surfaces (F: `alert` only in modals; `card`/`carousel` not in modals). */
export const ONLY_ON: Record<string, SlackSurface[]> = {
  alert: ['modal'],
  card: ['message', 'home'],
  carousel: ['message', 'home'],
};

/** Fields Slack accepts only as plain_text (F: header, button and option text, titles, confirm dialogs; D). */
export const PLAIN_TEXT_ONLY = [
  'header.text',
  'button.text',
  'option.text',
  'view.title',
  'view.submit',
  'view.close',
  'confirm.*',
  'placeholder',
  'input.label',
] as const;
