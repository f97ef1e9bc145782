/**
 * The changes poll's last run, written for the admins' status (services/admin/status.ts): when it ran, whether
 * it went well, its counts, and when the last good run was. A failed run is always written. A good run
 * that says what the last one written here said (the same counts) and follows it on this instance is not
 * written again until `refreshMs` (half of what the status calls late: lastRunRefreshMs) has passed since
 * that write: an idle poll every 5 s writes it every 30 s, not every 5 s, and the status never sees a poll
 * that runs as late. After a run by another instance (`continuous` false) the next good run is written.
 */
import type { WorkspaceStore } from '../store/index.js';
import { CHANGES_LAST_RUN_CURSOR, type LastPollRun } from '../services/admin/poll-cursors.js';

export interface PollReportCounts {
  requests: number;
  seen: number;
}

export interface LastRunRecorder {
  /**
   * Write this run (unless it is a good run with nothing new to say, see above). `continuous`: the run before
   * this one was this instance's own, so the last-run row is still the one written here.
   */
  record(report: PollReportCounts | undefined, err: unknown, continuous: boolean): Promise<void>;
}

export function createLastRunRecorder(deps: {
  store: Pick<WorkspaceStore, 'getCursor' | 'setCursor'>;
  /** The app's clock. */
  now: () => Date;
  refreshMs: number;
}): LastRunRecorder {
  /** The row as this instance last wrote it, and when (the app's clock, ms). */
  let written: { run: LastPollRun; atMs: number } | null = null;

  async function lastOkBefore(): Promise<string | undefined> {
    try {
      const before = JSON.parse((await deps.store.getCursor(CHANGES_LAST_RUN_CURSOR)) ?? 'null') as LastPollRun | null;
      return before?.lastOkAt ?? (before?.ok ? before.at : undefined);
    } catch {
      return undefined;
    }
  }

  /** A good run that says what the row written here says, within its refresh. */
  const nothingNew = (report: PollReportCounts, nowMs: number): boolean => {
    if (!written?.run.ok) return false;
    const { run, atMs } = written;
    return run.requests === report.requests && run.seen === report.seen && nowMs >= atMs && nowMs - atMs < deps.refreshMs;
  };

  return {
    async record(report, err, continuous) {
      const nowMs = deps.now().getTime();
      if (err === undefined && report && continuous && nothingNew(report, nowMs)) return;
      const at = new Date(nowMs).toISOString();
      // A failed run keeps the time of the last good one (the admins' status tells a late poll by it).
      const lastOkAt = err === undefined ? at : await lastOkBefore();
      const run: LastPollRun = {
        at,
        ok: err === undefined,
        ...(err === undefined ? {} : { error: (err instanceof Error ? err.message : String(err)).slice(0, 300) }),
        requests: report?.requests ?? 0,
        seen: report?.seen ?? 0,
        ...(lastOkAt ? { lastOkAt } : {}),
      };
      written = null;
      await deps.store.setCursor(CHANGES_LAST_RUN_CURSOR, JSON.stringify(run)).then(
        () => {
          written = { run, atMs: nowMs };
        },
        () => undefined,
      );
    },
  };
}
