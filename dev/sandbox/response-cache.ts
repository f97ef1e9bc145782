/**
 * Whole list responses by resource and raw query string, valid while the
 * collection's change count is unchanged (lists do not depend on time or on
 * who asks). Bounded: cleared when it grows past `maxEntries`.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { version: number; body: string }>();

  constructor(private readonly maxEntries = 1000) {}

  get(key: string, version: number): string | undefined {
    const hit = this.entries.get(key);
    return hit && hit.version === version ? hit.body : undefined;
  }

  set(key: string, version: number, body: string): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { version, body });
  }
}
