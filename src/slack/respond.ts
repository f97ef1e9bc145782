import type { Logger } from '../logging/logger.js';

export type Responder = (message: Record<string, unknown>) => Promise<unknown>;

/** Call Bolt's respond() without letting an expired response_url crash a handler. */
export async function safeRespond(respond: Responder | undefined, message: Record<string, unknown>, logger: Logger): Promise<boolean> {
  if (!respond) return false;
  try {
    await respond(message);
    return true;
  } catch (err) {
    logger.warn('could not answer through response_url', { error: err });
    return false;
  }
}
