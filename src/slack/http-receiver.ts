/**
 * Bolt's HTTPReceiver, with an optional replay guard in front of its request
 * listener: a POST to /slack/events whose signature verifies is shown to the
 * guard before Bolt sees it, and a replayed or future-dated one is answered
 * 401 (as Bolt answers a bad signature) before any listener runs. Everything
 * else (bad signatures, ssl_check, custom routes, unknown paths) is Bolt's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CustomRoute, HTTPModuleFunctions, HTTPReceiver, type Logger as BoltLogger, verifySlackRequest } from '@slack/bolt';
import type { InstallationStore } from '@slack/bolt';
import type { Logger } from '../logging/logger.js';
import type { OAuthSettings } from './oauth-settings.js';
import type { ReplayGuard, ReplayVerdict } from './replay-guard.js';

export const EVENTS_PATH = '/slack/events';
const FORM = 'application/x-www-form-urlencoded';

export interface HttpReceiverOptions {
  signingSecret: string;
  customRoutes: CustomRoute[];
  boltLogger: BoltLogger;
  /** Refuses replays and future timestamps; absent = Bolt's checks only. */
  replayGuard?: ReplayGuard | undefined;
  /** Where refusals are logged (never with the signature or the body). */
  logger: Logger;
  /** Told how long each request to /slack/events took to answer, from its arrival (metrics). */
  onAck?: ((ms: number) => void) | undefined;
  /** Multi-workspace mode: Bolt's OAuth (/slack/install, /slack/oauth_redirect) and its installation store (oauth-settings.ts). */
  oauth?: (OAuthSettings & { installationStore: InstallationStore }) | undefined;
}

type Screening = { pass: true } | { pass: false; status: number; verdict?: ReplayVerdict };

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Read the body the way Bolt does (Bolt then reuses it) and ask the guard about a verified request. */
async function screen(req: IncomingMessage, guard: ReplayGuard, signingSecret: string): Promise<Screening> {
  let rawBody: string;
  try {
    rawBody = (await HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit)).rawBody.toString();
  } catch (error) {
    const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && (error.type === 'entity.too.large' || error.statusCode === 413);
    return { pass: false, status: tooLarge ? 413 : 400 };
  }
  const signature = singleHeader(req, 'x-slack-signature');
  const timestampSec = Number(singleHeader(req, 'x-slack-request-timestamp'));
  if (signature === undefined || Number.isNaN(timestampSec)) return { pass: true };
  try {
    verifySlackRequest({
      signingSecret,
      body: rawBody,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestampSec },
      nowMilliseconds: guard.now(),
    });
  } catch {
    return { pass: true }; // Bolt refuses it with 401 and says why
  }
  const retryNum = HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req);
  const verdict = await guard.admit({ signature, timestampSec, retryNum, eventsApi: req.headers['content-type'] !== FORM });
  return verdict.ok ? { pass: true } : { pass: false, status: 401, verdict };
}

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status);
  res.end();
}

function guardRequests(receiver: HTTPReceiver, guard: ReplayGuard, options: HttpReceiverOptions): void {
  const bolt = receiver.requestListener;
  const { logger } = options;
  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // Synchronous for everything else: Bolt's server turns a throw here into its 404/500 answer.
    if (req.method !== 'POST' || path !== EVENTS_PATH) return bolt(req, res);
    screen(req, guard, options.signingSecret).then(
      (screening) => {
        if (screening.pass) {
          try {
            bolt(req, res);
          } catch (error) {
            logger.error('slack request failed before Bolt took it', { error });
            answer(res, 500);
          }
          return;
        }
        if (screening.verdict && !screening.verdict.ok) {
          logger.warn('slack request refused', { reason: screening.verdict.reason, retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req) });
        }
        answer(res, screening.status);
      },
      (error: unknown) => {
        logger.error('slack request refused: the replay check failed', { error });
        answer(res, 503);
      },
    );
  };
}

/** Times every POST to /slack/events from its arrival to the end of the answer (the guard's time included). */
function timeAnswers(receiver: HTTPReceiver, onAck: (ms: number) => void): void {
  const inner = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    if (req.method === 'POST' && new URL(req.url ?? '/', 'http://localhost').pathname === EVENTS_PATH) {
      const arrived = performance.now();
      res.once('finish', () => onAck(performance.now() - arrived));
    }
    return inner(req, res);
  };
}

export function createHttpReceiver(options: HttpReceiverOptions): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: [EVENTS_PATH],
    customRoutes: options.customRoutes,
    logger: options.boltLogger,
    ...(options.oauth ?? {}),
  });
  if (options.replayGuard) guardRequests(receiver, options.replayGuard, options);
  if (options.onAck) timeAnswers(receiver, options.onAck);
  return receiver;
}
