import type { types } from '@slack/bolt';
import { FIELD_ACTION_ID, FieldIds } from '../ids.js';
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

/** Asks an approving admin which care user to link the requester to; `privateMetadata` is sealed by the caller. */
export function approveLinkModal(callbackId: string, privateMetadata: string, requester: string, suggested?: string): types.ModalView {
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plainText('Approve link', 24),
    submit: plainText('Link', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(`Link <@${requester}> to which care user?`),
      {
        type: 'input',
        block_id: FieldIds.linkCareUserId,
        label: plainText('Care user Id'),
        element: { type: 'plain_text_input', action_id: FIELD_ACTION_ID, min_length: 24, max_length: 24, ...(suggested ? { initial_value: suggested } : {}) },
        hint: plainText('24 letters and digits, from the care system’s user page.'),
      },
    ],
  };
}
