/**
 * Each person's Home tab filter (one location, or everything), remembered in
 * the store's cursors so every instance and every later render shows the same.
 */
import type { WorkspaceStore } from '../../store/index.js';
import type { Actor } from '../people/identity.js';
import type { ListWhere } from './list-where.js';

export interface HomeFilters {
  /** The location the person's Home tab shows, if they chose one. */
  get(actor: Actor): Promise<ListWhere | undefined>;
  /** Choose a location, or everything (null). */
  set(actor: Actor, where: ListWhere | null): Promise<void>;
}

const cursor = (userId: string) => `home-where:${userId}`;
const CARE_ID = /^[0-9a-f]{24}$/;

export function createHomeFilters(deps: { store: Pick<WorkspaceStore, 'getCursor' | 'setCursor'> }): HomeFilters {
  return {
    async get(actor) {
      const raw = await deps.store.getCursor(cursor(actor.userId));
      if (!raw) return undefined;
      try {
        const v = JSON.parse(raw) as Partial<{ type: string; id: string; name: string }>;
        return v.type === 'location' && typeof v.id === 'string' && CARE_ID.test(v.id) && typeof v.name === 'string'
          ? { type: 'location', id: v.id, name: v.name }
          : undefined;
      } catch {
        return undefined;
      }
    },
    async set(actor, where) {
      await deps.store.setCursor(cursor(actor.userId), where ? JSON.stringify(where) : '');
    },
  };
}
