/**
 * The care users, for names and for linking by email: one paged read of them
 * all, shared by everyone and kept a few minutes (reference-cache.ts), so a
 * shift change of forty Home tabs costs one read for forty names. Ids the
 * directory does not know (a care user added since it was read, or too many
 * users to hold) are read by id, kept the same way.
 */
import { type CareClient, type CareUser, ForbiddenError, MethodNotAllowedError, NotFoundError } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { ReferenceCache } from './reference-cache.js';

export type CareUserRow = Pick<CareUser, '_id' | 'email' | 'first_name' | 'last_name'>;

export interface UserIndex {
  byId: Map<string, CareUserRow>;
  /** By lower-case email. */
  byEmail: Map<string, CareUserRow>;
}

export interface CareUserDirectory {
  /** Every care user; null when the key may not read users, the read failed, or there are too many to hold. */
  directory(): Promise<UserIndex | null>;
  /** Display names of these care users (those it cannot find are left out). */
  names(careUserIds: string[]): Promise<Map<string, string>>;
}

/** More care users than this: no directory; names are read per id. */
export const USER_DIRECTORY_LIMIT = 5_000;
const USER_ATTRIBUTES = ['_id', 'email', 'first_name', 'last_name'] as const;

export const fullName = (u: Pick<CareUser, 'first_name' | 'last_name' | 'email'>) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email || 'care user';
/** The key may not read users (or the API has no users endpoint). */
export const usersUnavailable = (err: unknown) => err instanceof ForbiddenError || err instanceof NotFoundError || err instanceof MethodNotAllowedError;

export function createCareUserDirectory(deps: { care: CareClient; reference: ReferenceCache; logger: Logger }): CareUserDirectory {
  const { care, reference, logger } = deps;
  const indexes = new WeakMap<CareUserRow[], UserIndex>();

  async function directory(): Promise<UserIndex | null> {
    const rows = await reference
      .get<CareUserRow[] | null>('users:all', async () => {
        try {
          const all: CareUserRow[] = [];
          for await (const u of care.users.iterate({ attributes: [...USER_ATTRIBUTES], limit: USER_DIRECTORY_LIMIT + 1 })) all.push(u);
          return all.length > USER_DIRECTORY_LIMIT ? null : all;
        } catch (err) {
          if (usersUnavailable(err)) return null;
          throw err;
        }
      })
      .catch((err) => {
        logger.warn('could not read the care users', { error: err });
        return null;
      });
    if (!rows) return null;
    let index = indexes.get(rows);
    if (!index) {
      index = { byId: new Map(rows.map((u) => [u._id, u])), byEmail: new Map(rows.filter((u) => u.email).map((u) => [u.email!.toLowerCase(), u])) };
      indexes.set(rows, index);
    }
    return index;
  }

  return {
    directory,
    async names(careUserIds) {
      const out = new Map<string, string>();
      const wanted = [...new Set(careUserIds)];
      if (!wanted.length) return out;
      const known = await directory();
      for (const id of wanted) {
        const u = known?.byId.get(id);
        if (u) out.set(id, fullName(u));
      }
      const missing = wanted.filter((id) => !out.has(id)).sort();
      if (!missing.length) return out;
      const found = await reference
        .get(`user-names:${missing.join(',')}`, async () => {
          const rows: [string, string][] = [];
          try {
            for await (const u of care.users.iterate({ filters: { ids: missing }, attributes: [...USER_ATTRIBUTES], limit: 500 }))
              rows.push([u._id, fullName(u)]);
          } catch (err) {
            if (!usersUnavailable(err)) throw err;
          }
          return rows;
        })
        .catch((err) => {
          logger.warn('could not read care user names', { error: err });
          return [] as [string, string][];
        });
      for (const [id, name] of found) out.set(id, name);
      return out;
    },
  };
}
