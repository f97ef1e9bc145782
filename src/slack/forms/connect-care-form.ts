/**
 * The connect-care form's submitted values: the care account's address and
 * credentials, or an inline error per field that is wrong. Pure.
 */
import { CARE_ADDRESSES, type CareAddressChoice, canonicalCareAddress } from '../../services/admin/care-address.js';
import type { CareHostPolicy } from '../../services/admin/care-hosts.js';
import { ConnectCareIds as Ids, FIELD_ACTION_ID } from '../ids.js';
import type { ConnectCareInitial } from '../views/connect-care.js';

/** Slack's `view.state.values`, as far as this form reads it. */
type StateValues = Record<string, Record<string, { value?: string | null; selected_option?: { value?: string } | null } | undefined> | undefined>;

export interface ConnectCareDetails {
  /** Canonical: `<origin><path>/v1`. */
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  /** What to fill the form with if the check fails (no secret). */
  retry: ConnectCareInitial;
}

export type ConnectCareForm = { ok: true; details: ConnectCareDetails } | { ok: false; errors: Record<string, string> };

const CHOICES: readonly string[] = ['live', 'sandbox', 'other'];

/** `policy`: the care API hosts this deployment may reach (CARE_API_HOSTS), for the typed address and the presets alike. */
export function readConnectCareForm(values: StateValues, policy: CareHostPolicy): ConnectCareForm {
  const text = (block: string) => (values[block]?.[FIELD_ACTION_ID]?.value ?? '').trim();
  const picked = values[Ids.address]?.[FIELD_ACTION_ID]?.selected_option?.value ?? '';
  const errors: Record<string, string> = {};

  let baseUrl = '';
  const typedUrl = text(Ids.otherAddress);
  if (!CHOICES.includes(picked)) errors[Ids.address] = 'Choose where your care system’s API is.';
  else if (picked === 'other') {
    const address = typedUrl ? canonicalCareAddress(typedUrl, policy) : undefined;
    if (!address) errors[Ids.otherAddress] = 'Type the API address, e.g. https://api.example.com/v1.';
    else if (!address.ok) errors[Ids.otherAddress] = address.sentence;
    else baseUrl = address.url;
  } else if (typedUrl) errors[Ids.otherAddress] = 'To use this address, choose “Another address” above; otherwise clear it.';
  else {
    const preset = CARE_ADDRESSES[picked as keyof typeof CARE_ADDRESSES];
    const problem = policy.problemWith(new URL(preset));
    if (problem) errors[Ids.address] = problem;
    else baseUrl = preset;
  }

  const accountId = text(Ids.accountId);
  const apiKey = text(Ids.apiKey);
  const apiSecret = text(Ids.apiSecret);
  if (!accountId) errors[Ids.accountId] = 'Enter the account Id.';
  if (!apiKey) errors[Ids.apiKey] = 'Enter the API key.';
  if (!apiSecret) errors[Ids.apiSecret] = 'Enter the API secret.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const choice = picked as CareAddressChoice;
  return {
    ok: true,
    details: { baseUrl, accountId, apiKey, apiSecret, retry: { choice, ...(choice === 'other' ? { otherUrl: typedUrl } : {}), accountId, apiKey } },
  };
}
