/**
 * The OAuth `state` as a one-time ticket, for Bolt's InstallProvider
 * (`installerOptions.stateStore`). @slack/oauth's default ClearStateStore signs
 * the state and checks its age but keeps no record of use, so within its 10
 * minutes the same state verifies again. This one signs the same way in
 * spirit (HMAC-SHA256 with SLACK_STATE_SECRET over the install options, the
 * time and a random nonce) and also remembers each state it accepted in the
 * store's seen_requests (shared by every instance, until the state would have
 * expired anyway): a second callback with it is refused before Slack is asked
 * anything, so it stores nothing.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallURLOptions, StateStore } from '@slack/bolt';
import type { Store } from '../../store/index.js';

/** How long a state is accepted after the install page made it (Bolt's cookie lives as long). */
export const STATE_TTL_SECONDS = 600;

/** Bolt maps this code to its InvalidStateError; the failure page reads it (oauth-settings.ts). */
export class OAuthStateError extends Error {
  override readonly name = 'OAuthStateError';
  readonly code = 'slack_oauth_invalid_state';
}

interface Payload {
  o: InstallURLOptions;
  /** Made at (epoch ms). */
  t: number;
  n: string;
}

export function oneTimeStateStore(deps: { secret: string; seen: Pick<Store, 'markRequestSeen'>; ttlSeconds?: number }): StateStore {
  const ttlMs = (deps.ttlSeconds ?? STATE_TTL_SECONDS) * 1000;
  const mac = (body: string) => createHmac('sha256', deps.secret).update(`oauth-state:${body}`).digest();
  return {
    async generateStateParam(installOptions, now) {
      const payload: Payload = { o: installOptions, t: now.getTime(), n: randomBytes(16).toString('base64url') };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    async verifyStateParam(now, state) {
      const [body, signature, extra] = state.split('.');
      const given = Buffer.from(signature ?? '', 'base64url');
      const expected = body ? mac(body) : Buffer.alloc(0);
      if (!body || extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new OAuthStateError('The OAuth state is not one this app signed.');
      }
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      const at = now.getTime();
      if (!(at - payload.t < ttlMs)) throw new OAuthStateError('The OAuth state has expired.');
      const key = `oauth-state:${createHash('sha256').update(state).digest('base64url')}`;
      if (!(await deps.seen.markRequestSeen(key, { now: at, expiresAt: payload.t + ttlMs }))) {
        throw new OAuthStateError('The OAuth state was used already.');
      }
      return payload.o;
    },
  };
}
