/**
 * Connecting a workspace to its care account: the App Home card, the form
 * (address, account Id, API key and secret), "Checking…", and what the check
 * found. Pure: data in, Block Kit out.
 */
import type { types } from '@slack/bolt';
import { type CareAddressChoice, careAddressHost } from '../../services/admin/care-address.js';
import { type ConnectionCheck, connectionReport } from '../../services/admin/care-connection-check.js';
import { slackDate } from '../../time/slack-date.js';
import { ConnectCareIds as Ids, FIELD_ACTION_ID } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, confirmDialog, context, plainText, section, type Block } from './blocks.js';
import { cut } from '../cut.js';

const TITLE = 'Connect care system';

/** What the form starts with: the address and account Id on reconnect; after a failed check, what was typed (never the secret). */
export interface ConnectCareInitial {
  choice?: CareAddressChoice;
  /** The address typed for `other`. */
  otherUrl?: string;
  accountId?: string;
  /** Only after a failed check, to correct it; never on reconnect. */
  apiKey?: string;
}

const ADDRESS_OPTIONS: Record<CareAddressChoice, types.PlainTextOption> = {
  live: { text: plainText('Live (api.carehq.co.uk)'), value: 'live' },
  sandbox: { text: plainText('Sandbox (api.carehq.dev)'), value: 'sandbox' },
  other: { text: plainText('Another address'), value: 'other' },
};

function textInput(
  blockId: string,
  label: string,
  hint: string,
  options: { initial?: string | undefined; optional?: boolean; placeholder?: string; max?: number },
): types.InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: plainText(label, 2000),
    optional: options.optional ?? false,
    element: {
      type: 'plain_text_input',
      action_id: FIELD_ACTION_ID,
      max_length: options.max ?? 200,
      ...(options.initial ? { initial_value: cut(options.initial, options.max ?? 200, { ellipsis: '', mrkdwn: false }) } : {}),
      ...(options.placeholder ? { placeholder: plainText(options.placeholder, 150) } : {}),
    },
    hint: plainText(hint, 2000),
  };
}

/**
 * The form. `problem` (what a failed check found) is shown above the fields.
 * The secret is never filled in; Slack has no password input, so the hint
 * says how it is kept. `privateMetadata` is sealed by the caller.
 */
export function connectCareModal(privateMetadata: string, initial: ConnectCareInitial = {}, problem?: string): types.ModalView {
  const blocks: Block[] = [];
  if (problem) blocks.push(section(`:warning: *Not connected.* ${problem}`));
  blocks.push(
    section(
      'The care system’s account owner creates API keys in the care system’s settings. I check the details with the care system before saving them, and change nothing there.',
    ),
    {
      type: 'input',
      block_id: Ids.address,
      label: plainText('API address'),
      element: {
        type: 'static_select',
        action_id: FIELD_ACTION_ID,
        placeholder: plainText('Choose'),
        options: Object.values(ADDRESS_OPTIONS),
        ...(initial.choice ? { initial_option: ADDRESS_OPTIONS[initial.choice] } : {}),
      },
      hint: plainText('Live is your real care records; the sandbox holds made-up records for trying things out.'),
    },
    textInput(Ids.otherAddress, 'Other address', 'Only for “Another address”: the API address your care system gave you.', {
      initial: initial.choice === 'other' ? initial.otherUrl : undefined,
      optional: true,
      placeholder: 'https://api.example.com/v1',
      max: 500,
    }),
    textInput(Ids.accountId, 'Account Id', 'Shown with your API keys in the care system’s settings.', { initial: initial.accountId, max: 100 }),
    textInput(Ids.apiKey, 'API key', 'The key’s name as the care system shows it.', { initial: initial.apiKey, max: 200 }),
    textInput(
      Ids.apiSecret,
      'API secret',
      'Kept encrypted; never shown again. (Slack has no password field, so it shows while you type: make sure nobody is looking.)',
      { max: 200 },
    ),
  );
  return {
    type: 'modal',
    callback_id: Ids.modal,
    title: plainText(TITLE, 24),
    submit: plainText('Check and save', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks,
  };
}

/** While the check runs (it may take a few seconds when the address is slow or wrong). */
export function checkingModal(address: string): types.ModalView {
  return {
    type: 'modal',
    title: plainText(TITLE, 24),
    close: plainText('Close', 24),
    blocks: [section(`:hourglass_flowing_sand: Checking the details with the care system at ${userText(careAddressHost(address), 200)}…`)],
  };
}

/** What a saved connection can do: the check's report, and a note when the app could not switch to it yet. */
export function connectResultBlocks(check: ConnectionCheck, saved: { accountId: string; baseUrl: string; applied: boolean }): Block[] {
  const blocks: Block[] = [
    section(connectionReport(check)),
    context(`Account \`${userText(saved.accountId, 100)}\` at ${userText(careAddressHost(saved.baseUrl), 200)}.`),
  ];
  if (!saved.applied) blocks.push(context(':warning: Saved, but the app could not switch to it yet: it will when it next starts.'));
  return blocks;
}

/** The form's last view after a successful check. */
export function connectResultModal(check: ConnectionCheck, saved: { accountId: string; baseUrl: string; applied: boolean }): types.ModalView {
  return { type: 'modal', title: plainText(TITLE, 24), close: plainText('Done', 24), blocks: connectResultBlocks(check, saved) };
}

/** For someone who is not an admin (the Home card shows them no button, but a stale one may still be clicked). */
export const NOT_ADMIN_TEXT = 'Only an admin of this workspace can connect it to the care system, or disconnect it.';

export function notAdminModal(): types.ModalView {
  return { type: 'modal', title: plainText(TITLE, 24), close: plainText('Close', 24), blocks: [section(`:lock: ${NOT_ADMIN_TEXT}`)] };
}

/** The connection the Home card shows (no secrets). */
export interface ConnectionSummary {
  baseUrl: string;
  accountId: string;
  connectedBy: string;
  /** Epoch ms. */
  connectedAt: number;
}

export interface ConnectCareHomeState {
  isAdmin: boolean;
  connection: ConnectionSummary | null;
  /** Fallback zone of the "connected on" date. */
  timezone: string;
}

/**
 * The Home tab's care connection card: for admins, Connect, or what is
 * connected with Reconnect and Disconnect; for others, a line saying an admin
 * needs to connect the workspace (nothing once it is connected).
 *
 * Use: on every Home publish in multi-workspace mode, read
 * `store.getCareConnection(workspaceId)` (only baseUrl, accountId,
 * connectedBy, connectedAt are shown) and the person's admin status. Not
 * connected: these blocks are the whole Home tab (there is no care data to
 * show). Connected: put them at the end of an admin's Home, after the admin
 * sections; for others they are empty. At most 2 blocks. Publish the Home
 * again after `onChanged`, so the card follows a connect or disconnect.
 */
export function connectCareHomeBlocks(state: ConnectCareHomeState): Block[] {
  const c = state.connection;
  if (!c) {
    if (!state.isAdmin) return [section(':electric_plug: An admin needs to connect this workspace to the care system before care actions show here.')];
    return [
      section(
        ':electric_plug: *Connect your care system*\nThis workspace is not connected to a care account yet. You need its API address, account Id, and an API key and secret (the care system’s account owner creates keys in its settings).',
      ),
      actions(Ids.homeBlock, [button('Connect your care system', Ids.open, 'connect', 'primary')]),
    ];
  }
  if (!state.isAdmin) return [];
  const when = slackDate(new Date(c.connectedAt), state.timezone);
  return [
    section(
      `:electric_plug: *Care system:* account \`${userText(c.accountId, 100)}\` at ${userText(careAddressHost(c.baseUrl), 200)}\nConnected by <@${c.connectedBy}> on ${when}.`,
    ),
    actions(Ids.homeBlock, [
      button('Reconnect', Ids.open, 'reconnect'),
      button(
        'Disconnect',
        Ids.disconnect,
        'disconnect',
        'danger',
        confirmDialog(
          'Disconnect the care system?',
          'Care actions, digests and notices stop in this workspace until an admin connects it again. The API key and secret are deleted from this app.',
          'Disconnect',
        ),
      ),
    ]),
  ];
}
