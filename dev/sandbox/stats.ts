/** Request counts of the /v1 API by `METHOD /v1/route/template` and status (for benchmarks and tests). */
export interface StatsSnapshot {
  total: number;
  /** e.g. `{"GET /v1/actions": {"200": 12, "429": 1}}` */
  byRoute: Record<string, Record<string, number>>;
  /** e.g. `{"200": 12, "429": 1}` */
  byStatus: Record<string, number>;
}

export class Stats {
  private total = 0;
  private byRoute = new Map<string, Map<number, number>>();

  record(method: string, template: string, status: number): void {
    this.total++;
    const key = `${method} ${template}`;
    let statuses = this.byRoute.get(key);
    if (!statuses) {
      statuses = new Map();
      this.byRoute.set(key, statuses);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  reset(): void {
    this.total = 0;
    this.byRoute = new Map();
  }

  snapshot(): StatsSnapshot {
    const byRoute: StatsSnapshot['byRoute'] = {};
    const byStatus: StatsSnapshot['byStatus'] = {};
    for (const [route, statuses] of [...this.byRoute].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const counts: Record<string, number> = {};
      for (const [status, n] of statuses) {
        counts[status] = n;
        byStatus[status] = (byStatus[status] ?? 0) + n;
      }
      byRoute[route] = counts;
    }
    return { total: this.total, byRoute, byStatus };
  }
}
