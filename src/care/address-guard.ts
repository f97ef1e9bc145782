/**
 * Connections only to addresses a rule allows, checked at the moment of
 * connecting: the host name is resolved here, every answer is checked, and
 * the socket goes to an address that was checked (the resolution is not done
 * again by someone else later), so a name that answers a public address to a
 * check and a private one to the connection (DNS rebinding) gets nowhere. An
 * IP address given as the host is checked as it is. A refused address fails
 * before any connection is made, with ADDRESS_REFUSED_CODE (address-refused.ts), the same way
 * whatever listens there.
 */
import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { addressRefused } from './address-refused.js';

/** May the client connect to this IP address? */
export type AddressRule = (address: string) => boolean;

/** How names are resolved: dns.lookup (the system's resolver, /etc/hosts included) with `all: true`. */
export type Resolve = (
  hostname: string,
  options: { all: true; family?: number | undefined },
  callback: (error: Error | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: Resolve = (hostname, options, callback) => dnsLookup(hostname, options, (error, addresses) => callback(error, addresses ?? []));

/**
 * A `lookup` for net.connect: resolves the name once, refuses it when any answer is not allowed, and hands
 * the connection exactly the answers it checked.
 */
export function guardedLookup(allow: AddressRule, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const asked = options.family as number | string | undefined;
    const family = asked === 4 || asked === 'IPv4' ? 4 : asked === 6 || asked === 'IPv6' ? 6 : undefined;
    resolve(hostname, { all: true, ...(family ? { family } : {}) }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const first = addresses[0];
      if (!first || addresses.some((a) => !allow(a.address))) return callback(addressRefused(hostname), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/** An undici `connect` function whose connections reach only addresses `allow` accepts. */
export function guardedConnector(allow: AddressRule, connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(allow) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !allow(host)) {
      queueMicrotask(() => callback(addressRefused(host), null));
      return;
    }
    return connect(options, callback);
  };
}
