import type { WireRecord } from './resources/types.js';

/**
 * Per-record caches keyed by object identity: the JSON of a record's
 * projections and its lowercase search text. Records are replaced on every
 * change, so a changed record simply misses the cache; nothing is invalidated
 * by hand. One instance per server (no module-level state).
 */
export class RecordCache {
  private readonly projections = new WeakMap<object, Map<string, string>>();
  private readonly haystacks = new WeakMap<object, string>();

  /** JSON of the record limited to `attributes` (in that order), cached under their joined names. */
  project(record: WireRecord, attributes: readonly string[], key: string): string {
    let byKey = this.projections.get(record);
    if (!byKey) {
      byKey = new Map();
      this.projections.set(record, byKey);
    }
    let json = byKey.get(key);
    if (json === undefined) {
      const source = record as unknown as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const a of attributes) out[a] = source[a] ?? null;
      json = JSON.stringify(out);
      byKey.set(key, json);
    }
    return json;
  }

  /** JSON of the whole record. */
  full(record: WireRecord): string {
    return this.project(record, Object.keys(record), '*');
  }

  /** Lowercase text of `fields` joined by NUL (so a search never spans two fields). */
  haystack = (record: WireRecord, fields: readonly string[]): string => {
    let text = this.haystacks.get(record);
    if (text === undefined) {
      const source = record as unknown as Record<string, unknown>;
      text = fields.map((f) => String(source[f] ?? '')).join('\u0000').toLowerCase();
      this.haystacks.set(record, text);
    }
    return text;
  };
}
