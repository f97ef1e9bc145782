/**
 * For servers meant for programs on this machine only (the playground, the
 * sandbox's controls, the Slack fake): a web page open in the browser must not
 * reach them. DNS rebinding sends a foreign Host; a cross-site form or
 * `fetch(..., {mode: 'no-cors'})` sends a foreign Origin and a "simple" body
 * (text/plain, form data, none). Each server answers refusals in its own format.
 */
import type { IncomingMessage } from 'node:http';

export interface LocalAddress {
  /** The host the server listens on, e.g. 127.0.0.1. */
  host: string;
  /** The port it listens on (undefined before it listens). */
  port: () => number | undefined;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `name:port` of a Host header or an origin's host; IPv6 names keep their brackets. */
function splitHost(value: string): { name: string; port: number | undefined } {
  const match = /^(.*?)(?::(\d+))?$/.exec(value.trim().toLowerCase());
  const name = match?.[1] ?? '';
  return { name, port: match?.[2] === undefined ? undefined : Number(match[2]) };
}

/** `host[:port]` of an http: origin; undefined for anything else (`null`, https:, garbage). */
function httpHostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the request does not come from a program on this machine talking to
 * this server (a Host other than a loopback name or the bound host with its
 * port, or an Origin of another site), or undefined when it does.
 */
export function foreignRequest(req: IncomingMessage, bound: LocalAddress): string | undefined {
  const names = new Set([...LOOPBACK_NAMES, bound.host.includes(':') ? `[${bound.host}]` : bound.host]);
  const ours = (hostAndPort: string) => {
    const { name, port } = splitHost(hostAndPort);
    const listening = bound.port();
    return names.has(name) && (listening === undefined || (port ?? 80) === listening);
  };
  if (!ours(req.headers.host ?? '')) return 'This server only answers on its loopback address.';
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const site = httpHostOf(origin);
    if (site === undefined || !ours(site)) return 'This server does not answer web pages of other sites.';
  }
  return undefined;
}

/** The body's media type, lower case, without parameters ('' when none is given). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
