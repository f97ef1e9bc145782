/**
 * The messages of Slack's Socket Mode protocol, as Slack sends them and as the
 * app answers (pure shapes; the server in socket-mode.ts moves them).
 */

type Obj = Record<string, unknown>;

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/**
 * Why Slack asks the app to go: `warning` (this connection closes in about 10 s),
 * `refresh_requested` (connections are recycled now and then), `link_disabled`
 * (Socket Mode was turned off for the app).
 */
export type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

/** Events API retries carry how many times the event was sent before and why. */
export interface EnvelopeRetry {
  attempt: number;
  reason: string;
}

/** The first message on every connection. */
export function helloMessage(appId: string, numConnections: number): Obj {
  return {
    type: 'hello',
    num_connections: numConnections,
    debug_info: { host: 'applink-fake-1', build_number: 1, approximate_connection_time: 18060 },
    connection_info: { app_id: appId },
  };
}

export function disconnectMessage(reason: DisconnectReason): Obj {
  return { type: 'disconnect', reason, debug_info: { host: 'applink-fake-1' } };
}

/**
 * Whether the app's ack may carry an answer: a slash command's message, a view
 * submission's response_action, an external select's options. Buttons,
 * shortcuts, closed views and events are acked empty.
 */
export function acceptsResponsePayload(type: EnvelopeType, payload: Obj): boolean {
  if (type === 'slash_commands') return true;
  if (type === 'interactive') return payload.type === 'view_submission' || payload.type === 'block_suggestion';
  return false;
}

export function envelope(envelopeId: string, type: EnvelopeType, payload: Obj, retry?: EnvelopeRetry): Obj {
  return {
    envelope_id: envelopeId,
    type,
    payload,
    accepts_response_payload: acceptsResponsePayload(type, payload),
    ...(type === 'events_api' ? { retry_attempt: retry?.attempt ?? 0, retry_reason: retry?.reason ?? '' } : {}),
  };
}

/** `{envelope_id, payload?}` from the app, or undefined for anything else. */
export function parseAck(text: string): { envelopeId: string; payload: Obj } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { envelope_id: envelopeId, payload } = parsed as Obj;
  if (typeof envelopeId !== 'string' || envelopeId === '') return undefined;
  const body = typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Obj) : {};
  return { envelopeId, payload: body };
}
