import type { WireRecord } from './resources/types.js';

type Cached = WireRecord & { [key: symbol]: unknown };

/**
 * Per-record caches: the JSON of a record's projections and its lowercase
 * search text, kept on the record itself under this instance's private,
 * non-enumerable symbols (invisible to JSON, Object.keys and spreads, and
 * faster than a WeakMap on the hot path). Records are replaced on every
 * change, so a changed record simply starts without cache.
 */
export class RecordCache {
  private readonly projections = Symbol('projections');
  private readonly search = Symbol('search');

  /** JSON of the record limited to `attributes` (in that order), cached under `key`. */
  project(record: WireRecord, attributes: readonly string[], key: string): string {
    const r = record as Cached;
    let byKey = r[this.projections] as Map<string, string> | undefined;
    if (!byKey) {
      byKey = new Map();
      Object.defineProperty(r, this.projections, { value: byKey, enumerable: false });
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
    const r = record as Cached;
    let text = r[this.search] as string | undefined;
    if (text === undefined) {
      const source = record as unknown as Record<string, unknown>;
      text = fields
        .map((f) => String(source[f] ?? ''))
        .join('\u0000')
        .toLowerCase();
      Object.defineProperty(r, this.search, { value: text, enumerable: false });
    }
    return text;
  };
}
