/** Block Kit limits the fake enforces (see /work/shared/facts/slack.md). */
export const LIMITS = {
  blocksPerMessage: 50,
  blocksPerView: 100,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  buttonText: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  actionId: 255,
  blockId: 255,
  value: 2000,
  url: 3000,
  selectOptions: 100,
  optionGroups: 100,
  optionText: 75,
  optionValue: 150,
  choiceOptions: 10,
  overflowOptions: 5,
  actionsElements: 25,
  contextElements: 10,
  placeholder: 150,
  label: 2000,
  hint: 2000,
  altText: 2000,
  markdownBlockText: 12000,
  plainTextInputLength: 3000,
  viewTitle: 24,
  viewButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
  viewStack: 3,
  messageText: 40000,
} as const;

/** One reason a payload was refused, pointing into it like Slack's `[json-pointer:...]`. */
export interface BlockError {
  message: string;
  pointer: string;
}

/** Slack's `response_metadata.messages` line. */
export function formatBlockError(error: BlockError): string {
  return `[ERROR] ${error.message} [json-pointer:${error.pointer}]`;
}
