/**
 * An edit from a channel post asks before it saves a change others will see: the form is drawn
 * again with the question (what changes for whom), and what was asked about is sealed in the
 * form's metadata as a digest; the same change submitted again is saved. Pure.
 */
import { createHash } from 'node:crypto';
import type { ActionFormValue } from '../../services/action-model.js';
import type { EditSummary } from '../views/changed-by.js';
import { NOT_IN_SLACK, type SharedEditWas } from '../views/action-form-modal.js';

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/** The picker's label without the "not in Slack" mark. */
const bareLabel = (label: string | undefined) => (label ? label.replace(` — ${NOT_IN_SLACK}`, '') : null);

/**
 * What saving this form changes that others notice (assignee, due time, urgency), or null when none
 * of these. `dueWas`: the due time the action had (ISO); `toLabel`: the picked assignee's label.
 */
export function sharedEditChanges(
  was: SharedEditWas,
  dueWas: string | undefined,
  form: Pick<ActionFormValue, 'assigneeCareUserId' | 'due' | 'urgent'>,
  toLabel: string | undefined,
  tz: string,
): EditSummary | null {
  const edits: EditSummary = {};
  if ((form.assigneeCareUserId ?? null) !== was.assignee) edits.assignee = { from: was.name, to: form.assigneeCareUserId ? bareLabel(toLabel) : null };
  const before = dueWas ? Date.parse(dueWas) : null;
  if (before === null || minuteOf(before) !== minuteOf(form.due.getTime())) edits.due = { from: before === null ? null : new Date(before), to: form.due, tz };
  if (Boolean(form.urgent) !== was.urgent) edits.urgent = Boolean(form.urgent);
  return Object.keys(edits).length ? edits : null;
}

/** The seal of one asked-about change: the same assignee, due minute and urgency give the same digest. */
export function editDigest(form: Pick<ActionFormValue, 'assigneeCareUserId' | 'due' | 'urgent'>): string {
  const what = [form.assigneeCareUserId ?? '', minuteOf(form.due.getTime()), form.urgent ? 1 : 0].join('|');
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}
