/**
 * A care client with an address rule connects only to addresses the rule
 * allows, checked after resolving the host name and connected to as checked;
 * a refused address fails before any connection is made, and redirects are
 * never followed. Real sockets on loopback: a server that counts the
 * connections it is offered stands for the deployment's internal network.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, type Resolve } from '../../src/care/address-guard.js';
import { ADDRESS_REFUSED_CODE, type CareClient, createCareClient, isPublicAddress, NetworkError } from '../../src/care/index.js';

let internal: Server;
let internalPort: number;
let offered = 0;
let redirector: HttpServer;
let redirectorPort: number;
const clients: CareClient[] = [];

beforeAll(async () => {
  // Something on the server's own network: it answers nothing, it only counts who knocked.
  internal = createServer((socket) => {
    offered++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as { port: number }).port;
  // A host that sends every request on to the internal service.
  redirector = createHttpServer((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/v1/actions` });
    res.end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorPort = (redirector.address() as { port: number }).port;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((r) => internal.close(r));
  await new Promise((r) => redirector.close(r));
});

function client(baseUrl: string, publicOnly: boolean): CareClient {
  const c = createCareClient({
    baseUrl,
    accountId: 'acct',
    apiKey: 'key',
    apiSecret: 'secret',
    timeoutMs: 2000,
    retryBackoff: { baseMs: 1, maxMs: 1 },
    ...(publicOnly ? { allowAddress: isPublicAddress } : {}),
  });
  clients.push(c);
  return c;
}

async function failure(c: CareClient): Promise<unknown> {
  return c.actions.list({ per_page: 1 }).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('which addresses are public', () => {
  it('refuses loopback, private, CGNAT, link-local, metadata, unspecified, reserved and their IPv6 and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '169.254.1.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fd00:ec2::254',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '[::ffff:a9fe:a9fe]',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
      'localhost',
      '2130706433',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('allows public addresses, IPv4 and IPv6', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2a00:1450:4009:81f::200e]']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('a care client that may reach public addresses only', () => {
  it('refuses a host name that resolves to loopback before connecting, and does not try again', async () => {
    const c = client(`http://localhost:${internalPort}`, true);
    const err = await failure(c);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe(ADDRESS_REFUSED_CODE);
    expect(offered).toBe(0);
    expect(c.stats().retries).toBe(0);
  });

  it('refuses IP addresses of the server’s own network, however they are spelt, before connecting', async () => {
    for (const host of ['127.0.0.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
      const err = await failure(client(`http://${host}:${internalPort}`, true));
      expect((err as NetworkError).code, host).toBe(ADDRESS_REFUSED_CODE);
    }
    expect(offered).toBe(0);
  });

  it('without a rule (a host the operator listed), connects there as before', async () => {
    const before = offered;
    const err = await failure(client(`http://127.0.0.1:${internalPort}`, false));
    expect((err as NetworkError).code).not.toBe(ADDRESS_REFUSED_CODE);
    expect(offered).toBeGreaterThan(before);
  });

  it('does not follow a redirect', async () => {
    const before = offered;
    const err = await failure(client(`http://127.0.0.1:${redirectorPort}`, false));
    expect(err).toBeDefined();
    expect(offered).toBe(before);
  });
});

describe('resolving once, connecting to what was checked', () => {
  const answers = (...addresses: string[]): LookupAddress[] => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  /** A resolver as a rebinding name server would answer it: a different answer each time it is asked. */
  const rebinding = (...rounds: LookupAddress[][]): Resolve => {
    let asked = 0;
    return (_host, _options, callback) => callback(null, rounds[Math.min(asked++, rounds.length - 1)] ?? []);
  };
  const lookUp = (resolve: Resolve, all: boolean) =>
    new Promise<{ error: Error | null; result: unknown }>((done) =>
      guardedLookup(isPublicAddress, resolve)('care.example.org', { all }, (error, address, family) =>
        done({ error, result: all ? address : { address, family } }),
      ),
    );

  it('refuses a name any of whose answers is private', async () => {
    const { error } = await lookUp(rebinding(answers('93.184.215.14', '127.0.0.1')), true);
    expect((error as { code?: string } | null)?.code).toBe(ADDRESS_REFUSED_CODE);
  });

  it('hands the connection the very answer it checked, not a later one', async () => {
    const resolve = rebinding(answers('93.184.215.14'), answers('127.0.0.1'));
    expect(await lookUp(resolve, false)).toEqual({ error: null, result: { address: '93.184.215.14', family: 4 } });
    // Asked again (a new connection), the name now answers loopback: refused.
    expect(((await lookUp(resolve, true)).error as { code?: string } | null)?.code).toBe(ADDRESS_REFUSED_CODE);
  });
});
