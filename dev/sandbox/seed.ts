import { Rng } from './random.js';
import { seedActions, seedSubjects } from './seed-actions.js';
import { SeedContext } from './seed-context.js';
import { seedPlaces } from './seed-places.js';
import { BRIGHTWATER, type ProviderProfile } from './seed-providers.js';
import type { StoreData } from './store.js';

export { DEMO_USERS, DEMO_EMAIL_DOMAIN, type DemoUser } from './seed-people.js';
export { BRIGHTWATER, providerFor, type ProviderProfile } from './seed-providers.js';

/** `demo`: the demo provider with a few hundred actions; `empty`: same people and places, no actions; n: n actions. */
export type SeedKind = 'demo' | 'empty' | number;

export const DEMO_ACTION_COUNT = 300;
export const DEFAULT_SEED_VALUE = 20240601;

/**
 * Seed data anchored at `anchorMs` (the virtual now): the same seed kind,
 * seed value, anchor and provider always give identical data, ids included.
 */
export function buildSeed(kind: SeedKind, seedValue: number, anchorMs: number, provider: ProviderProfile = BRIGHTWATER): StoreData {
  const ctx = new SeedContext(new Rng(seedValue), anchorMs);
  const places = seedPlaces(ctx, provider);
  const subjects = seedSubjects(ctx, places);
  const count = kind === 'demo' ? DEMO_ACTION_COUNT : kind === 'empty' ? 0 : kind;
  const actions = seedActions(ctx, places, subjects, count);
  return {
    users: places.users,
    notificationGroups: places.groups,
    locations: places.locations,
    literatureItems: places.literature,
    actions,
    subjects,
    nextActionNo: actions.length + 1,
  };
}
