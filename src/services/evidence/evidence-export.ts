/**
 * `/care evidence`: an admin's export of the actions first due or completed in a range, one CSV row each,
 * sent into the admin's DM as a file with the headline figures as its message. Admins only (the one admin
 * rule, through identity). Actions are read through the care client (its pacing and retries), page by page;
 * each action's first due time and reschedules come from what the app saw (store/due-history.ts), so a
 * snooze or a due edit never moves an action out of its range nor makes late work on time; who completed
 * each comes from the audit log (a completion through Slack is recorded with its completion time), else the
 * action's tag (the care system's own), else the web app.
 */
import { safeguardingFilter } from '../urgent/safeguarding.js';
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { DueHistory, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { type DmFileSender, FileSendRefused } from '../file-sender.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { SlackProfiles } from '../people/slack-profiles.js';
import { answerNotes, evidenceAnswers } from './answers-evidence.js';
import { evidenceCsv } from './evidence-csv.js';
import { evidenceFigures, type EvidenceFigures } from './evidence-figures.js';
import { evidenceMessage } from './evidence-message.js';
import { evidenceRange, type EvidenceRange } from './evidence-range.js';
import { evidenceRows, type CompletionSource, type EvidenceAction, type EvidenceNote } from './evidence-rows.js';
import { staffOnTwoPersonActions } from './evidence-staff.js';

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
  send(admin: Actor, request: EvidenceRequest): Promise<EvidenceOutcome>;
}

const ATTRIBUTES = [
  '_id',
  'action_no',
  'location',
  'created',
  'due',
  'completed',
  'tag',
  'task',
  'assigned_to',
  'urgent',
  'user_tags',
  'notify_on_complete',
] as const;
const IDS_CHUNK = 100;

const instant = (value: string | null | undefined) => parseApiDateTime(value)?.getTime() ?? null;

/** The action as the care system has it now, with its due history as the app saw it (none: the due time now is the first). */
function toEvidenceAction(a: Action, history: DueHistory | undefined, safeguarding: boolean): EvidenceAction {
  const due = instant(a.due);
  return {
    id: a._id,
    number: a.action_no ?? a._id,
    locationId: a.location ?? null,
    created: instant(a.created),
    due,
    firstDue: history?.firstDueAt ?? due,
    // A due time changed since the app last saw it (a poll still to come) is a reschedule too.
    reschedules: (history?.reschedules ?? 0) + (history && due !== null && due !== history.lastDueAt ? 1 : 0),
    assignedTo: a.assigned_to ?? null,
    urgent: Boolean(a.urgent),
    safeguarding,
    completed: instant(a.completed),
    tag: a.tag ?? null,
    task: a.task ?? null,
    userTags: a.user_tags ?? [],
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
  store: Pick<
    WorkspaceStore,
    'listAudit' | 'dueHistories' | 'firstDueBetween' | 'getHomeSetting' | 'listNotes' | 'episodeAnswersOf' | 'twoStaffMarked' | 'listDeliveries' | 'getCursor'
  >;
  identity: Pick<IdentityService, 'isAdmin' | 'careUserNames' | 'slackUserFor'>;
  profiles: Pick<SlackProfiles, 'get'>;
  sendFile: DmFileSender;
  /** The workspace's zone: the range's days and every time in the file. */
  timezone: string;
  now: () => Date;
  logger: Logger;
  /** The workspace it exports (bound at composition). */
  teamId: () => Promise<string>;
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

  /**
   * The actions first due or completed in the range. Three reads, each narrowed by the API and exact in code:
   * those due in it now (the first due time of an action the app never saw rescheduled), those whose first
   * due time the app saw in it (by Id: a snooze may have moved them out), and those completed in it (modified
   * since its start, by completion time).
   */
  async function actionsInRange(range: EvidenceRange): Promise<{ actions: EvidenceAction[]; truncated: boolean }> {
    const start = range.start.getTime();
    const end = range.end.getTime();
    const found = new Map<string, Action>();
    const limit = MAX_EXPORT_ROWS * 2;
    // The API's date filters are whole UTC days of `due`: they narrow the read; the range is exact in code.
    const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    for await (const a of care.actions.iterate({
      filters: { start_date: utcDay(start), end_date: utcDay(end - 1), completed: 'unset' },
      attributes: [...ATTRIBUTES],
      sort_by: ['due', '_id'],
      per_page: 100,
      limit,
    }))
      found.set(a._id, a);
    const firstDue = (await store.firstDueBetween(start, end, limit)).filter((id) => !found.has(id));
    for (let i = 0; i < firstDue.length; i += IDS_CHUNK) {
      const ids = firstDue.slice(i, i + IDS_CHUNK);
      for (const a of await care.actions.collect({ filters: { ids, completed: 'unset' }, attributes: [...ATTRIBUTES], per_page: 100, limit: ids.length }))
        found.set(a._id, a);
    }
    // Completed in the range: modified at or after its completion, so after the range's start (whole seconds, exclusive).
    for await (const a of care.actions.iterate({
      filters: { completed: 'yes', modified_after: new Date(Math.floor(start / 1000) * 1000 - 1000) },
      attributes: [...ATTRIBUTES],
      sort_by: ['completed', '_id'],
      per_page: 100,
      limit,
    })) {
      const completed = instant(a.completed);
      if (completed !== null && completed >= end) break;
      if (completed !== null && completed >= start) found.set(a._id, a);
    }
    const histories = await store.dueHistories([...found.keys()]);
    const inRange = (ms: number | null) => ms !== null && ms >= start && ms < end;
    const safeguarding = await safeguardingFilter(store);
    const actions = [...found.values()]
      .map((a) => toEvidenceAction(a, histories.get(a._id), safeguarding(a)))
      .filter((e) => inRange(e.firstDue) || inRange(e.completed))
      .sort((a, b) => (a.firstDue ?? a.completed ?? 0) - (b.firstDue ?? b.completed ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return actions.length > MAX_EXPORT_ROWS ? { actions: actions.slice(0, MAX_EXPORT_ROWS), truncated: true } : { actions, truncated: false };
  }

  /** Each completed action's completion as the audit log has it (the row whose completion time is the action's). */
  async function sources(actions: EvidenceAction[]): Promise<Map<string, CompletionSource>> {
    const teamId = await deps.teamId();
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
      const read = await actionsInRange(range);
      const actions = locationId ? read.actions.filter((a) => a.locationId === locationId) : read.actions;
      const bySource = await sources(actions);
      // Notes may name residents: read only with task text (then a Notes column), else none is in the file.
      const notes = request.withTasks ? await store.listNotes(actions.map((a) => a.id)) : [];
      // The answers to urgent episodes: who and when in the file always; their notes only with task text.
      const answers = await store.episodeAnswersOf(actions.map((a) => a.id));
      const staff = await staffOnTwoPersonActions({ store, identity: deps.identity }, actions, answers);
      const onStaff = [...staff.values()].flatMap((s) => s.staff);
      const people = await names([
        ...[...bySource.values()].flatMap((s) => (s.through === 'slack' ? [s.slackUserId] : [])),
        ...notes.map((n) => n.slackUserId),
        ...[...answers.values()].flat().flatMap((a) => (a.doerSlackUserId ? [a.slackUserId, a.doerSlackUserId] : [a.slackUserId])),
        ...onStaff.filter((id) => !id.startsWith('care:')),
      ]);
      const nameOf = (id: string) => people.get(id) ?? id;
      const notesByAction = new Map<string, EvidenceNote[]>();
      for (const n of notes)
        notesByAction.set(n.actionId, [...(notesByAction.get(n.actionId) ?? []), { at: n.createdAt, by: nameOf(n.slackUserId), verb: n.verb, text: n.text }]);
      if (request.withTasks)
        for (const [id, list] of answers)
          notesByAction.set(
            id,
            [...(notesByAction.get(id) ?? []), ...answerNotes(list, nameOf)].sort((x, y) => x.at - y.at),
          );
      const assignees = [
        ...new Set([
          ...actions.flatMap((a) => (a.assignedTo ? [a.assignedTo] : [])),
          ...onStaff.flatMap((id) => (id.startsWith('care:') ? [id.slice('care:'.length)] : [])),
        ]),
      ];
      const careNames = assignees.length ? await deps.identity.careUserNames(assignees) : new Map<string, string>();
      const staffNames = (s: string) => (s.startsWith('care:') ? (careNames.get(s.slice('care:'.length)) ?? 'unknown') : nameOf(s));
      const rows = evidenceRows(actions, {
        now: now.getTime(),
        locationName: (id) => (id ? (places.get(id) ?? 'unknown location') : 'no location'),
        sourceOf: (id) => bySource.get(id),
        nameOf: (id) => people.get(id) ?? id,
        careNameOf: (id) => careNames.get(id) ?? 'unknown',
        ...(request.withTasks ? { notesOf: (id: string) => notesByAction.get(id) ?? [] } : {}),
        answersOf: (id) => evidenceAnswers(answers.get(id) ?? [], nameOf),
        staffOf: (id) => {
          const on = staff.get(id);
          return on ? { names: on.staff.map(staffNames), needed: on.needed } : null;
        },
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
