/**
 * Recently read actions, in memory, kept fresh by what the app learns of
 * changes: action records by Id (and number) and the answers to list queries
 * (as Ids). The changes feed (the changes poll, or this instance's own sync,
 * see change-sync.ts) and the app's own writes (observe-writes.ts) tell it
 * what changed. A list keeps its ids when the change cannot move the action
 * in it (no field it filters or sorts on changed: list-order.ts); otherwise a
 * list the action is in, or could now be in, is dropped, and when it is one
 * people read all the time and a person read it lately ("hot"), it is read
 * again in the background once the burst of changes is over (a second after
 * the last one: refresh-queue.ts), once however many changes dropped it.
 *
 * Answers come from memory only while the feed is known to be running (its
 * last sync started within `maxLagMs`); otherwise every read asks the API, as
 * without a cache. Identical reads in flight share one request. A read that
 * was in flight when a change it could be affected by became known is
 * answered to those already waiting but not kept, and later callers start a
 * new read: nothing read before a change made through Slack is shown after it.
 * Bounded (entries and estimated bytes, least recently used first); nothing of
 * it is written anywhere, and it logs no care data.
 */
import { createHash } from 'node:crypto';
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { contentOf, couldInclude, type ListQuery, listKey, project } from './action-filters.js';
import { createInFlight } from './in-flight.js';
import { placeHash, placingFields } from './list-order.js';
import { createRefreshQueue, type PendingRefresh, type RefreshTimers } from './refresh-queue.js';
import { createLru } from './lru.js';
import { estimateBytes } from './reference-cache.js';

export interface ActionCacheOptions {
  care: CareClient;
  now: () => number;
  logger: Logger;
  /** Answers come from memory only while the last sync of the changes feed started within this. */
  maxLagMs: number;
  /** An entry older than this is read again whatever the feed says (default 10 minutes). */
  maxAgeMs?: number;
  /** A list read in the background after a change only if a person read it within this (default 10 minutes). */
  hotMs?: number;
  /** Lists dropped by changes are read again this long after the last change (default 1 s), at most `5 ×` after the first. */
  coalesceMs?: number;
  /** The timers of that wait (default: the process's, not keeping it alive). */
  timers?: RefreshTimers;
  /** Bounds (defaults: 20,000 records, 2,000 lists, 32 MB estimated in all). */
  maxRecords?: number;
  maxLists?: number;
  maxBytes?: number;
}

export interface ActionCacheStats {
  records: number;
  lists: number;
  /** Estimated bytes of records and lists. */
  bytes: number;
  hits: number;
  misses: number;
  /** Reads that joined one already in flight. */
  shared: number;
  /** Changes from the feed or our writes that were news. */
  changes: number;
  invalidations: number;
  /** Lists a change could not move, kept as they were. */
  kept: number;
  evictions: number;
  trusted: boolean;
}

export interface ActionCache {
  /**
   * Up to `query.limit` actions (ACTION_ATTRIBUTES), as `care.actions.collect`
   * gives them. `background`: a list people read all the time, read again in
   * the background as soon as a change drops it. `ahead`: read before anyone asked (not counted as a hit or a
   * miss, so it does not keep an unread cache awake: change-sync.ts).
   */
  list(query: ListQuery, options?: { background?: boolean; ahead?: boolean }): Promise<Action[]>;
  /** The action with this number, when it is held and answers may come from memory. */
  byNumber(no: string): Action | undefined;
  /** Yields what `items` yields, keeping each action as read (a search, a page). */
  remembering(items: AsyncIterable<Action>): AsyncGenerator<Action, void, undefined>;
  /** Actions the changes feed returned, read with a request that began at `readStart` (from `now()`). */
  applyFeed(actions: readonly Action[], readStart: number): void;
  /** An action as a write made by this instance left it; `null`: the write's outcome is unknown for action `id`. */
  applyWrite(action: Action | null, id?: string): void;
  /** The feed has delivered every change visible when a sync began at `startedAt` (from `now()`). */
  synced(startedAt: number): void;
  /** Let go of everything and stop answering from memory until the next sync, which counts as a first one. */
  forget(): void;
  /** Whether answers may come from memory now. */
  trusted(): boolean;
  /** Reads at once what waits to be read again after changes, and resolves once no read of it is in flight. */
  idle(): Promise<void>;
  /** Called (not awaited) each time answers may come from memory again: the first sync, or one after a lapse. */
  onTrusted(listener: () => void): void;
  /**
   * Moves on with every change this instance learns of; null while answers may
   * not come from memory (changes may be happening unseen).
   */
  version(): number | null;
  now(): number;
  stats(): ActionCacheStats;
}

interface RecordEntry {
  action: Action;
  content: string;
  modifiedMs: number;
  readStart: number;
  readEnd: number;
}

interface ListEntry {
  query: ListQuery;
  ids: string[];
  /** Its actions, each with its place as the read found it (a hash of list-order.ts's placeOf; NaN: every change may move it). */
  members: Map<string, number>;
  readStart: number;
  readEnd: number;
  background: boolean;
  /** When a person last read it (a refresh and a read ahead do not count); -Infinity: never. */
  usedAt: number;
}

interface Fetch {
  id: number;
  key: string;
  query: ListQuery;
  startSeq: number;
  readStart: number;
}

interface ChangeNote {
  seq: number;
  action: Action;
  readEnd: number;
  /** The fetch that found it (its own list is not judged by it). */
  origin: number | null;
}

const modifiedMs = (a: Action) => parseApiDateTime(a.modified)?.getTime() ?? 0;
const hash = (content: string) => createHash('sha1').update(content).digest('base64').slice(0, 16);

export function createActionCache(options: ActionCacheOptions): ActionCache {
  const { care, now, logger } = options;
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const hotMs = options.hotMs ?? 10 * 60_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const byNo = new Map<string, string>();
  const records = createLru<RecordEntry>({
    maxEntries: options.maxRecords ?? 20_000,
    maxBytes: Math.max(1, Math.floor(maxBytes * 0.8)),
    sizeOf: (r) => 2 * r.content.length + estimateBytes(r.action) + 96,
    onRemove: (id, r) => {
      const no = r.action.action_no;
      if (no && byNo.get(no) === id) byNo.delete(no);
    },
  });
  const lists = createLru<ListEntry>({
    maxEntries: options.maxLists ?? 2_000,
    maxBytes: Math.max(1, Math.floor(maxBytes * 0.2)),
    sizeOf: (l) => 48 * l.ids.length + 2 * listKey(l.query).length + 160,
  });
  /** What the feed (and our writes) last said of each action: a hash, so an overlap's re-read is no news. */
  const feedSeen = createLru<string>({ maxEntries: 50_000, maxBytes: 50_000 * 64, sizeOf: () => 64 });
  const inFlight = createInFlight<Action[]>();
  const fetches = new Set<Fetch>();
  let notes: ChangeNote[] = [];
  let seq = 0;
  let fetchIds = 0;
  let epoch = 0;
  let syncedAt: number | null = null;
  const trustedListeners: (() => void)[] = [];
  const counts = { hits: 0, misses: 0, shared: 0, changes: 0, invalidations: 0, kept: 0 };

  const trusted = () => syncedAt !== null && now() - syncedAt <= options.maxLagMs;
  const young = (readEnd: number) => now() - readEnd < maxAgeMs;

  function keep(action: Action, content: string, readStart: number, readEnd: number): void {
    records.set(action._id, { action, content, modifiedMs: modifiedMs(action), readStart, readEnd });
    if (action.action_no) byNo.set(action.action_no, action._id);
  }

  /**
   * A change is known: drop lists it could affect (read before it was known) and detach reads in flight
   * it could affect (by what the action was, when held, and by what it is now).
   */
  function noteChange(action: Action, previous: Action | undefined, readEnd: number, origin: number | null, refresh: Map<string, PendingRefresh>): void {
    counts.changes++;
    seq++;
    if (fetches.size) notes.push({ seq, action, readEnd, origin });
    for (const [key, list] of [...lists.entries()]) {
      if (list.readStart >= readEnd) continue; // read after the change was known: it shows it
      const place = list.members.get(action._id);
      if (place === undefined && !couldInclude(list.query, action)) continue;
      // In the list, and nothing it filters or sorts on moved: the same ids in the same order (the records show the change).
      if (place !== undefined && !Number.isNaN(place) && place === placeHash(placingFields(list.query) ?? [], action)) {
        counts.kept++;
        continue;
      }
      lists.delete(key);
      counts.invalidations++;
      if (list.background && now() - list.usedAt < hotMs) refresh.set(key, { query: list.query, usedAt: list.usedAt });
    }
    for (const f of fetches) {
      if (f.id === origin || f.readStart >= readEnd || !inFlight.has(f.key)) continue;
      if (!previous || couldInclude(f.query, previous) || couldInclude(f.query, action)) inFlight.detach(f.key);
    }
  }

  /** Whether a change known since the fetch began could make its answer out of date. */
  function changedDuring(f: Fetch, idSet: ReadonlyMap<string, unknown>): boolean {
    return notes.some(
      (n) => n.seq > f.startSeq && n.origin !== f.id && n.readEnd > f.readStart && (idSet.has(n.action._id) || couldInclude(f.query, n.action)),
    );
  }

  function trimNotes(): void {
    if (!fetches.size) notes = [];
    else {
      const oldest = Math.min(...[...fetches].map((f) => f.startSeq));
      notes = notes.filter((n) => n.seq > oldest);
    }
  }

  /**
   * An action as a read found it. News only when we held it with other content
   * (a record we never held tells us nothing changed: the feed says what did).
   */
  function ingestRead(action: Action, readStart: number, readEnd: number, origin: number | null, refresh: Map<string, PendingRefresh>): void {
    const content = contentOf(action);
    const current = records.peek(action._id);
    if (!current) {
      keep(action, content, readStart, readEnd);
      return;
    }
    if (current.content === content) return;
    const m = modifiedMs(action);
    if (m < current.modifiedMs || (m === current.modifiedMs && current.readStart >= readEnd)) return; // we hold newer
    if (m > current.modifiedMs || readStart >= current.readEnd) keep(action, content, readStart, readEnd);
    else records.delete(action._id); // same second, reads overlapping: which is newer is unknown
    noteChange(action, current.action, readEnd, origin, refresh);
  }

  /** Lists dropped by a change, read again once the burst is over (unless someone read them meanwhile). */
  const refreshes = createRefreshQueue({
    quietMs: options.coalesceMs ?? 1_000,
    maxWaitMs: 5 * (options.coalesceMs ?? 1_000),
    timers: options.timers,
    run: (batch) => {
      if (!trusted()) return;
      for (const [key, { query, usedAt }] of batch) {
        if (lists.peek(key) || inFlight.has(key)) continue; // read since: it shows the changes
        fetchList(key, query, true, usedAt).catch((err) => logger.warn('could not read a list again after a change; the next read will', { error: err }));
      }
    },
  });

  function startRefreshes(refresh: Map<string, PendingRefresh>): void {
    if (!refresh.size || !trusted()) return;
    for (const [key, pending] of refresh) refreshes.add(key, pending);
  }

  /** `usedAt`: when a person last read the list (now, for a person's read; carried, for a refresh; -Infinity ahead of anyone). */
  function fetchList(key: string, query: ListQuery, background: boolean, usedAt: number | 'now'): Promise<Action[]> {
    if (inFlight.has(key)) counts.shared++;
    return inFlight.run(key, async () => {
      const f: Fetch = { id: ++fetchIds, key, query, startSeq: seq, readStart: now() };
      const startEpoch = epoch;
      fetches.add(f);
      try {
        const items = (await care.actions.collect(query)).map(project);
        const readEnd = now();
        const refresh = new Map<string, PendingRefresh>();
        for (const a of items) ingestRead(a, f.readStart, readEnd, f.id, refresh);
        const fields = placingFields(query);
        const members = new Map(items.map((a) => [a._id, fields ? placeHash(fields, a) : Number.NaN]));
        if (epoch === startEpoch && !changedDuring(f, members)) {
          const used = usedAt === 'now' ? readEnd : usedAt;
          lists.set(key, { query, ids: items.map((a) => a._id), members, readStart: f.readStart, readEnd, background, usedAt: used });
        }
        startRefreshes(refresh);
        return items;
      } finally {
        fetches.delete(f);
        trimNotes();
      }
    });
  }

  const cache: ActionCache = {
    async list(query, opts = {}) {
      const key = listKey(query);
      if (trusted()) {
        const hit = lists.get(key);
        if (hit && young(hit.readEnd)) {
          const held = hit.ids.map((id) => records.get(id));
          if (held.every((r): r is RecordEntry => r !== undefined)) {
            if (!opts.ahead) {
              counts.hits++;
              hit.usedAt = now();
            }
            if (opts.background) hit.background = true;
            return held.map((r) => r.action);
          }
          lists.delete(key); // some of its records were evicted
        }
      }
      if (!opts.ahead) counts.misses++;
      const items = await fetchList(key, query, Boolean(opts.background), opts.ahead ? Number.NEGATIVE_INFINITY : 'now');
      if (!opts.ahead) {
        // A person's read, even one that joined a refresh in flight: the list is hot.
        const held = lists.peek(key);
        if (held) held.usedAt = Math.max(held.usedAt, now());
      }
      return items;
    },

    byNumber(no) {
      if (!trusted()) return undefined;
      const id = byNo.get(no);
      const held = id ? records.get(id) : undefined;
      if (!held || held.action.action_no !== no || !young(held.readEnd)) return undefined;
      counts.hits++;
      return held.action;
    },

    async *remembering(items) {
      const readStart = now();
      const refresh = new Map<string, PendingRefresh>();
      try {
        for await (const a of items) {
          ingestRead(project(a), readStart, now(), null, refresh);
          yield a;
        }
      } finally {
        startRefreshes(refresh);
      }
    },

    applyFeed(actions, readStart) {
      const readEnd = now();
      const refresh = new Map<string, PendingRefresh>();
      for (const raw of actions) {
        const action = project(raw);
        const content = contentOf(action);
        const h = hash(content);
        if (feedSeen.get(action._id) === h) continue; // already known (an overlap's re-read)
        feedSeen.set(action._id, h);
        // News for the lists even when a read already brought this state into the records: they may predate it.
        const current = records.peek(action._id);
        if (current?.content !== content) {
          const m = modifiedMs(action);
          if (!current || m > current.modifiedMs || (m === current.modifiedMs && readStart >= current.readEnd)) keep(action, content, readStart, readEnd);
          else if (m === current.modifiedMs && current.readStart < readEnd) records.delete(action._id); // same second, overlapping reads
          // else we hold a newer state: keep it
        }
        noteChange(action, current?.action, readEnd, null, refresh);
      }
      startRefreshes(refresh);
    },

    applyWrite(raw, id) {
      const readEnd = now();
      if (!raw) {
        // The write's outcome is unknown: forget the action, and every list (any could now include it).
        if (id) records.delete(id);
        epoch++;
        counts.invalidations += lists.size;
        lists.clear();
        for (const f of fetches) inFlight.detach(f.key);
        return;
      }
      const action = project(raw);
      const content = contentOf(action);
      feedSeen.set(action._id, hash(content));
      const previous = records.peek(action._id)?.action;
      keep(action, content, readEnd, readEnd);
      const refresh = new Map<string, PendingRefresh>();
      noteChange(action, previous, readEnd, null, refresh);
      startRefreshes(refresh);
    },

    synced(startedAt) {
      const wasTrusted = trusted();
      if (syncedAt === null) {
        // The first sync: what was read before it began may have missed changes no feed will repeat.
        for (const [key, list] of [...lists.entries()]) if (list.readStart < startedAt) lists.delete(key);
        for (const [id, r] of [...records.entries()]) if (r.readStart < startedAt) records.delete(id);
        epoch++;
      }
      syncedAt = Math.max(syncedAt ?? startedAt, startedAt);
      logger.debug('action cache synced', { records: records.size, lists: lists.size });
      if (!wasTrusted && trusted()) for (const listener of trustedListeners) listener();
    },

    forget() {
      records.clear();
      lists.clear();
      byNo.clear();
      feedSeen.clear();
      refreshes.clear();
      syncedAt = null;
      epoch++;
      for (const f of fetches) inFlight.detach(f.key);
      logger.debug('action cache let go (nobody read it for a while)');
    },

    trusted,
    async idle() {
      // What a refresh reads may drop (and queue) more; a few rounds settle any real burst.
      for (let round = 0; round < 5; round++) {
        refreshes.flush();
        await inFlight.settled();
        if (!refreshes.size()) return;
      }
    },
    onTrusted: (listener) => void trustedListeners.push(listener),
    version: () => (trusted() ? seq + epoch : null),
    now,

    stats: () => ({
      records: records.size,
      lists: lists.size,
      bytes: records.bytes + lists.bytes,
      ...counts,
      evictions: records.evictions + lists.evictions,
      trusted: trusted(),
    }),
  };
  return cache;
}
