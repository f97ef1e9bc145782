import type { WebClient } from '@slack/web-api';
import { UserFacingError } from '../errors.js';

/** A channel or person as an admin may name it: Slack's mention (an id), or typed words. */
export type NameRef = { type: 'id'; id: string } | { type: 'name'; name: string };

export interface NamedChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isMember: boolean;
}

export interface NamedPerson {
  id: string;
  /** The legacy handle (`name`). */
  handle: string;
  displayName: string;
  realName: string;
}

/**
 * What a typed name found: one match; several (the person chooses); or none,
 * with the near ones (a part of a name) to suggest.
 */
export type NameLookup<T> = { kind: 'found'; match: T } | { kind: 'ambiguous'; typed: string; matches: T[] } | { kind: 'unknown'; typed: string; near: T[] };

export interface WorkspaceNames {
  channel(ref: NameRef): Promise<NameLookup<NamedChannel>>;
  person(ref: NameRef): Promise<NameLookup<NamedPerson>>;
  /**
   * One person, or several typed one after another ("@oliver Priya Sharma",
   * "sharma oliver"): when no one has the whole name, the words are split
   * into the longest names that each find one person. Else what the first
   * name that could not be placed found.
   */
  people(ref: NameRef): Promise<{ kind: 'found'; matches: NamedPerson[] } | Exclude<NameLookup<NamedPerson>, { kind: 'found' }>>;
}

/** At most this many candidates are named back to the person; at most this many words are split into names. */
const MAX_WORDS = 12;
/** At most this many candidates are named back to the person. */
const SHOWN = 8;
/** A workspace bigger than this many pages is not read through (each page is one Tier 2 call). */
const MAX_PAGES = 50;

/** Lower case, accents off, one space between words, no leading # or @. */
export function normalizeName(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^[#@]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const words = (s: string) =>
  normalizeName(s)
    .split(/[\s._-]+/)
    .filter(Boolean);

/**
 * A person by typed words. `@name` is first taken as Slack shows it after @
 * (display name or handle). Otherwise every person one of whose names is the
 * typed text, or has each typed word as a whole word ("Priya" in "Priya
 * Sharma"), matches: one is found, more are for the admin to choose from. None:
 * the people with the text inside a name are suggested, never taken.
 */
function rankPeople(people: NamedPerson[], typed: string): NameLookup<NamedPerson> {
  const want = normalizeName(typed);
  if (!want) return { kind: 'unknown', typed, near: [] };
  const names = (p: NamedPerson) => [p.handle, p.displayName, p.realName].map(normalizeName).filter(Boolean);
  const pick = (found: NamedPerson[]): NameLookup<NamedPerson> | null =>
    found.length === 1 ? { kind: 'found', match: found[0]! } : found.length > 1 ? { kind: 'ambiguous', typed, matches: found.slice(0, SHOWN) } : null;
  if (typed.trim().startsWith('@')) {
    const shown = pick(people.filter((p) => [p.handle, p.displayName].map(normalizeName).includes(want)));
    if (shown) return shown;
  }
  const typedWords = words(typed);
  const matched = pick(people.filter((p) => names(p).some((n) => n === want || typedWords.every((w) => words(n).includes(w)))));
  if (matched) return matched;
  const near = people.filter((p) => names(p).some((n) => n.includes(want)));
  return { kind: 'unknown', typed, near: near.slice(0, SHOWN) };
}

/**
 * The workspace's channels and people by the names admins type (`#care-team`,
 * `care-team`, `@priya`, `Priya Sharma`), read with conversations.list and
 * users.list (every page) and kept for a minute: both are Tier 2 methods.
 */
export function createWorkspaceNames(deps: { slack: WebClient; ttlMs?: number; now?: () => number }): WorkspaceNames {
  const ttl = deps.ttlMs ?? 60_000;
  const now = deps.now ?? Date.now;
  let channels: { at: number; list: Promise<NamedChannel[]> } | undefined;
  let people: { at: number; list: Promise<NamedPerson[]> } | undefined;

  async function readChannels(): Promise<NamedChannel[]> {
    const out: NamedChannel[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await deps.slack.conversations.list({
        types: 'public_channel,private_channel',
        exclude_archived: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const c of res.channels ?? []) {
        if (c.id && c.name) out.push({ id: c.id, name: c.name, isPrivate: Boolean(c.is_private), isMember: Boolean(c.is_member) });
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }

  async function readPeople(): Promise<NamedPerson[]> {
    const out: NamedPerson[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await deps.slack.users.list({ limit: 200, ...(cursor ? { cursor } : {}) });
      for (const u of res.members ?? []) {
        if (!u.id || u.deleted || u.is_bot || u.id === 'USLACKBOT') continue;
        out.push({
          id: u.id,
          handle: u.name ?? '',
          displayName: u.profile?.display_name ?? '',
          realName: u.real_name ?? u.profile?.real_name ?? '',
        });
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }

  function cached<T>(slot: { at: number; list: Promise<T[]> } | undefined, read: () => Promise<T[]>, set: (s: { at: number; list: Promise<T[]> }) => void) {
    if (slot && now() - slot.at < ttl) return slot.list;
    const list = read();
    const entry = { at: now(), list };
    set(entry);
    // A failed read is not kept: the next command asks Slack again.
    list.catch(() => set({ at: 0, list }));
    return list;
  }

  const unreadable = (what: string, how: string) => (err: unknown) => {
    const code = (err as { data?: { error?: string } }).data?.error;
    throw new UserFacingError(`I could not read the workspace's ${what} just now${code ? ` (${code})` : ''}. ${how}`, 'other');
  };

  const service: WorkspaceNames = {
    async channel(ref) {
      const list = await cached(channels, readChannels, (s) => (channels = s)).catch(
        unreadable('channels', 'Pick the channel from Slack’s list by typing # instead.'),
      );
      if (ref.type === 'id') {
        const hit = list.find((c) => c.id === ref.id);
        return hit ? { kind: 'found', match: hit } : { kind: 'unknown', typed: ref.id, near: [] };
      }
      // Channel names are unique: only an exact name (or Id) is taken; anything else is a suggestion.
      const typed = normalizeName(ref.name);
      const exact = list.find((c) => c.name.toLowerCase() === typed || c.id === ref.name.replace(/^#/, ''));
      if (exact) return { kind: 'found', match: exact };
      const near = list.filter((c) => typed.length > 0 && (c.name.includes(typed) || typed.includes(c.name)));
      return { kind: 'unknown', typed: ref.name, near: near.slice(0, SHOWN) };
    },

    async person(ref) {
      const list = await cached(people, readPeople, (s) => (people = s)).catch(unreadable('people', 'Pick the person from Slack’s list by typing @ instead.'));
      if (ref.type === 'id') {
        const hit = list.find((p) => p.id === ref.id);
        return hit ? { kind: 'found', match: hit } : { kind: 'unknown', typed: ref.id, near: [] };
      }
      const byId = list.find((p) => p.id === ref.name.replace(/^@/, ''));
      if (byId) return { kind: 'found', match: byId };
      return rankPeople(list, ref.name);
    },

    async people(ref) {
      const whole = await service.person(ref);
      if (whole.kind === 'found') return { kind: 'found', matches: [whole.match] };
      const parts = ref.type === 'name' ? ref.name.split(/\s+/).filter(Boolean) : [];
      if (whole.kind === 'ambiguous' || whole.near.length > 0 || parts.length < 2 || parts.length > MAX_WORDS) return whole;
      const matches: NamedPerson[] = [];
      for (let i = 0; i < parts.length; ) {
        let placed = 0;
        for (let len = parts.length - i - (i === 0 ? 1 : 0); len >= 1 && !placed; len--) {
          const found = await service.person({ type: 'name', name: parts.slice(i, i + len).join(' ') });
          if (found.kind === 'found') {
            matches.push(found.match);
            placed = len;
          }
        }
        if (!placed) {
          const alone = await service.person({ type: 'name', name: parts[i]! });
          return alone.kind === 'found' ? whole : alone;
        }
        i += placed;
      }
      return { kind: 'found', matches };
    },
  };
  return service;
}
