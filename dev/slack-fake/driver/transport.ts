import type { SlackFake } from '../start-fake.js';
import type { EnvelopeRetry, EnvelopeType } from '../socket/messages.js';
import { FORM, JSON_TYPE, sendSigned, type AppAnswer } from './send.js';

type Obj = Record<string, unknown>;

/**
 * One thing Slack sends the app, whatever the way: slash command fields, an
 * interactive payload, or an Events API body (with the retry it is, if any).
 */
export type Delivery =
  | { type: 'slash_commands'; payload: Record<string, string> }
  | { type: 'interactive'; payload: Obj }
  | { type: 'events_api'; payload: Obj; retry?: EnvelopeRetry };

/** How Slack reaches the app: signed HTTP POSTs, or envelopes over the app's Socket Mode connections. */
export interface Transport {
  readonly kind: 'http' | 'socket';
  deliver(delivery: Delivery): Promise<AppAnswer>;
}

export interface HttpTransportOptions {
  eventsUrl: string;
  signingSecret: string;
  ackTimeoutMs: number;
  /** Wall clock for X-Slack-Request-Timestamp. */
  now: () => number;
}

/** As Slack posts to a Request URL: commands and interactions form-encoded, events as JSON, retries with X-Slack-Retry-*. */
export function httpTransport(o: HttpTransportOptions): Transport {
  return {
    kind: 'http',
    deliver(d) {
      const [contentType, rawBody]: [typeof FORM | typeof JSON_TYPE, string] =
        d.type === 'slash_commands'
          ? [FORM, new URLSearchParams(d.payload).toString()]
          : d.type === 'interactive'
            ? [FORM, new URLSearchParams({ payload: JSON.stringify(d.payload) }).toString()]
            : [JSON_TYPE, JSON.stringify(d.payload)];
      const retry = d.type === 'events_api' && d.retry ? { 'x-slack-retry-num': String(d.retry.attempt), 'x-slack-retry-reason': d.retry.reason } : undefined;
      return sendSigned({
        eventsUrl: o.eventsUrl,
        signingSecret: o.signingSecret,
        timestampSec: Math.floor(o.now() / 1000),
        ackTimeoutMs: o.ackTimeoutMs,
        contentType,
        rawBody,
        ...(retry ? { headers: retry } : {}),
      });
    },
  };
}

/**
 * As Slack sends to a Socket Mode app: an envelope on one of its connections;
 * the ack's `payload` is read as an HTTP answer's body would be (empty = an empty body).
 */
export function socketTransport(fake: SlackFake, ackTimeoutMs: number): Transport {
  return {
    kind: 'socket',
    async deliver(d) {
      const answer = await fake.socket.dispatch(d.type as EnvelopeType, d.payload, {
        timeoutMs: ackTimeoutMs,
        ...(d.type === 'events_api' && d.retry ? { retry: d.retry } : {}),
      });
      if (!answer.acked) return { text: '', latencyMs: answer.latencyMs, acked: false, ...(answer.failure ? { failure: answer.failure } : {}) };
      const body = answer.payload ?? {};
      const empty = Object.keys(body).length === 0;
      return { text: empty ? '' : JSON.stringify(body), ...(empty ? {} : { json: body }), latencyMs: answer.latencyMs, acked: true };
    },
  };
}
