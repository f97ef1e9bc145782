/**
 * How each kind of post the ledger records is drawn again as its action is now (post-redraw.ts): a table keyed
 * by the ledger kind, so another kind (a confirmation card, a notice) follows its action by adding a row here.
 * Each row only calls the renderers (slack/views, passed in): what a post says stays in one place.
 */
import type { AuditEntry, Delivery } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import type { ActionView, AnswerLine, AnswersShown, RenderContext } from '../action-model.js';
import { answerNoticeState, parseAnswerOccurrence } from '../urgent/answer-notice-state.js';
import { CREATED_KIND, UPDATED_KIND } from '../actions/action-posts.js';
import type { Assignment } from './assignment-notices.js';
import { CHANGE_DELIVERY_KIND, parseChangeOccurrence } from './change-notices.js';
import { CREATE_VERB, CREATOR_DELIVERY_KIND } from './creator-notices.js';
import type { OutgoingMessage } from './delivery.js';
import { ANSWER_KIND } from '../urgent/episode-answers.js';
import type { EscalationStep } from '../urgent/escalation-ladder.js';
import { FOLLOWUP_KIND, followUpDmState, HANDBACK_KIND, parseFollowUpOccurrence } from '../urgent/follow-up-policy.js';
import type { AlertState, EscalationLine, MessageRenderers } from '../renderers.js';

/** What a row is drawn from besides the action's view: what the app knows of its urgent episode. */
export interface RedrawFacts {
  /** Where the alert of the episode that began at `episode` stands now. */
  state(episode: string): AlertState;
  /** The escalation steps taken in that episode, as the alert shows them. */
  escalationLines(episode: string): EscalationLine[];
  /** The answers to that episode (who is on it, who can't: never a note), as its posts show them. */
  answers(episode: string): AnswersShown;
  /** One answer by its Id (undone ones too: when), as a post says it (never its note); null when there is none. */
  answer?(id: number): { line: AnswerLine; undoneAt: number | null } | null;
  /** The action's location name, if known. */
  location: string | null;
  /** What the app remembers of the action's current assignment (assignment-notices.ts). */
  assignment: Assignment | null;
  /** The action's audit rows in this workspace, newest first: who did what through Slack, and when. */
  audit: AuditEntry[];
}

export interface RedrawInput {
  view: ActionView;
  row: Delivery;
  ctx: RenderContext;
  facts: RedrawFacts;
}

export interface RedrawKind {
  /** Whether the post is in a shared conversation (a channel) rather than a DM. */
  shared(row: Delivery): boolean;
  /** The action's `modified` the post was drawn from when it was sent, when its ledger row tells: a version no newer is not drawn again. */
  sentVersion?(row: Delivery): string | null;
  /** The action's time (ms) the post was drawn from when sent, or later: a version no newer is not drawn again. */
  sentAsOf?(row: Delivery): number | null;
  /** The post as it should read now; null: left as it is. */
  render(input: RedrawInput): OutgoingMessage | null;
}

const inChannel = (row: Delivery) => row.recipient.startsWith('channel:');
/** A confirmation in a thread of a channel (not of a DM): a shared post. */
const inSharedThread = (row: Delivery) => inChannel(row) && !(row.slackChannel ?? '').startsWith('D');
const timeOf = (v: unknown) => (typeof v === 'string' ? (parseApiDateTime(v)?.getTime() ?? null) : null);

/** How far apart the care system's `modified` of a change made through Slack and the app's audit row of it may be. */
const SAME_CHANGE_MS = 5 * 60_000;
/** The audit verbs of a change through Slack that set an assignee. */
const ASSIGNING = new Set([CREATE_VERB, 'action.update', 'action.assign', 'reassign']);

/**
 * Who made the assignment an assignment DM told (its occurrence: the `modified` it was first seen at): the
 * remembered assignment's maker when it is that one, else the Slack user whose audited assignment is nearest
 * that time (within a few minutes), else nobody — it was made in the care system. Pure.
 */
export function assignerOf(occurrence: string, facts: Pick<RedrawFacts, 'assignment' | 'audit'>): string | null {
  if (facts.assignment?.since === occurrence) return facts.assignment.by;
  const at = timeOf(occurrence);
  if (at === null) return null;
  const near = facts.audit
    .filter((e) => ASSIGNING.has(e.verb) && 'to' in e.details && Math.abs(e.at - at) <= SAME_CHANGE_MS)
    .sort((x, y) => Math.abs(x.at - at) - Math.abs(y.at - at));
  return near[0]?.userId ?? null;
}

/** Who completed the action at this completion time through Slack (its audit row), else nobody. Pure. */
export function completerAt(completed: string, audit: AuditEntry[]): string | null {
  const at = timeOf(completed);
  return audit.find((e) => e.verb === 'action.complete' && at !== null && timeOf(e.details.completed) === at)?.userId ?? null;
}

/**
 * Who saved the action when a form confirmation was posted in a thread: the creator (Created), or the newest
 * edit audited before the post (Updated). Pure.
 */
export function saverOf(row: Delivery, audit: AuditEntry[]): string | null {
  const posted = row.sentAt ?? row.createdAt;
  const verb = row.kind === CREATED_KIND ? CREATE_VERB : 'action.update';
  return audit.filter((e) => e.verb === verb && e.at <= posted).sort((x, y) => y.at - x.at)[0]?.userId ?? null;
}

/**
 * `<episode>#<step>` (`+again`: a step of the ladder resumed after it was taken, follow-up.ts; `#<n>` after it: the
 * n-th repeat of the last step): the escalation rows' occurrence.
 */
function escalationOccurrence(occurrence: string): { episode: string; step: EscalationStep; again: boolean; repeat?: number } | null {
  const repeated = /#(\d+)$/.exec(occurrence);
  let rest = repeated ? occurrence.slice(0, repeated.index) : occurrence;
  const again = rest.endsWith('+again');
  if (again) rest = rest.slice(0, -'+again'.length);
  const at = rest.lastIndexOf('#');
  const step = rest.slice(at + 1);
  if (at < 0 || (step !== 'thread' && step !== 'seniors' && step !== 'managers')) return null;
  return { episode: rest.slice(0, at), step, again, ...(repeated ? { repeat: Number(repeated[1]) } : {}) };
}

/** The Slack user a DM's ledger row was sent to (`user:<team>/<user>`), or null. */
const dmUser = (row: Delivery) => (row.recipient.startsWith('user:') ? (row.recipient.split('/')[1] ?? null) : null);

export function redrawKinds(render: MessageRenderers): Readonly<Record<string, RedrawKind>> {
  return {
    // An urgent alert (occurrence: the `modified` its episode began at, the version it was first drawn from).
    urgent: {
      // In a channel; a safeguarding action's alert is a DM to an officer (safeguarding.ts).
      shared: inChannel,
      sentVersion: (row) => row.occurrence,
      render: ({ view, row, ctx: base, facts }) => {
        const lines = facts.escalationLines(row.occurrence);
        const ctx = { ...base, answers: facts.answers(row.occurrence) };
        return lines.length && render.escalatedAlert ? render.escalatedAlert(view, ctx, lines) : render.urgentAlert(view, ctx);
      },
    },
    // An escalation step's message: the thread reminder, a senior's DM, the managers' post.
    escalation: {
      shared: inChannel,
      render: ({ view, row, ctx, facts }) => {
        const of = escalationOccurrence(row.occurrence);
        if (!of || !render.escalationFollowing) return null;
        const began = parseApiDateTime(of.episode)?.getTime() ?? row.createdAt;
        const unansweredMinutes = Math.max(0, Math.floor(((row.sentAt ?? row.createdAt) - began) / 60_000));
        // What the steps before this one did, and this step's shift, as recorded: the post keeps saying what happened.
        const lines = facts.escalationLines(of.episode);
        const at = lines.findIndex((l) => l.step === of.step && Boolean(l.again) === of.again && (l.repeat?.n ?? 0) === (of.repeat ?? 0));
        const before = at < 0 ? lines : lines.slice(0, at);
        const shift = lines[at]?.shift;
        const again = lines[at]?.again;
        const repeat = lines[at]?.repeat;
        const info = {
          step: of.step,
          unansweredMinutes,
          location: facts.location,
          before,
          ...(shift ? { shift } : {}),
          ...(again ? { again } : {}),
          ...(repeat ? { repeat } : {}),
        };
        return render.escalationFollowing(view, { ...ctx, answers: facts.answers(of.episode) }, info, facts.state(of.episode));
      },
    },
    // The follow-up DM to whoever holds a taken urgent action (occurrence: `<episode>@<held since>[@ack]`): its buttons go once it ends.
    [FOLLOWUP_KIND]: {
      shared: () => false,
      sentAsOf: (row) => row.sentAt ?? row.createdAt,
      render: ({ view, row, ctx, facts }) => {
        const of = parseFollowUpOccurrence(row.occurrence);
        const holder = dmUser(row);
        const heldSince = of ? new Date(of.heldSince) : null;
        if (!of || !holder || !heldSince || Number.isNaN(heldSince.getTime()) || !render.followUp) return null;
        const state = followUpDmState(view, holder, row.occurrence, facts.audit);
        return render.followUp(view, ctx, { ref: row.occurrence, heldSince, via: of.via, state });
      },
    },
    // The urgent alert posted again when its holder handed it back (occurrence: `<episode>@<held since>@<who>`, posted as it was handed back).
    [HANDBACK_KIND]: {
      shared: inChannel,
      sentAsOf: (row) => row.sentAt ?? row.createdAt,
      render: ({ view, row, ctx }) => {
        const by = row.occurrence.split('@')[2];
        if (!by || !render.handBackAlert) return null;
        return render.handBackAlert(view, ctx, { by, at: new Date(row.sentAt ?? row.createdAt) });
      },
    },
    // The assignee's DM that someone else is on their urgent action, or joined it (occurrence: `<episode>#<answer id>`):
    // once the action is completed, not urgent or no longer theirs it says so and its buttons go.
    [ANSWER_KIND]: {
      shared: () => false,
      sentAsOf: (row) => row.sentAt ?? row.createdAt,
      render: ({ view, row, ctx, facts }) => {
        const of = parseAnswerOccurrence(row.occurrence);
        const recipient = dmUser(row);
        const told = of ? facts.answer?.(of.answerId) : null;
        if (!told || !recipient || !render.answerNotice) return null;
        return render.answerNotice(view, ctx, told.line, answerNoticeState(view, recipient, told.undoneAt));
      },
    },
    // The assignee's DM "You were assigned action #12 by @amelia" (occurrence: the `modified` it was made at).
    assignment: {
      shared: () => false,
      sentAsOf: (row) => timeOf(row.occurrence),
      render: ({ view, row, ctx, facts }) =>
        render.noticeFollowing ? render.noticeFollowing(view, ctx, { kind: 'assignment', by: assignerOf(row.occurrence, facts) }) : null,
    },
    // The assignee's DM that someone else changed their action (occurrence: `<what>|<when>|<who>`).
    [CHANGE_DELIVERY_KIND]: {
      shared: () => false,
      sentAsOf: (row) => timeOf(row.occurrence.split('|')[1]),
      render: ({ view, row, ctx }) => {
        const change = parseChangeOccurrence(row.occurrence);
        return change && render.noticeFollowing ? render.noticeFollowing(view, ctx, { kind: 'change', change }) : null;
      },
    },
    // The creator's DM that their action was completed (occurrence: that completion's time).
    [CREATOR_DELIVERY_KIND]: {
      shared: () => false,
      sentAsOf: (row) => timeOf(row.occurrence),
      render: ({ view, row, ctx, facts }) => {
        const completed = parseApiDateTime(row.occurrence);
        if (!completed || !render.noticeFollowing) return null;
        return render.noticeFollowing(view, ctx, { kind: 'creator', completed, by: completerAt(row.occurrence, facts.audit) });
      },
    },
    // The form's "✅ Created." / "Updated." card: in the saver's DM, or in a thread (where it names who saved it).
    ...Object.fromEntries(
      ([CREATED_KIND, UPDATED_KIND] as const).map((kind): [string, RedrawKind] => [
        kind,
        {
          shared: inSharedThread,
          // Drawn from the action as saved, just before it was posted.
          sentAsOf: (row) => row.sentAt ?? row.createdAt,
          render: ({ view, row, ctx, facts }) => {
            if (!render.noticeFollowing) return null;
            const verb = kind === CREATED_KIND ? 'Created' : 'Updated';
            if (!inChannel(row)) return render.noticeFollowing(view, ctx, { kind: 'saved', verb, by: null });
            const by = saverOf(row, facts.audit);
            return by ? render.noticeFollowing(view, ctx, { kind: 'saved', verb, by }) : null;
          },
        },
      ]),
    ),
  };
}
