/**
 * What a channel digest says, before it is rendered: the counts, a line per
 * carer, the ten actions that matter most, and the rest by section for the
 * thread. Pure policy: each action lands in exactly one place.
 */
import { bucketByDue, byUrgencyThenDue, type ActionView } from '../action-model.js';
import type { DigestAssignee, DigestCarer, DigestContent, DigestSection, StaleSummary } from '../renderers.js';

/** How many actions the channel message itself lists. */
export const DIGEST_TOP = 10;
/** Overdue by more than this many days: one summary row per carer, not a row each. */
export const STALE_DAYS = 30;

const DAY_MS = 86_400_000;

function carerKey(a: NonNullable<DigestAssignee>): string {
  if (a.careUserId) return `c:${a.careUserId}`;
  if (a.slackUserId) return `s:${a.slackUserId}`;
  return `n:${a.name ?? ''}`;
}

/** A stable tie-break between carers with the same counts (a name, else the Slack id). */
const carerName = (a: NonNullable<DigestAssignee>) => (a.name ?? a.slackUserId ?? '').toLowerCase();

/** One summary per assignee, the largest first. */
function summarise(stale: ActionView[]): StaleSummary[] {
  const by = new Map<string, StaleSummary>();
  for (const v of stale) {
    const key = v.assignee ? carerKey(v.assignee) : '-';
    const s = by.get(key) ?? { assignee: v.assignee, count: 0, urgent: 0 };
    s.count++;
    if (v.urgent) s.urgent++;
    by.set(key, s);
  }
  return [...by.values()].sort((a, b) => b.count - a.count);
}

export function digestContent(views: ActionView[], now: Date, tz: string, filterText = ''): DigestContent {
  const { overdue, today, nextWeek } = bucketByDue(views, now, tz);
  const urgentLater = nextWeek.filter((v) => v.urgent);
  const all = [...overdue, ...today, ...urgentLater];
  const staleBefore = now.getTime() - STALE_DAYS * DAY_MS;
  const isStale = (v: ActionView) => v.due !== null && v.due.getTime() < staleBefore;

  // Urgent first, then the longest overdue, then due soonest: by urgency, then by due time.
  const top = all
    .filter((v) => !isStale(v))
    .sort(byUrgencyThenDue)
    .slice(0, DIGEST_TOP);
  const inTop = new Set(top.map((v) => v.id));

  const carers = new Map<string, DigestCarer>();
  const carerOf = (a: NonNullable<DigestAssignee>) => {
    const key = carerKey(a);
    const c = carers.get(key) ?? { assignee: a, overdue: 0, stale: 0, today: 0 };
    carers.set(key, c);
    return c;
  };
  for (const v of overdue) {
    if (!v.assignee) continue;
    const c = carerOf(v.assignee);
    c.overdue++;
    if (isStale(v)) c.stale++;
  }
  for (const v of today) if (v.assignee) carerOf(v.assignee).today++;

  const listed = (v: ActionView) => !inTop.has(v.id) && !isStale(v);
  const assigned = (v: ActionView) => v.assignee !== null;
  const unassigned = all.filter((v) => !assigned(v));
  const sections: DigestSection[] = [
    {
      kind: 'overdue',
      label: ':warning: Overdue',
      actions: overdue.filter((v) => assigned(v) && listed(v)),
      stale: summarise(overdue.filter((v) => assigned(v) && isStale(v))),
    },
    { kind: 'today', label: ':calendar: Due today', actions: today.filter((v) => assigned(v) && listed(v)), stale: [] },
    { kind: 'urgent', label: ':rotating_light: Urgent, due this week', actions: urgentLater.filter((v) => assigned(v) && listed(v)), stale: [] },
    {
      kind: 'unassigned',
      label: ':inbox_tray: Unassigned',
      actions: unassigned.filter(listed).sort(byUrgencyThenDue),
      stale: summarise(unassigned.filter(isStale)),
    },
  ];

  return {
    title: new Intl.DateTimeFormat('en-GB', { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long' }).format(now),
    filterText,
    overdue: overdue.length,
    today: today.length,
    urgent: all.filter((v) => v.urgent).length,
    unassigned: unassigned.length,
    staleDays: STALE_DAYS,
    carers: [...carers.values()].sort((a, b) => b.overdue - a.overdue || b.today - a.today || carerName(a.assignee).localeCompare(carerName(b.assignee))),
    top,
    sections,
  };
}
