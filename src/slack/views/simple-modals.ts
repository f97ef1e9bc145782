import type { types } from '@slack/bolt';
import { FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { userText } from '../text.js';
import { plainText, section } from './blocks.js';

export function loadingModal(title: string): types.ModalView {
  return { type: 'modal', title: plainText(title, 24), close: plainText('Close', 24), blocks: [section(':hourglass_flowing_sand: Loading…')] };
}

export function messageModal(title: string, message: string): types.ModalView {
  return { type: 'modal', title: plainText(title, 24), close: plainText('Close', 24), blocks: [section(message)] };
}

/** What a form whose private_metadata does not verify (forged, another person's, expired) answers. */
export function damagedFormModal(title: string): types.ModalView {
  return messageModal(title, 'This form arrived damaged or expired. Please close it and start again.');
}

/** Who asked to be linked, as the approving admin sees them. */
export interface LinkRequester {
  slackUserId: string;
  name?: string;
  email?: string | null;
}

/** A care user shown by name and email (as in the searchable list). */
export interface CareUserChoice {
  id: string;
  name: string;
  email?: string | null;
}

/** A care user as one option of the list: name and email, the Id as the value. */
export function careUserOption(u: CareUserChoice): { text: types.PlainTextElement; value: string } {
  return { text: plainText(u.email ? `${u.name} (${u.email})` : u.name, 75), value: u.id };
}

/**
 * Asks an approving admin which care user to link the requester to: shows the
 * requester's Slack name and email; the care user is picked from a list
 * searched by name or email (`canSearch`: the API key may read users), or
 * given by Id. Either is enough. `privateMetadata` is sealed by the caller.
 */
export function approveLinkModal(
  callbackId: string,
  privateMetadata: string,
  requester: LinkRequester,
  options: { canSearch: boolean; suggested?: CareUserChoice | { id: string } },
): types.ModalView {
  const who = [requester.name ? `*${userText(requester.name, 100)}*` : '', `<@${requester.slackUserId}>`, requester.email ? userText(requester.email, 120) : '']
    .filter(Boolean)
    .join(' · ');
  const suggested = options.suggested && 'name' in options.suggested ? options.suggested : undefined;
  const blocks: types.KnownBlock[] = [section(`Link ${who} to which care user?${requester.email ? '' : ' (Their Slack profile shows no email.)'}`)];
  if (options.canSearch) {
    blocks.push({
      type: 'input',
      block_id: FieldIds.linkCareUser,
      optional: true,
      label: plainText('Care user'),
      element: {
        type: 'external_select',
        action_id: FIELD_ACTION_ID,
        min_query_length: 0,
        placeholder: plainText('Search by name or email'),
        ...(suggested ? { initial_option: careUserOption(suggested) } : {}),
      },
      hint: plainText('Type part of their name or email.'),
    });
  }
  const typedId = options.suggested && !suggested ? options.suggested.id : undefined;
  blocks.push({
    type: 'input',
    block_id: FieldIds.linkCareUserId,
    optional: options.canSearch,
    label: plainText('Care user Id'),
    element: { type: 'plain_text_input', action_id: FIELD_ACTION_ID, min_length: 24, max_length: 24, ...(typedId ? { initial_value: typedId } : {}) },
    hint: plainText(
      options.canSearch
        ? 'Or their Id instead: 24 letters and digits, from the care system’s user page.'
        : 'I may not list the care system’s users, so give the Id: 24 letters and digits, from the care system’s user page.',
    ),
  });
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plainText('Approve link', 24),
    submit: plainText('Link', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks,
  };
}
