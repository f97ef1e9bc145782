import type { CareClient } from '../../care/index.js';
import type { ReferenceCache } from '../read-cache/reference-cache.js';

export interface LocationView {
  id: string;
  name: string | null;
  ref?: string | null;
  phone?: string | null;
  town?: string | null;
  suspended?: boolean;
}

export interface LiteratureView {
  id: string;
  name: string | null;
  ref?: string | null;
  file?: string | null;
  locationName?: string | null;
}

export interface DirectoryService {
  locations(words: string): Promise<LocationView[]>;
  literature(words: string): Promise<LiteratureView[]>;
  literatureItem(id: string): Promise<LiteratureView>;
  /** Notification groups for the modal's select (by name), at most 100 (Slack's option limit). */
  notificationGroups(query: string): Promise<{ id: string; name: string }[]>;
  /** Names of these groups (one request), e.g. to show an action's notify_on_complete. */
  groupNames(ids: string[]): Promise<Map<string, string>>;
  /** One group by exact (case-insensitive) name. */
  groupByName(name: string): Promise<{ id: string; name: string } | null>;
  /** Names of these locations (kept as reference data). */
  locationNames(ids: string[]): Promise<Map<string, string>>;
}

/**
 * Locations, literature and notification groups change rarely: every answer
 * is kept for a few minutes and refreshed in the background (reference-cache.ts),
 * so people do not wait for the API after the first read of the same words.
 */
export function createDirectoryService(deps: { care: CareClient; reference: ReferenceCache }): DirectoryService {
  const { care, reference } = deps;
  const q = (words: string) => (words.trim() ? { q: words.trim() } : {});
  const key = (kind: string, part: string) => `${kind}:${part}`;

  async function locationNames(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const pairs = await reference.get(key('location-names', [...ids].sort().join(',')), async () => {
      const out: [string, string][] = [];
      for await (const l of care.locations.iterate({ filters: { ids, suspended: 'unset' }, attributes: ['_id', 'name'], limit: 100 }))
        out.push([l._id, l.name ?? l._id]);
      return out;
    });
    return new Map(pairs);
  }

  return {
    locationNames,
    locations: (words) =>
      reference.get(key('locations', words.trim().toLowerCase()), async () => {
        const items = await care.locations.collect({
          filters: q(words),
          attributes: ['_id', 'name', 'ref', 'phone', 'street_address', 'suspended'],
          sort_by: ['name'],
          per_page: 100,
          limit: 100,
        });
        return items.map((l) => ({
          id: l._id,
          name: l.name ?? null,
          ref: l.ref ?? null,
          phone: l.phone ?? null,
          town: l.street_address?.town ?? null,
          suspended: Boolean(l.suspended),
        }));
      }),

    literature: (words) =>
      reference.get(key('literature', words.trim().toLowerCase()), async () => {
        const items = await care.literatureItems.collect({
          filters: q(words),
          attributes: ['_id', 'name', 'ref', 'file', 'location'],
          sort_by: ['name'],
          per_page: 100,
          limit: 100,
        });
        const names = await locationNames([...new Set(items.map((i) => i.location).filter((v): v is string => Boolean(v)))]);
        return items.map((i) => ({
          id: i._id,
          name: i.name ?? null,
          ref: i.ref ?? null,
          file: i.file ?? null,
          locationName: i.location ? (names.get(i.location) ?? null) : null,
        }));
      }),

    literatureItem: (id) =>
      reference.get(key('literature-item', id), async () => {
        const i = await care.literatureItems.retrieve(id, { attributes: ['_id', 'name', 'ref', 'file', 'location'] });
        return { id: i._id, name: i.name ?? null, ref: i.ref ?? null, file: i.file ?? null };
      }),

    notificationGroups: (query) =>
      reference.get(key('groups', query.trim().toLowerCase()), async () => {
        const items = await care.notificationGroups.collect({ filters: q(query), attributes: ['_id', 'name'], sort_by: ['name'], per_page: 100, limit: 100 });
        return items.map((g) => ({ id: g._id, name: g.name ?? g._id }));
      }),

    async groupNames(ids) {
      if (!ids.length) return new Map();
      const pairs = await reference.get(key('group-names', [...ids].sort().join(',')), async () => {
        const items = await care.notificationGroups.collect({ filters: { ids }, attributes: ['_id', 'name'], per_page: 100, limit: ids.length });
        return items.map((g): [string, string] => [g._id, g.name ?? g._id]);
      });
      return new Map(pairs);
    },

    groupByName: (name) =>
      reference.get(key('group-by-name', name.trim().toLowerCase()), async () => {
        const items = await care.notificationGroups.collect({ filters: { q: name }, attributes: ['_id', 'name'], per_page: 100, limit: 100 });
        const hit = items.find((g) => (g.name ?? '').toLowerCase() === name.toLowerCase());
        return hit ? { id: hit._id, name: hit.name ?? hit._id } : null;
      }),
  };
}
