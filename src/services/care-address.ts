/**
 * The care API's address as an admin gives it when connecting a workspace:
 * the vendor's live or sandbox address, or another one. Pure.
 */

/** The vendor's addresses (facts/care-api-wire.md); both end in the /v1 prefix (spec: Versioning). */
export const CARE_ADDRESSES = {
  live: 'https://api.carehq.co.uk/v1',
  sandbox: 'https://api.carehq.dev/v1',
} as const;

export type CareAddressChoice = keyof typeof CARE_ADDRESSES | 'other';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A typed address as the stored form `<origin><path>/v1` (trailing slashes
 * dropped, `/v1` added when missing), or the sentence saying what is wrong.
 * HTTPS only (the spec requires it), except plain HTTP to this machine (a
 * local sandbox).
 */
export function canonicalCareAddress(raw: string): { ok: true; url: string } | { ok: false; sentence: string } {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, sentence: 'This is not a web address. It should look like https://api.example.com/v1.' };
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    return { ok: false, sentence: 'The care API must be reached over https:// (plain http:// only to this machine).' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, sentence: 'The address should start with https://.' };
  if (url.search || url.hash || url.username || url.password) {
    return { ok: false, sentence: 'Give just the address, without a ?query, #part or user name.' };
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { ok: true, url: `${url.origin}${path}/v1` };
}

/** Which choice an address stored earlier is (to fill the form again on reconnect). */
export function careAddressChoiceOf(baseUrl: string): { choice: CareAddressChoice; url?: string } {
  const canonical = canonicalCareAddress(baseUrl);
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
