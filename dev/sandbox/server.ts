import { createServer, type Server } from 'node:http';
import type { Logger } from '../../src/logging/logger.js';
import type { AccountDirectory } from './accounts.js';
import { handleApi } from './api-handler.js';
import { handleControls, type ControlsDeps } from './controls.js';
import { sendJson } from './http-util.js';

export interface ServerDeps {
  /** The care accounts served; a /v1 request goes to the one its X-CareHQ-AccountId names. */
  accounts: AccountDirectory;
  /** Absent = controls disabled (404). */
  controls?: ControlsDeps;
  logger: Logger;
}

/**
 * The sandbox's HTTP server: `/v1/...` is the care API, `/_sandbox/...` the
 * test controls. Each request is logged with method, path (never the query),
 * status and duration.
 */
export function createSandboxServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    res.on('finish', () => {
      deps.logger.info('request', { method: req.method, path, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 });
    });
    let work: Promise<void>;
    if (path === '/v1' || path.startsWith('/v1/')) work = handleApi(req, res, deps.accounts.forRequest(req.headers).api, path, query);
    else if (deps.controls && (path === '/_sandbox' || path.startsWith('/_sandbox/'))) work = handleControls(req, res, deps.controls, path);
    else {
      sendJson(res, 404, JSON.stringify({ hint: `Not found: ${path}. The API is under /v1.` }));
      return;
    }
    work.catch((err: unknown) => {
      deps.logger.error('sandbox request failed', { err, method: req.method, path });
      if (!res.headersSent) sendJson(res, 500, JSON.stringify({ hint: 'Internal sandbox error.' }));
    });
  });
  server.keepAliveTimeout = 10_000;
  return server;
}
