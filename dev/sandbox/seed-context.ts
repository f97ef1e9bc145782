import { ObjectIdFactory } from './object-id.js';
import type { Rng } from './random.js';
import { formatDateTime, wholeSeconds } from './wire-time.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Shared state of one seeding run: the PRNG, an id factory fed by it, and the anchor time. */
export class SeedContext {
  readonly ids: ObjectIdFactory;

  constructor(
    readonly rng: Rng,
    /** Virtual "now" the data is relative to (ms). */
    readonly anchor: number,
  ) {
    this.ids = new ObjectIdFactory((n) => rng.hex(n));
  }

  /** A whole-second time between minDays and maxDays before the anchor. */
  past(minDays: number, maxDays: number): number {
    return wholeSeconds(this.anchor - (minDays + this.rng.next() * (maxDays - minDays)) * DAY_MS);
  }

  /** A record's _id/created/modified: created in the past window, modified between created and now. */
  stamps(minDays: number, maxDays: number): { _id: string; created: string; modified: string } {
    const created = this.past(minDays, maxDays);
    const modified = this.rng.chance(0.5) ? created : wholeSeconds(created + this.rng.next() * (this.anchor - created));
    return { _id: this.ids.next(created), created: formatDateTime(created), modified: formatDateTime(modified) };
  }

  /** A fresh id for something the sandbox does not serve (brands, groups, subjects...). */
  foreignId(daysAgo = 400): string {
    return this.ids.next(this.past(daysAgo / 2, daysAgo));
  }
}
