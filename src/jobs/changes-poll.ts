import type { CareClient } from '../care/index.js';
import type { CompletionNotices } from '../services/completion-notices.js';
import type { UrgentAlerts } from '../services/urgent-alerts.js';
import type { Store } from '../store/index.js';
import { parseApiDateTime } from '../time/slack-date.js';
import type { Job } from './scheduler.js';

export const CHANGES_CURSOR = 'changes-poll';
const ATTRIBUTES = ['_id', 'action_no', 'task', 'due', 'urgent', 'completed', 'assigned_to', 'modified', 'notify_on_complete', 'location'] as const;

export interface ChangesPollReport {
  requests: number;
  seen: number;
  completions: number;
}

/**
 * One poll of `filters-modified_after` (cursor minus an overlap, so nothing
 * that changed between polls slips through) finds both completions made in the
 * care system's own web app and actions that became urgent. Everything it does
 * is idempotent, so the overlap only costs re-reads. The cursor moves after
 * each page, so a failed run resumes where it stopped.
 */
export function changesPollJob(deps: {
  care: CareClient;
  store: Store;
  notices: CompletionNotices;
  urgent: UrgentAlerts;
  retryUnfinished: () => Promise<void>;
  now: () => Date;
  schedule: string;
  overlapMs: number;
}): Job {
  return {
    name: 'changes-poll',
    schedule: deps.schedule,
    async run({ signal }): Promise<ChangesPollReport> {
      const report: ChangesPollReport = { requests: 0, seen: 0, completions: 0 };
      const stored = await deps.store.getCursor(CHANGES_CURSOR);
      const cursor = stored ? Date.parse(stored) : deps.now().getTime() - deps.overlapMs;
      let newest = cursor;
      const subscriptions = (await deps.store.listSubscriptions()).filter((s) => s.urgentAlerts);
      const pages = deps.care.actions.iteratePages({
        filters: { modified_after: new Date(cursor - deps.overlapMs) },
        attributes: [...ATTRIBUTES],
        sort_by: ['modified'],
        per_page: 100,
      });
      for await (const page of pages) {
        report.requests++;
        for (const action of page.items) {
          report.seen++;
          if (action.completed && action.notify_on_complete?.length) {
            report.completions++;
            await deps.notices.deliver(action);
          }
          await deps.urgent.consider(action, subscriptions);
          const modified = parseApiDateTime(action.modified)?.getTime();
          if (modified && modified > newest) newest = modified;
        }
        await deps.store.setCursor(CHANGES_CURSOR, new Date(newest).toISOString());
        if (signal.aborted) return report;
      }
      if (!stored) await deps.store.setCursor(CHANGES_CURSOR, new Date(newest).toISOString());
      await deps.retryUnfinished();
      return report;
    },
  };
}
