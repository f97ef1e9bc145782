/**
 * Which care API hosts a deployment may reach when an admin connects a
 * workspace (CARE_API_HOSTS). An address typed in Slack is sent signed
 * requests from inside the deployment's network, so:
 *
 * - CARE_API_HOSTS unset: any https:// address given by a public host name.
 *   No IP address in any spelling (decimal, hex, octal, IPv4-mapped IPv6),
 *   no `localhost`, no single-label name; and when connecting, every address
 *   the name resolves to must be public (isPublicAddress), and the connection
 *   goes to an address so checked (care/address-guard.ts).
 * - CARE_API_HOSTS set: those hosts only (an allow-list that also shuts out
 *   every other public host), each `host` (on the scheme's default port) or
 *   `host:port`; for them plain http:// is allowed too, and their addresses
 *   are not checked (the operator chose them: a sandbox on 127.0.0.1, a care
 *   API on the private network).
 *
 * The sentences say what is allowed in general words, never the operator's list
 * (`listedHosts` spells it for the operator's own log) and never what answered.
 */
import { isIP } from 'node:net';
import { type AddressRule, isPublicAddress } from '../../care/index.js';

/** One CARE_API_HOSTS entry: a host (as URLs spell it: lower case, IPv4 dotted, IPv6 in brackets) and a port, or the scheme's default. */
export interface CareHost {
  host: string;
  port?: number | undefined;
}

export interface CareHostPolicy {
  /** CARE_API_HOSTS, or undefined: any public https host. */
  readonly listed: readonly CareHost[] | undefined;
  /** Why this address may not be used (a sentence for the admin), or undefined when it may. Before any DNS. */
  problemWith(url: URL): string | undefined;
  /** The address rule for a client of this base URL: none for a listed host, public addresses otherwise (none at all when CARE_API_HOSTS lists others). */
  addressRuleFor(baseUrl: string): AddressRule | undefined;
  /** What is allowed, for the admin, in general words (never the list). */
  readonly allowed: string;
  /** CARE_API_HOSTS as `host[:port], …`, for the operator's log at debug only; undefined when unset. */
  readonly listedHosts: string | undefined;
}

/** One rule for every client that may connect nowhere (the instance's shared connections are keyed by their rule). */
const refuseEvery: AddressRule = () => false;

const EXAMPLE = 'api.carehq.co.uk,127.0.0.1:4010';

/** `host` or `host:port`, host as a URL spells it; or the problem. */
function parseEntry(entry: string): CareHost | string {
  if (/[/@?#\s]|:\/\//.test(entry)) return `"${entry}" is not a host name: give host names only, without https:// or a path`;
  const parts = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(entry);
  if (!parts?.[1]) return `"${entry}" is not a host name or host:port`;
  let host: string;
  try {
    host = new URL(`http://${parts[1]}`).hostname.replace(/\.$/, '');
  } catch {
    return `"${entry}" is not a host name`;
  }
  const port = parts[2] === undefined ? undefined : Number(parts[2]);
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) return `"${entry}" has no valid port (1-65535)`;
  return { host, ...(port !== undefined ? { port } : {}) };
}

/** CARE_API_HOSTS: a comma list of host names, each optionally host:port. */
export function parseCareApiHosts(text: string): { ok: true; hosts: CareHost[] } | { ok: false; problem: string } {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return { ok: false, problem: `must list at least one host name (e.g. ${EXAMPLE}), or be left empty` };
  const hosts: CareHost[] = [];
  for (const entry of entries) {
    const parsed = parseEntry(entry.toLowerCase());
    if (typeof parsed === 'string') return { ok: false, problem: `must be a comma list of host names, each optionally host:port (e.g. ${EXAMPLE}): ${parsed}` };
    hosts.push(parsed);
  }
  return { ok: true, hosts };
}

const defaultPort = (protocol: string) => (protocol === 'http:' ? 80 : 443);
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/\.$/, '');
const spell = (h: CareHost) => (h.port === undefined ? h.host : `${h.host}:${h.port}`);

export function careHostPolicy(listed?: readonly CareHost[]): CareHostPolicy {
  const isListed = (url: URL) => {
    const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
    return (listed ?? []).some((h) => h.host === hostOf(url) && (h.port ?? defaultPort(url.protocol)) === port);
  };
  // In general words: never the operator's list (CARE_API_HOSTS), which tells whoever types an address what is inside.
  const allowed = listed
    ? 'This deployment connects only to the care API addresses (https://) that whoever runs it has allowed. If your care system is at another address, ask whoever runs this deployment to allow it.'
    : 'The care API must be at a public https:// address, given by its host name (e.g. https://api.carehq.co.uk/v1). If your care system is on a private address, ask whoever runs this deployment.';

  function problemWith(url: URL): string | undefined {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The address should start with https://.';
    if (isListed(url)) return undefined;
    if (listed) return allowed;
    if (url.protocol === 'http:') return `The care API must be reached over https://. ${allowed}`;
    const host = hostOf(url);
    if (isIP(host.replace(/^\[|\]$/g, ''))) return `Give the care API’s host name, not an IP address. ${allowed}`;
    if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return allowed;
    return undefined;
  }

  return {
    listed,
    allowed,
    listedHosts: listed?.map(spell).join(', '),
    problemWith,
    addressRuleFor(baseUrl) {
      let url: URL;
      try {
        url = new URL(baseUrl);
      } catch {
        return refuseEvery;
      }
      if (isListed(url)) return undefined;
      return listed ? refuseEvery : isPublicAddress;
    },
  };
}
