import type { types } from '@slack/bolt';
import { FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { userText } from '../text.js';
import { context, plainText, section } from './blocks.js';

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

/** A care user shown by name and email (as in the searchable list), with its marks. */
export interface CareUserChoice {
  id: string;
  name: string;
  email?: string | null;
  /** Someone of the workspace is linked to them already (linking is refused). */
  linked?: boolean;
  /** Their email is not the requester's Slack email. */
  otherEmail?: boolean;
}

/** The marks before a care user's name in the list (first, so a long email cut at 75 characters never hides them). */
export const LINKED_MARK = '⛔ linked';
export const OTHER_EMAIL_MARK = '⚠ other email';

/** A care user as one option of the list: marks, name and email; the Id as the value. */
export function careUserOption(u: CareUserChoice): { text: types.PlainTextElement; value: string } {
  const marks = [u.linked ? LINKED_MARK : '', u.otherEmail ? OTHER_EMAIL_MARK : ''].filter(Boolean);
  const who = u.email ? `${u.name} (${u.email})` : u.name;
  return { text: plainText([...marks, who].join(' · '), 75), value: u.id };
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
  const named = options.suggested && 'name' in options.suggested ? options.suggested : undefined;
  // What the requester named is told, never picked for the admin: they pick (or type) the care user themselves.
  const asked = options.suggested
    ? ` They named ${named ? `*${userText(named.name, 100)}*${named.email ? ` (${userText(named.email, 120)})` : ''}` : `care user \`${options.suggested.id}\``}: pick or type them below if that is right.`
    : '';
  const blocks: types.KnownBlock[] = [section(`Link ${who} to which care user?${requester.email ? '' : ' (Their Slack profile shows no email.)'}${asked}`)];
  if (options.canSearch) {
    blocks.push(
      context(
        `In the list, ${LINKED_MARK} marks someone already linked to another Slack person (unlink them first)${
          requester.email ? ` and ${OTHER_EMAIL_MARK} a care user whose email is not ${userText(requester.email, 120)}: check it is the same person` : ''
        }.`,
      ),
    );
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
      },
      hint: plainText('Type part of their name or email.'),
    });
  }
  blocks.push({
    type: 'input',
    block_id: FieldIds.linkCareUserId,
    optional: options.canSearch,
    label: plainText('Care user Id'),
    element: { type: 'plain_text_input', action_id: FIELD_ACTION_ID, min_length: 24, max_length: 24 },
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
