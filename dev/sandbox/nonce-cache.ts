/**
 * Nonces seen per key, each remembered until its request timestamp leaves
 * the permitted window, so a replayed request is refused while it could
 * still pass the timestamp check. Expired entries are swept at most once a second.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Record the nonce; false when it was already seen and has not expired. */
  remember(apiKey: string, nonce: string, expiresAtMs: number): boolean {
    const t = this.now();
    if (t >= this.nextSweep) this.sweep(t);
    const key = `${apiKey}\u0000${nonce}`;
    const expiry = this.seen.get(key);
    if (expiry !== undefined && expiry > t) return false;
    this.seen.set(key, expiresAtMs);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private sweep(t: number): void {
    this.nextSweep = t + 1000;
    for (const [key, expiry] of this.seen) if (expiry <= t) this.seen.delete(key);
  }
}
