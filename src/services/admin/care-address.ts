/**
 * The care API's address as an admin gives it when connecting a workspace:
 * the vendor's live or sandbox address, or another one, as the deployment's
 * host policy allows (care-hosts.ts). Pure.
 */
import { type CareHostPolicy, careHostPolicy } from './care-hosts.js';

/** The vendor's addresses (facts/care-api-wire.md); both end in the /v1 prefix (spec: Versioning). */
export const CARE_ADDRESSES = {
  live: 'https://api.carehq.co.uk/v1',
  sandbox: 'https://api.carehq.dev/v1',
} as const;

export type CareAddressChoice = keyof typeof CARE_ADDRESSES | 'other';

type Canonical = { ok: true; url: string } | { ok: false; sentence: string };

/** The stored form `<origin><path>/v1` (trailing slashes dropped, `/v1` added when missing), whatever the host. */
function canonicalForm(raw: string): Canonical & { parsed?: URL } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, sentence: 'This is not a web address. It should look like https://api.example.com/v1.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, sentence: 'The address should start with https://.' };
  if (url.search || url.hash || url.username || url.password) {
    return { ok: false, sentence: 'Give just the address, without a ?query, #part or user name.' };
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { ok: true, url: `${url.origin}${path}/v1`, parsed: url };
}

/**
 * A typed address as the stored form, or the sentence saying what is wrong or
 * what is allowed: by default https:// to a public host name only
 * (care-hosts.ts; its addresses are checked again, after resolving, when connecting).
 */
export function canonicalCareAddress(raw: string, policy: CareHostPolicy = careHostPolicy()): Canonical {
  const canonical = canonicalForm(raw);
  if (!canonical.ok || !canonical.parsed) return canonical;
  const problem = policy.problemWith(canonical.parsed);
  return problem ? { ok: false, sentence: problem } : { ok: true, url: canonical.url };
}

/** Which choice an address stored earlier is (to fill the form again on reconnect). */
export function careAddressChoiceOf(baseUrl: string): { choice: CareAddressChoice; url?: string } {
  const canonical = canonicalForm(baseUrl);
  const url = canonical.ok ? canonical.url : baseUrl;
  for (const [choice, preset] of Object.entries(CARE_ADDRESSES) as [keyof typeof CARE_ADDRESSES, string][]) {
    if (preset === url) return { choice };
  }
  return { choice: 'other', url: baseUrl };
}

/** The host people recognise (`api.carehq.co.uk`), for sentences; the input itself when it is not a URL. */
export function careAddressHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
