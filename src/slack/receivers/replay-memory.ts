/**
 * The replay guard's memory of its own, for when the store cannot answer in
 * time: the requests this instance let through meanwhile, each kept until its
 * signature window ends, so a copy sent to this instance again is still
 * refused. Bounded: the oldest go first.
 */
export class ReplayMemory {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly max = 50_000) {}

  /** Was `key` let through here and is it still inside its window at `now`? */
  has(key: string, now: number): boolean {
    const expiresAt = this.expiries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > now) return true;
    this.expiries.delete(key);
    return false;
  }

  remember(key: string, expiresAt: number, now: number): void {
    if (this.expiries.size >= this.max) this.prune(now);
    while (this.expiries.size >= this.max) {
      const oldest = this.expiries.keys().next().value;
      if (oldest === undefined) break;
      this.expiries.delete(oldest);
    }
    this.expiries.set(key, expiresAt);
  }

  get size(): number {
    return this.expiries.size;
  }

  private prune(now: number): void {
    for (const [key, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(key);
  }
}
