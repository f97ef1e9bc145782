/**
 * The safeguarding tier: the care system's action tags (`user_tags` Ids)
 * and notification groups (`notify_on_complete` Ids) a care home's admins
 * named as meaning safeguarding, and the people named for safeguarding. Kept
 * in the home's settings under `safeguarding` (JSON). An action that carries
 * one is never posted to a channel in any form; its urgent alert and escalation
 * go by DM to the officers (the workspace's admins when none are named).
 */
import type { Action } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';

export const SAFEGUARDING_SETTING = 'safeguarding';

export interface SafeguardingSettings {
  /** Action tag Ids (the action's `user_tags`). */
  tags: string[];
  /** Notification groups (the action's `notify_on_complete`): Id and the name an admin typed. */
  groups: { id: string; name: string }[];
  /** Slack user ids of the people named for safeguarding. */
  officers: string[];
}

export const NO_SAFEGUARDING: SafeguardingSettings = { tags: [], groups: [], officers: [] };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : []);

/** The stored text as settings (none when missing or unreadable). Pure. */
export function readSafeguarding(value: string | null | undefined): SafeguardingSettings {
  if (!value) return NO_SAFEGUARDING;
  try {
    const v = JSON.parse(value) as Record<string, unknown>;
    const groups = Array.isArray(v.groups)
      ? v.groups
          .filter((g): g is { id: string; name?: unknown } => typeof g === 'object' && g !== null && typeof (g as { id?: unknown }).id === 'string')
          .map((g) => ({ id: g.id, name: typeof g.name === 'string' ? g.name : g.id }))
      : [];
    return { tags: strings(v.tags), groups, officers: strings(v.officers) };
  } catch {
    return NO_SAFEGUARDING;
  }
}

/** Whether the home named anything as safeguarding. */
export const safeguardingOn = (s: SafeguardingSettings): boolean => s.tags.length > 0 || s.groups.length > 0;

/** Pure: whether this action is about a safeguarding concern (a named tag or notification group on it). */
export function isSafeguarding(action: Pick<Action, 'user_tags' | 'notify_on_complete'>, settings: SafeguardingSettings): boolean {
  if (!safeguardingOn(settings)) return false;
  if ((action.user_tags ?? []).some((t) => settings.tags.includes(t))) return true;
  return (action.notify_on_complete ?? []).some((g) => settings.groups.some((x) => x.id === g));
}

/** The home's safeguarding settings as set (none until set). */
export async function safeguardingOf(store: Pick<WorkspaceStore, 'getHomeSetting'>): Promise<SafeguardingSettings> {
  return readSafeguarding((await store.getHomeSetting(SAFEGUARDING_SETTING))?.value);
}

/**
 * Whether an action's posts are kept out of channels (post-redraw.ts: drawn in DMs only): a safeguarding action
 * is, by the home's settings as they are at each check.
 */
export function keptOutOfChannels(
  store: Pick<WorkspaceStore, 'getHomeSetting'>,
): (action: Pick<Action, 'user_tags' | 'notify_on_complete'>) => Promise<boolean> {
  return async (action) => isSafeguarding(action, await safeguardingOf(store));
}

/** Who is told about a safeguarding action: the officers named, or the admins when none are. */
export function safeguardingAudience(settings: SafeguardingSettings, adminIds: readonly string[]): string[] {
  return [...new Set(settings.officers.length ? settings.officers : adminIds)];
}

/** A predicate over actions, read once from the store (for a job's run or one channel post). */
export async function safeguardingFilter(
  store: Pick<WorkspaceStore, 'getHomeSetting'>,
): Promise<(a: Pick<Action, 'user_tags' | 'notify_on_complete'>) => boolean> {
  const settings = await safeguardingOf(store);
  return (a) => isSafeguarding(a, settings);
}
