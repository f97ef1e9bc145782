/**
 * An action's History, as the person who clicked History reads it: one line per
 * change, under the day it happened, with times on the reader's own clock (their
 * Slack time zone, else the workspace's). Pure.
 */
import type { types } from '@slack/bolt';
import type { HistoryEntry, HistoryPerson } from '../../services/actions/action-history.js';
import type { ActionView } from '../../services/action-model.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { movesEarlier } from '../../time/snooze.js';
import { localParts } from '../../time/zones.js';
import { taskText, userText } from '../text.js';
import { actionLabel } from './action-card.js';
import { context, plainText, section, type Block } from './blocks.js';
import { historyStepText } from './escalation.js';
import { CANT_REASONS, isCantReason } from '../../services/urgent/answer-policy.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Tuesday 10 March 2026": the heading of a day's changes, in `tz`. */
export function historyDay(at: Date, tz: string): string {
  const p = localParts(at, tz);
  const [y, m, d] = p.date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[p.weekday]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/** A due time as the audit keeps it (the care API's text), read. */
const apiTime = (value: unknown) => (typeof value === 'string' ? parseApiDateTime(value) : null);

/** "Tue 10 Mar 14:00": a due time inside a line, in `tz`. */
function shortWhen(value: unknown, tz: string): string {
  const at = apiTime(value);
  if (!at) return 'no time';
  const p = localParts(at, tz);
  const [, m, d] = p.date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[p.weekday]!.slice(0, 3)} ${d} ${MONTHS[m - 1]!.slice(0, 3)} ${p.time}`;
}

const slackUser = (id: unknown) => (typeof id === 'string' && /^[UW][A-Z0-9]+$/.test(id) ? `<@${id}>` : 'someone');
const by = (e: HistoryEntry) => (e.by ? ` by ${slackUser(e.by)}` : '');

/** A care user (assignee) by who they are to the reader; null: nobody. */
function person(id: unknown, people: Record<string, HistoryPerson>): string {
  if (typeof id !== 'string' || id === '') return 'nobody';
  const p = people[id];
  if (!p) return 'a care user';
  return 'slackUserId' in p ? `<@${p.slackUserId}>` : userText(p.name, 80);
}

/**
 * An escalation as an older record has it (`{step, to}`, `to` one id or a word): a DM to a person (a Slack
 * user, or a care user the people resolve), a reminder in the alert's thread, or a channel. Records of
 * today's shape come as `e.escalation` and are said by escalation.ts historyStepText.
 */
function olderEscalation(d: Record<string, unknown>, people: Record<string, HistoryPerson>): string {
  const to = typeof d.to === 'string' ? d.to : '';
  const step = typeof d.step === 'string' || typeof d.step === 'number' ? String(d.step) : '';
  if (/^[UW][A-Z0-9]+$/.test(to)) return `Escalated to <@${to}> (DM)`;
  if (/^[0-9a-f]{24}$/.test(to)) return `Escalated to ${person(to, people)} (DM)`;
  if (/^[CG][A-Z0-9]+$/.test(to)) return `Escalated to <#${to}>`;
  if (/thread|remind/i.test(`${to} ${step}`)) return 'Escalated: reminder in the alert thread';
  return 'Escalated';
}

/** What a note went with, as its line says it. */
const NOTE_ON: Record<string, string> = {
  complete: ' when completing it',
  take: ' when taking it',
  'on-it': ' when saying they were on it',
  cant: ' when saying they could not do it',
};

/** A note's line: who wrote it, with what, and its words (no markup, one line: its line ends shown as " / "). */
export function noteText(e: Pick<HistoryEntry, 'by' | 'details' | 'note'>): string {
  const on = typeof e.details.on === 'string' ? (NOTE_ON[e.details.on] ?? '') : '';
  const words = taskText((e.note ?? '').replace(/\s*\n\s*/g, ' / '), 700);
  return `:memo: Note by ${e.by ? slackUser(e.by) : 'someone'}${on}: “${words}”`;
}

/** An answer to an urgent episode as History says it, with the note written on it (History is the clicker's alone). */
function answerHistoryText(e: HistoryEntry): string {
  const d = e.details;
  const note = e.note ? `: “${userText(e.note, 300)}”` : '';
  if (e.verb.endsWith('.undo')) return `${e.verb.startsWith('on-it') ? '“On it”' : e.verb.startsWith('cant') ? '“Can’t”' : 'Join'} undone${by(e)}`;
  if (e.verb === 'join') return `Joined as the second person${by(e)}${note}`;
  if (e.verb === 'cant') {
    const why = typeof d.reason === 'string' && isCantReason(d.reason) ? ` (${CANT_REASONS[d.reason]})` : '';
    return `Can’t${by(e)}${why}${note}`;
  }
  const doer = typeof d.doer === 'string' ? `, <@${d.doer}> doing it` : '';
  return `On it${by(e)}${doer}${note}`;
}

/** What one entry says, without its time; null for an entry the history does not show. */
export function historyText(e: HistoryEntry, tz: string, people: Record<string, HistoryPerson> = {}): string | null {
  const d = e.details;
  switch (e.verb) {
    case 'care.create':
      return d.generated ? 'Created by the care system' : 'Created in the care system';
    case 'action.create': {
      const parts = [`Created${by(e)} in Slack`];
      if (typeof d.to === 'string' && d.to) parts.push(`assigned to ${person(d.to, people)}`);
      if (d.urgent) parts.push('urgent');
      return parts.join(', ');
    }
    case 'action.update': {
      const changes: string[] = [];
      if ('to' in d) changes.push(d.to ? `assigned to ${person(d.to, people)} (was ${person(d.from, people)})` : `unassigned (was ${person(d.from, people)})`);
      if ('dueTo' in d) changes.push(`due moved from ${shortWhen(d.dueFrom, tz)} to ${shortWhen(d.dueTo, tz)}`);
      if (d.urgent === true) changes.push('made urgent');
      if (d.urgent === false) changes.push('no longer urgent');
      return `Edited${by(e)}${changes.length ? `: ${changes.join('; ')}` : ''}`;
    }
    case 'action.assign':
      if (d.via === 'hand-back') return `Handed back${by(e)}: unassigned (was ${person(d.from, people)})`;
      return `Taken${by(e)}${typeof d.from === 'string' && d.from ? ` from ${person(d.from, people)}` : ''}`;
    case 'reassign':
      return `Reassigned${by(e)} from ${person(d.from, people)} to ${person(d.to, people)}`;
    case 'seen.assign':
      return d.to
        ? `Assigned to ${person(d.to, people)} in the care system (was ${person(d.from, people)})`
        : `Unassigned in the care system (was ${person(d.from, people)})`;
    case 'action.snooze':
      if (d.undo) return `Snooze undone${by(e)}: due ${shortWhen(d.to, tz)} again`;
      return `${movesEarlier(apiTime(d.from), apiTime(d.to)) ? 'Due moved earlier' : 'Snoozed'}${by(e)} from ${shortWhen(d.from, tz)} to ${shortWhen(d.to, tz)}`;
    case 'action.complete':
      return d.undo ? `Completed again${by(e)} (Undo of a reopen)` : `Completed${by(e)}`;
    case 'seen.complete':
      return d.generated ? 'Completed by the care system' : 'Completed in the care system';
    case 'action.reopen':
      return d.undo ? `Completion undone${by(e)}` : `Reopened${by(e)}`;
    case 'seen.reopen':
      return 'Reopened in the care system';
    case 'seen.urgent':
      return 'Made urgent in the care system';
    case 'escalate':
      return e.escalation ? historyStepText(e.escalation) : olderEscalation(d, people);
    case 'note':
      return noteText(e);
    // The follow-up of taken work (services/urgent/follow-up.ts).
    case 'followup.dm': {
      const to = Array.isArray(d.to) ? d.to.filter((u): u is string => typeof u === 'string' && /^[UW][A-Z0-9]+$/.test(u)) : [];
      if (to.length) return `Still open: follow-up DM to ${to.map(slackUser).join(', ')}`;
      return Array.isArray(d.unreached) && d.unreached.length
        ? `Still open: the follow-up DM to ${d.unreached.map(slackUser).join(', ')} could not be sent`
        : 'Still open: no follow-up DM (whoever holds it is not linked to Slack)';
    }
    case 'followup.still-on-it':
      return `Still on it${by(e)} (follow-up)`;
    case 'followup.hand-back':
      // A hand-back that unassigned it says so on its own line (action.assign).
      return 'from' in d ? null : `Handed back${by(e)}`;
    case 'followup.resume':
      return Array.isArray(d.steps) && d.steps.length === 0
        ? 'Still open after the follow-up: no escalation step to resume'
        : 'Still open after the follow-up: the escalation resumed';
    case 'on-it':
    case 'cant':
    case 'join':
    case 'on-it.undo':
    case 'cant.undo':
    case 'join.undo':
      return answerHistoryText(e);
    case 'two-staff':
      return d.on ? `Marked as needing two staff${by(e)}` : `No longer marked as needing two staff${by(e)}`;
    default:
      return null;
  }
}

/**
 * The history as lines, oldest first: a bold day heading whenever the day (in `tz`)
 * changes, then "<what happened> at 10:32" (the reader's clock). Entries it does not
 * know how to say are left out.
 */
export function historyLines(entries: HistoryEntry[], tz: string, people: Record<string, HistoryPerson> = {}): string[] {
  const lines: string[] = [];
  let day = '';
  for (const e of entries) {
    const text = historyText(e, tz, people);
    if (text === null) continue;
    const heading = historyDay(e.at, tz);
    if (heading !== day) {
      lines.push(`*${heading}*`);
      day = heading;
    }
    lines.push(`${text} at ${localParts(e.at, tz).time}`);
  }
  return lines;
}

/** Lines joined into sections that each fit Slack's 3,000 characters. */
function chunked(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let current = '';
  for (const line of lines) {
    if (current && current.length + line.length + 1 > 2900) {
      blocks.push(section(current));
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) blocks.push(section(current));
  return blocks;
}

/** The History modal (shown to the clicker only): the action's number, its life, and where the times are from. */
export function historyModal(
  a: ActionView,
  history: { entries: HistoryEntry[]; people: Record<string, HistoryPerson>; omitted: number; restricted?: boolean },
  tz: string,
): types.ModalView {
  if (history.restricted)
    return {
      type: 'modal',
      title: plainText('History', 24),
      close: plainText('Close', 24),
      blocks: [
        section(
          'This action’s history is restricted: it is about a safeguarding concern, and only the people named for safeguarding and the app’s admins can see it.',
        ),
      ],
    };
  const lines = historyLines(history.entries, tz, history.people);
  const blocks: Block[] = [section(`*History of action ${actionLabel(a)}*`)];
  if (history.omitted > 0) blocks.push(context(`${history.omitted} earlier change${history.omitted === 1 ? '' : 's'} not shown.`));
  blocks.push(...(lines.length ? chunked(lines) : [section('Nothing has been recorded for this action yet.')]));
  blocks.push(
    context(
      `Times are in ${userText(tz, 60)}. Changes made through Slack say who made them; changes made in the care system are seen within a minute or so, and the care system does not say who made them.`,
    ),
  );
  return { type: 'modal', title: plainText('History', 24), close: plainText('Close', 24), blocks };
}
