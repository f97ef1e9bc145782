import { createHmac } from 'node:crypto';

/** Slack's v0 request signature: `v0=` + hex HMAC-SHA256(secret, `v0:{timestamp}:{raw body}`). */
export function slackSignature(signingSecret: string, timestampSec: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${rawBody}`).digest('hex')}`;
}

export function signedHeaders(signingSecret: string, timestampSec: number, rawBody: string): Record<string, string> {
  return {
    'x-slack-request-timestamp': String(timestampSec),
    'x-slack-signature': slackSignature(signingSecret, timestampSec, rawBody),
  };
}
