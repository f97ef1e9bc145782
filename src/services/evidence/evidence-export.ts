/**
 * `/care evidence`: an admin's export of the actions due in a range, one CSV row each, sent into the
 * admin's DM as a file with the headline figures as its message. Admins only (the one admin rule, through
 * identity). Actions are read through the care client (its pacing and retries), page by page; who
 * completed each comes from the audit log (a completion through Slack is recorded with its completion
 * time), else the action's tag (the care system's own), else the web app.
 */
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { type DmFileSender, FileSendRefused } from '../file-sender.js';
import type { IdentityService } from '../identity.js';
import type { SlackProfiles } from '../slack-profiles.js';
import { evidenceCsv } from './evidence-csv.js';
import { evidenceFigures, type EvidenceFigures } from './evidence-figures.js';
import { evidenceMessage } from './evidence-message.js';
import { evidenceRange, type EvidenceRange } from './evidence-range.js';
import { evidenceRows, type CompletionSource, type EvidenceAction } from './evidence-rows.js';

/** The most rows one export holds (the care API's pages are 100; 200 pages). */
export const MAX_EXPORT_ROWS = 20_000;
const AUDIT_CHUNK = 200;

export interface EvidenceRequest {
  from?: string | undefined;
  to?: string | undefined;
  location?: string | undefined;
  withTasks: boolean;
}

export type EvidenceOutcome =
  | { kind: 'not-admin' }
  | { kind: 'bad-range'; message: string }
  | { kind: 'no-such-location'; name: string; known: string[] }
  /** Slack refused the file: this install lacks `files:write` (made before the app asked for it). */
  | { kind: 'cannot-send-files' }
  | { kind: 'sent'; range: EvidenceRange; location: string | null; figures: EvidenceFigures; filename: string; withTasks: boolean; truncated: boolean };

export interface EvidenceExport {
  send(admin: { teamId: string; userId: string }, request: EvidenceRequest): Promise<EvidenceOutcome>;
}

const ATTRIBUTES = ['_id', 'action_no', 'location', 'created', 'due', 'completed', 'tag', 'task'] as const;

const instant = (value: string | null | undefined) => parseApiDateTime(value)?.getTime() ?? null;

function toEvidenceAction(a: Action): EvidenceAction {
  return {
    id: a._id,
    number: a.action_no ?? a._id,
    locationId: a.location ?? null,
    created: instant(a.created),
    due: instant(a.due),
    completed: instant(a.completed),
    tag: a.tag ?? null,
    task: a.task ?? null,
  };
}

/** What an audit row's `via` says of a completion (rows of other writers may name the care system or the web app). */
function sourceOfRow(userId: string, via: unknown): CompletionSource | undefined {
  if (via === 'slack') return { through: 'slack', slackUserId: userId };
  if (via === 'care-system' || via === 'auto') return { through: 'care-system' };
  if (via === 'web-app' || via === 'web' || via === 'poll') return { through: 'web-app' };
  return undefined;
}

export function createEvidenceExport(deps: {
  care: CareClient;
  store: Pick<WorkspaceStore, 'listAudit'>;
  identity: Pick<IdentityService, 'isAdmin'>;
  profiles: Pick<SlackProfiles, 'get'>;
  sendFile: DmFileSender;
  /** The workspace's zone: the range's days and every time in the file. */
  timezone: string;
  now: () => Date;
  logger: Logger;
}): EvidenceExport {
  const { care, store, logger } = deps;

  async function locations(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for await (const l of care.locations.iterate({ filters: { suspended: 'unset' }, attributes: ['_id', 'name'], per_page: 100, limit: 5000 }))
      out.set(l._id, l.name ?? l._id);
    return out;
  }

  /** The location an admin named: an exact name (any case), else the one whose name holds the words. */
  function findLocation(all: Map<string, string>, name: string): string | null {
    const want = name.trim().toLowerCase();
    const exact = [...all].filter(([, n]) => n.toLowerCase() === want);
    if (exact.length === 1) return exact[0]![0];
    const partial = [...all].filter(([, n]) => n.toLowerCase().includes(want));
    return partial.length === 1 ? partial[0]![0] : null;
  }

  async function actionsDue(range: EvidenceRange): Promise<{ actions: EvidenceAction[]; truncated: boolean }> {
    const start = range.start.getTime();
    const end = range.end.getTime();
    const seen = new Set<string>();
    const actions: EvidenceAction[] = [];
    // The API's date filters are whole UTC days of `due`: they narrow the read; the range is exact in code.
    const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    for await (const a of care.actions.iterate({
      filters: { start_date: utcDay(start), end_date: utcDay(end - 1), completed: 'unset' },
      attributes: [...ATTRIBUTES],
      sort_by: ['due', '_id'],
      per_page: 100,
      limit: MAX_EXPORT_ROWS * 2,
    })) {
      const e = toEvidenceAction(a);
      if (seen.has(e.id) || e.due === null || e.due < start || e.due >= end) continue;
      seen.add(e.id);
      if (actions.length === MAX_EXPORT_ROWS) return { actions, truncated: true };
      actions.push(e);
    }
    return { actions, truncated: false };
  }

  /** Each completed action's completion as the audit log has it (the row whose completion time is the action's). */
  async function sources(teamId: string, actions: EvidenceAction[]): Promise<Map<string, CompletionSource>> {
    const done = new Map(actions.filter((a) => a.completed !== null).map((a) => [a.id, a.completed!]));
    const out = new Map<string, CompletionSource>();
    const ids = [...done.keys()];
    for (let i = 0; i < ids.length; i += AUDIT_CHUNK) {
      // Newest first: the latest row for a completion time wins.
      const rows = await store.listAudit({ verb: 'action.complete', actionIds: ids.slice(i, i + AUDIT_CHUNK), limit: 1000 });
      for (const row of rows) {
        if (row.teamId !== teamId || !row.actionId || out.has(row.actionId)) continue;
        const completed = typeof row.details.completed === 'string' ? instant(row.details.completed) : null;
        const source = sourceOfRow(row.userId, row.details.via);
        if (source && completed !== null && completed === done.get(row.actionId)) out.set(row.actionId, source);
      }
    }
    return out;
  }

  async function names(userIds: Iterable<string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const id of new Set(userIds)) {
      try {
        out.set(id, (await deps.profiles.get(id)).name);
      } catch {
        out.set(id, id);
      }
    }
    return out;
  }

  return {
    async send(admin, request) {
      if (!(await deps.identity.isAdmin(admin))) return { kind: 'not-admin' };
      const now = deps.now();
      const asked = evidenceRange({ from: request.from, to: request.to }, now, deps.timezone);
      if (!asked.ok) return { kind: 'bad-range', message: asked.message };
      const { range } = asked;
      const places = await locations();
      let locationId: string | null = null;
      if (request.location !== undefined) {
        locationId = findLocation(places, request.location);
        if (!locationId) return { kind: 'no-such-location', name: request.location, known: [...places.values()].sort() };
      }
      const read = await actionsDue(range);
      const actions = locationId ? read.actions.filter((a) => a.locationId === locationId) : read.actions;
      const bySource = await sources(admin.teamId, actions);
      const people = await names([...bySource.values()].flatMap((s) => (s.through === 'slack' ? [s.slackUserId] : [])));
      const rows = evidenceRows(actions, {
        now: now.getTime(),
        locationName: (id) => (id ? (places.get(id) ?? 'unknown location') : 'no location'),
        sourceOf: (id) => bySource.get(id),
        nameOf: (id) => people.get(id) ?? id,
      });
      const figures = evidenceFigures(rows);
      const location = locationId ? (places.get(locationId) ?? null) : null;
      const filename = `care-evidence-${range.from}-to-${range.to}.csv`;
      const csv = evidenceCsv(rows, { tz: deps.timezone, withTasks: request.withTasks });
      const comment = evidenceMessage({ range, tz: deps.timezone, location, figures, withTasks: request.withTasks, truncated: read.truncated });
      try {
        await deps.sendFile(admin.userId, { filename, title: `Care evidence ${range.from} to ${range.to}`, content: csv, comment });
      } catch (err) {
        if (err instanceof FileSendRefused) {
          logger.warn('evidence export refused by Slack', { by: admin.userId, reason: err.reason });
          return { kind: 'cannot-send-files' };
        }
        throw err;
      }
      logger.info('evidence export sent', { by: admin.userId, actions: rows.length, withTasks: request.withTasks, truncated: read.truncated });
      return { kind: 'sent', range, location, figures, filename, withTasks: request.withTasks, truncated: read.truncated };
    },
  };
}
