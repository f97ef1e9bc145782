/**
 * The care client the app's services write through: the same client, with
 * every action write (create, update, complete, reopen) told to the action
 * cache as it returns, so no list or card read after a change made through
 * Slack can show what was there before. A write whose outcome is unknown
 * (no body; a timeout, a dropped connection or a 5xx: it may have happened)
 * drops what the cache holds that it could affect. Reads are untouched.
 */
import { type Action, CareApiError, type CareClient } from '../../care/index.js';
import type { ActionCache } from './action-cache.js';

export function observeWrites(care: CareClient, cache: Pick<ActionCache, 'applyWrite'>): CareClient {
  const { actions } = care;
  async function observed(id: string | undefined, write: () => Promise<Action | null>): Promise<Action | null> {
    try {
      const result = await write();
      cache.applyWrite(result, result?._id ?? id);
      return result;
    } catch (err) {
      // A refusal (4xx) changed nothing; anything else (timeout, dropped connection, 5xx) may have.
      const refused = err instanceof CareApiError && err.status !== undefined && err.status >= 400 && err.status < 500;
      if (!refused) cache.applyWrite(null, id);
      throw err;
    }
  }
  return {
    ...care,
    actions: {
      ...actions,
      create: (input) => observed(undefined, () => actions.create(input)),
      update: (id, input) => observed(id, () => actions.update(id, input)),
      complete: (id) => observed(id, () => actions.complete(id)),
      reopen: (id) => observed(id, () => actions.reopen(id)),
    },
  };
}
