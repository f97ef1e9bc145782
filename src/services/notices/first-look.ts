/**
 * The app's first look at a workspace's care system: what was already so then
 * is not news. Taken once (by the first changes poll, on any instance): every
 * open action is remembered as it is, quietly, by each kind of memory (the
 * assignee, the urgency). After it, an action the app has never seen is news
 * only when it was created after the first look; one created before it was not
 * open then (completed, say, and reopened since), and what it looks like now
 * says nothing about what changed.
 *
 * Creation time: the action's `created`, else the time its Id encodes (Ids are
 * ObjectIds: the first 8 hex digits are the creation time in Unix seconds).
 */
import type { Action, CareClient } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';

export const FIRST_LOOK_CURSOR = 'first-look';

/** What a kind of memory keeps of an action seen at the first look (only when it holds nothing yet). */
export type Remember = (action: Action) => Promise<void>;

export interface FirstLook {
  /** For an action the app has no memory of: is what it looks like now news? */
  isNews(action: Action): Promise<boolean>;
  /** Take the first look unless it was taken: remember every open action quietly. Returns the care API requests made. */
  ensureTaken(remember: Remember[]): Promise<number>;
}

const LOOK_ATTRIBUTES = ['_id', 'assigned_to', 'urgent', 'completed', 'modified', 'created', 'due'] as const;
const PAGE_CONCURRENCY = 8;

/** When the action was created (ms), from `created` or its Id; null when neither says. */
export function createdAt(action: Pick<Action, '_id'> & { created?: string | null }): number | null {
  const created = parseApiDateTime(action.created)?.getTime();
  if (created !== undefined) return created;
  return /^[0-9a-f]{24}$/.test(action._id) ? Number.parseInt(action._id.slice(0, 8), 16) * 1000 : null;
}

export function createFirstLook(deps: { care: Pick<CareClient, 'actions'>; store: Pick<WorkspaceStore, 'getCursor' | 'setCursor'> }): FirstLook {
  let takenAt: number | null = null; // the care system's time of the first look, once known

  async function taken(): Promise<number | null> {
    if (takenAt !== null) return takenAt;
    const stored = await deps.store.getCursor(FIRST_LOOK_CURSOR);
    const at = stored ? Date.parse(stored) : Number.NaN;
    if (!Number.isNaN(at)) takenAt = at;
    return takenAt;
  }

  return {
    async isNews(action) {
      const at = await taken();
      const created = createdAt(action);
      // Before the first look nothing is known of what was so: only what Slack itself changed is news.
      return at !== null && created !== null && created > at;
    },

    async ensureTaken(remember) {
      if ((await taken()) !== null) return 0;
      // The care system's own clock: the newest `modified` it holds (its clock may differ from ours).
      const newest = await deps.care.actions.list({ attributes: ['_id', 'modified'], sort_by: ['-modified'], per_page: 1 });
      let requests = 1;
      const at = parseApiDateTime(newest.items[0]?.modified)?.getTime() ?? 0;
      for await (const page of deps.care.actions.iteratePages({ filters: { completed: 'no' }, attributes: [...LOOK_ATTRIBUTES], per_page: 100 })) {
        requests++;
        // An action made while this look pages through is left for the poll, which will find it new.
        const known = page.items.filter((a) => (createdAt(a) ?? 0) <= at);
        for (let i = 0; i < known.length; i += PAGE_CONCURRENCY) {
          await Promise.all(known.slice(i, i + PAGE_CONCURRENCY).flatMap((a) => remember.map((r) => r(a))));
        }
      }
      await deps.store.setCursor(FIRST_LOOK_CURSOR, new Date(at).toISOString());
      takenAt = at;
      return requests;
    },
  };
}
