import { ApiError } from './api/api-error.js';
import type { FakeStore } from './store.js';
import type { TriggerRecord } from './types.js';

/** A trigger_id opens a view only within 3 s of the interaction, and only once. */
export const TRIGGER_LIFETIME_MS = 3000;

export function issueTrigger(store: FakeStore, user: string, viewId?: string): string {
  const now = store.clock.now();
  const id = store.ids.triggerId(now);
  const list = store.state.triggers;
  // Old triggers can never be used again: keep the list short.
  while (list.length > 0 && (list[0]?.issuedAt ?? now) < now - 10 * 60_000) list.shift();
  list.push({ id, user, issuedAt: now, used: false, ...(viewId ? { viewId } : {}) });
  return id;
}

/** Finds a usable trigger or throws Slack's error for it (`consume` marks it used). */
export function checkTrigger(store: FakeStore, triggerId: string): TriggerRecord {
  const trigger = store.state.triggers.find((t) => t.id === triggerId);
  if (!trigger) throw new ApiError('invalid_trigger_id');
  if (store.clock.now() - trigger.issuedAt > TRIGGER_LIFETIME_MS) throw new ApiError('expired_trigger_id');
  if (trigger.used) throw new ApiError('exchanged_trigger_id');
  return trigger;
}
