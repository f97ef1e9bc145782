/**
 * Bolt's HTTPReceiver, with an optional replay guard in front of its request
 * listener: a POST to /slack/events whose signature verifies is shown to the
 * guard before Bolt sees it, and a replayed or future-dated one is answered
 * 401 (as Bolt answers a bad signature) before any listener runs. An Events
 * API delivery is judged by its event_id (event-once.ts): a copy of an event
 * already acked is answered 200 with X-Slack-No-Retry and runs nothing; one
 * arriving while another copy is being answered gets 503 (Slack tries again
 * later); the status the app answers the admitted copy with is told to the
 * guard. Everything else (bad signatures, ssl_check, custom routes, unknown
 * paths) is Bolt's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CustomRoute, HTTPModuleFunctions, HTTPReceiver, type Logger as BoltLogger, verifySlackRequest } from '@slack/bolt';
import type { InstallationStore } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import type { OAuthSettings } from '../install/oauth-settings.js';
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

type Screening = { pass: true; settle?: (acked: boolean) => Promise<void> } | { pass: false; status: number; verdict?: ReplayVerdict };

/** An Events API delivery's event_id, if the body is one. */
function eventIdOf(rawBody: string): string | undefined {
  try {
    const body = JSON.parse(rawBody) as { type?: unknown; event_id?: unknown };
    return body?.type === 'event_callback' && typeof body.event_id === 'string' && body.event_id !== '' ? body.event_id : undefined;
  } catch {
    return undefined;
  }
}

/** Another copy of an event already acked: 200 (Slack need not try again); one still being answered: 503 (try later). */
const REFUSED_STATUS: Record<string, number> = { 'duplicate-event': 200, 'event-in-flight': 503 };

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
  const eventId = req.headers['content-type'] === FORM ? undefined : eventIdOf(rawBody);
  const verdict = await guard.admit({ signature, timestampSec, eventId });
  if (verdict.ok) return 'settle' in verdict ? { pass: true, settle: verdict.settle } : { pass: true };
  return { pass: false, status: REFUSED_STATUS[verdict.reason] ?? 401, verdict };
}

/**
 * Tell the guard how an admitted event was answered: by the status the app wrote (Bolt acks an event, 200,
 * before its listeners run), even when Slack has hung up by then. Never answered (the process died): nothing is told.
 */
function settleOnAnswer(res: ServerResponse, settle: (acked: boolean) => Promise<void>, logger: Logger): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    res.writeHead = writeHead;
    const status = args[0];
    settle(status >= 200 && status < 300).catch((error: unknown) => logger.warn('could not record how a Slack event was answered', { error }));
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
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
          if (screening.settle) settleOnAnswer(res, screening.settle, logger);
          try {
            bolt(req, res);
          } catch (error) {
            logger.error('slack request failed before Bolt took it', { error });
            answer(res, 500);
          }
          return;
        }
        if (screening.verdict && !screening.verdict.ok) {
          const { reason } = screening.verdict;
          // Another copy of an event is routine (Slack retries); a replayed or future-dated request is not.
          const level = reason === 'duplicate-event' || reason === 'event-in-flight' ? 'info' : 'warn';
          logger[level]('slack request refused', { reason, retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req) });
        }
        if (screening.status === 200) res.setHeader('x-slack-no-retry', '1');
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
