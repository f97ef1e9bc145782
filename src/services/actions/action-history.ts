/**
 * An action's life as the app knows it, for its History button: the changes
 * made through Slack (the audit rows the services write), what the changes poll
 * saw happen in the care system (care-observations.ts), and what the care
 * system itself says (when it was created). Ids, people and times only.
 */
import type { Action } from '../../care/index.js';
import type { AuditEntry, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import type { ActionView } from '../action-model.js';
import type { ActionsService } from './actions.js';
import { CARE_SYSTEM_USER, SEEN_VERBS } from './care-observations.js';
import { ESCALATION_STEPS } from '../urgent/escalation-ladder.js';
import { lineOf, type StepDone } from '../urgent/escalation-steps.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { EscalationLine } from '../renderers.js';
import type { SafeguardingSettingsService } from '../urgent/safeguarding-settings.js';
import type { ActionNotes } from './action-notes.js';
import type { ActionNote } from '../../store/index.js';

/** One thing that happened to an action. `verb` is the audit's (plus `care.create`, from the action itself). */
export interface HistoryEntry {
  at: Date;
  verb: string;
  /** The Slack user who did it through Slack; null: the care system (or someone in its web app), or the app itself. */
  by: string | null;
  /** Ids and times: `from`/`to` are care user Ids for assignments, Slack or channel Ids for escalations. */
  details: Record<string, unknown>;
  /** An escalation step as recorded (verb `escalate`): whom it reached, or why nobody. Absent for records older than this shape. */
  escalation?: EscalationLine;
  /**
   * Words written with it, kept by the app (History only, never a channel): a note's (verb `note`; `details.on`: what
   * it went with, notes table), or an answer's to an urgent episode (verbs `on-it`, `cant`, `join`; episode answers).
   */
  note?: string;
}

/** A care user as the history names them: their Slack mention when linked, else their name in the care system. */
export type HistoryPerson = { slackUserId: string } | { name: string };

export interface ActionHistory {
  action: ActionView;
  /** Oldest first. */
  entries: HistoryEntry[];
  /** Care user Id -> who they are (unknown ones are missing). */
  people: Record<string, HistoryPerson>;
  /** Older entries left out (the newest are shown). */
  omitted: number;
  /** A safeguarding action, and this person is neither one of its officers nor an admin: nothing is shown. */
  restricted?: boolean;
}

export interface ActionHistoryService {
  of(actor: Actor, actionId: string): Promise<ActionHistory>;
}

/** The verb of the history's first line when the action was not created through Slack. */
export const CARE_CREATE_VERB = 'care.create';

/** At most this many entries are shown (the newest). */
export const HISTORY_SHOWN = 80;

/** How far apart a change made through Slack and the poll's sight of the same change may be. */
const SAME_CHANGE_MS = 5 * 60_000;

/** The verbs that set an assignee (`to`). */
const ASSIGNING = new Set(['action.create', 'action.update', 'action.assign', 'reassign', SEEN_VERBS.assign]);

const whenOf = (v: unknown): number | null => (typeof v === 'string' ? (parseApiDateTime(v)?.getTime() ?? null) : null);

/**
 * Audit rows (any order) and the action -> the history's entries, oldest first. Pure. A poll's
 * observation of a change that was made through Slack (seen before the app's own row was written)
 * is left out: the Slack row says who.
 */
export function historyEntries(action: Pick<Action, 'created' | 'tag'>, rows: AuditEntry[]): HistoryEntry[] {
  const own = [...rows].sort((a, b) => a.id - b.id);
  const entries: HistoryEntry[] = [];
  if (!own.some((r) => r.verb === 'action.create')) {
    const created = parseApiDateTime(action.created);
    if (created) entries.push({ at: created, verb: CARE_CREATE_VERB, by: null, details: action.tag ? { generated: true } : {} });
  }
  const slack = own.filter((r) => r.userId !== CARE_SYSTEM_USER);
  const near = (r: AuditEntry, at: number, test: (s: AuditEntry) => boolean) =>
    slack.some((s) => s.id !== r.id && Math.abs(s.at - at) <= SAME_CHANGE_MS && test(s));
  for (const r of own) {
    const careAt = whenOf(r.details.at);
    const at = r.verb.startsWith('seen.') && careAt !== null ? careAt : r.at;
    if (r.verb === SEEN_VERBS.complete && slack.some((s) => s.verb === 'action.complete' && whenOf(s.details.completed) === whenOf(r.details.completed)))
      continue;
    if (r.verb === SEEN_VERBS.reopen && near(r, r.at, (s) => s.verb === 'action.reopen')) continue;
    if (r.verb === SEEN_VERBS.assign && near(r, r.at, (s) => ASSIGNING.has(s.verb) && 'to' in s.details && s.details.to === r.details.to)) continue;
    if (r.verb === SEEN_VERBS.urgent && near(r, r.at, (s) => s.details.urgent === true)) continue;
    const step = r.verb === 'escalate' ? escalationStepOf(r.details, at) : undefined;
    entries.push({
      at: new Date(at),
      verb: r.verb,
      by: r.userId && r.userId !== '-' ? r.userId : null,
      details: r.details,
      ...(step ? { escalation: step } : {}),
    });
  }
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The verb of a note's line in the history. */
export const NOTE_VERB = 'note';

/**
 * The history's entries with the action's notes among them, each at the time it was written (a note written
 * with a completion comes right after it), oldest first. Pure.
 */
export function withNotes(entries: HistoryEntry[], notes: readonly ActionNote[]): HistoryEntry[] {
  if (!notes.length) return entries;
  const lines: HistoryEntry[] = notes.map((n) => ({ at: new Date(n.createdAt), verb: NOTE_VERB, by: n.slackUserId, details: { on: n.verb }, note: n.text }));
  // A stable sort: at the same millisecond the change comes before the note written with it.
  return [...entries, ...lines].sort((a, b) => a.at.getTime() - b.at.getTime());
}

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** An `escalate` audit row's details as the step's record (escalation-steps.ts), when it has that shape (`to` a list). */
function escalationStepOf(d: Record<string, unknown>, at: number): EscalationLine | undefined {
  const to = strings(d.to);
  const step = ESCALATION_STEPS.find((s) => s === d.step);
  if (!to || !step) return undefined;
  const unreached = strings(d.unreached);
  const record: StepDone = {
    step,
    at: new Date(at).toISOString(),
    to,
    ...(typeof d.shift === 'string' && d.shift ? { shift: d.shift } : {}),
    ...(typeof d.skipped === 'string' && d.skipped ? { skipped: d.skipped } : {}),
    ...(d.reason === 'no-seniors' || d.reason === 'no-managers-channel' ? { reason: d.reason } : {}),
    ...(unreached?.length ? { unreached } : {}),
    ...(d.again === 'followup' || d.again === 'hand-back' ? { again: d.again } : {}),
    ...(typeof d.repeat === 'number' && d.repeat > 0 ? { repeat: d.repeat, ...(typeof d.of === 'number' ? { of: d.of } : {}) } : {}),
  };
  return lineOf(record);
}

/** The care user Ids an entry names (assignments; an escalation to a care user). */
function careUsersOf(e: HistoryEntry): string[] {
  if (e.verb === 'escalate') return typeof e.details.to === 'string' && /^[0-9a-f]{24}$/.test(e.details.to) ? [e.details.to] : [];
  if (!ASSIGNING.has(e.verb)) return [];
  return [e.details.from, e.details.to].filter((v): v is string => typeof v === 'string' && v !== '');
}

/** The answers' entries with the notes written on them (the audit keeps only that there was one). */
async function notesOn(entries: HistoryEntry[], answers: { id: number; note: string | null }[]): Promise<HistoryEntry[]> {
  const notes = new Map(answers.filter((a) => a.note).map((a) => [a.id, a.note!]));
  return entries.map((e) => {
    const note = typeof e.details.answerId === 'number' ? notes.get(e.details.answerId) : undefined;
    return note ? { ...e, note } : e;
  });
}

export function createActionHistory(deps: {
  actions: Pick<ActionsService, 'resolve' | 'views'>;
  store: Pick<WorkspaceStore, 'listAudit'> & Partial<Pick<WorkspaceStore, 'listEpisodeAnswers'>>;
  identity: Pick<IdentityService, 'requireLink' | 'slackUserFor' | 'careUserNames'>;
  /** The safeguarding tier: a safeguarding action's History only for its officers and admins (safeguarding-settings.ts). */
  safeguarding?: Pick<SafeguardingSettingsService, 'covers' | 'mayReadHistory'>;
  /** The notes people wrote when they completed or took it (action-notes.ts), each a line in order. */
  notes?: Pick<ActionNotes, 'notesOf'>;
  /** The workspace it serves (bound at composition). */
  teamId: () => Promise<string>;
}): ActionHistoryService {
  const withAnswerNotes = async (entries: HistoryEntry[], actionId: string) =>
    deps.store.listEpisodeAnswers && entries.some((e) => e.details.note === true) ? notesOn(entries, await deps.store.listEpisodeAnswers(actionId)) : entries;
  return {
    async of(actor, actionId) {
      await deps.identity.requireLink(actor);
      const action = await deps.actions.resolve({ type: 'id', id: actionId });
      const [view] = await deps.actions.views([action]);
      if (deps.safeguarding && (await deps.safeguarding.covers(action)) && !(await deps.safeguarding.mayReadHistory(actor)))
        return { action: view!, entries: [], people: {}, omitted: 0, restricted: true };
      // The workspace's own rows (a deployment of one also serves people of other teams: Slack Connect).
      const teamId = await deps.teamId();
      const rows = (await deps.store.listAudit({ actionId, limit: 1000 })).filter((r) => r.teamId === teamId);
      const all = withNotes(historyEntries(action, rows), deps.notes ? await deps.notes.notesOf(action._id) : []);
      const entries = await withAnswerNotes(all.slice(-HISTORY_SHOWN), actionId);
      const ids = [...new Set(entries.flatMap(careUsersOf))];
      const people: Record<string, HistoryPerson> = {};
      await Promise.all(
        ids.map(async (id) => {
          const slackUserId = await deps.identity.slackUserFor(id);
          if (slackUserId) people[id] = { slackUserId };
        }),
      );
      const unlinked = ids.filter((id) => !people[id]);
      if (unlinked.length) for (const [id, name] of await deps.identity.careUserNames(unlinked)) people[id] = { name };
      return { action: view!, entries, people, omitted: all.length - entries.length };
    },
  };
}
