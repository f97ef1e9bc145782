import type { ActionView, AnswersShown, RenderContext } from '../../src/services/action-model.js';
import { digestContent } from '../../src/services/shift-work/digest-content.js';
import { handoverContent, type HandoverShifts } from '../../src/services/shift-work/handover-content.js';
import type { StatusReport } from '../../src/services/admin/status.js';
import type { TeamView } from '../../src/services/admin/team-view.js';
import { userText } from '../../src/slack/text.js';
import { actionCard, actionLabel, assigneeText } from '../../src/slack/views/action-card.js';
import { actionModal } from '../../src/slack/views/action-form-modal.js';
import { historyModal } from '../../src/slack/views/action-history.js';
import { renderActionGroups } from '../../src/slack/views/action-list.js';
import { assignmentNotice } from '../../src/slack/views/assignment-notice.js';
import { changeNotice } from '../../src/slack/views/change-notice.js';
import { checkingModal, connectCareHomeBlocks, connectCareModal, notAdminModal } from '../../src/slack/views/connect-care.js';
import { digestThread } from '../../src/slack/views/digest-thread.js';
import { renderDigest } from '../../src/slack/views/digest.js';
import { literatureBlocks, locationsBlocks } from '../../src/slack/views/directory.js';
import { escalatedAlert, escalationMessage } from '../../src/slack/views/escalation.js';
import { followUpMessage, handBackAlert } from '../../src/slack/views/follow-up.js';
import { answerNotice } from '../../src/slack/views/episode-answers.js';
import { answerConfirmation } from '../../src/slack/views/answer-confirmation.js';
import { cantModal, onItModal } from '../../src/slack/views/answer-modals.js';
import { renderHandover, renderNotAccepted } from '../../src/slack/views/handover.js';
import { errorBlocks, helpBlocks, notLinkedBlocks } from '../../src/slack/views/help.js';
import { homeView } from '../../src/slack/views/home-view.js';
import { onCallMessage } from '../../src/slack/views/on-call.js';
import type { OnCallNow } from '../../src/services/urgent/on-call.js';
import { linkRequestBlocks, linksBlocks } from '../../src/slack/views/links.js';
import { renderMorningSummary } from '../../src/slack/views/morning-summary.js';
import { completionNotice, creatorNotice, urgentAlert } from '../../src/slack/views/notices.js';
import { patchActionBlocks } from '../../src/slack/views/patch.js';
import { forgetQuestion } from '../../src/slack/views/person-data.js';
import { undoOfferBlocks, undoResultBlocks } from '../../src/slack/views/reassign-undo.js';
import {
  reassignConfirmModal,
  reassignPickModal,
  reassignProgressModal,
  reassignResultMessage,
  reassignResultModal,
  reassignSummaryMessage,
} from '../../src/slack/views/reassign.js';
import { redactedMessage } from '../../src/slack/views/redacted.js';
import { showTasksQuestion } from '../../src/slack/views/show-tasks.js';
import { approveLinkModal, damagedFormModal, loadingModal, messageModal } from '../../src/slack/views/simple-modals.js';
import { snoozeConfirmModal, snoozeModal } from '../../src/slack/views/snooze-modal.js';
import { noteModal } from '../../src/slack/views/note-menu.js';
import type { Payload } from './slack-contract.js';

/**
 * Hostile fixtures for every view builder: a 5,000-character task text made of emoji (so some cut falls
 * inside a surrogate pair whatever the limit), of `&<>` (so some cut falls inside `&amp;`), and of
 * emoji joined into one grapheme; names with `<`, `&`, `*`, `>` and emoji. `shift` moves every cut by
 * one character, so over the variants an emoji or an entity sits at every cut position.
 */
export interface Variant {
  label: string;
  task: string;
  name: string;
}

/** Whole units only (never a lone surrogate in the fixture itself). */
function body(unit: string, shift: number, length: number): string {
  let s = 'x'.repeat(shift);
  while (s.length + unit.length <= length) s += unit;
  return s;
}

export function variants(): Variant[] {
  const out: Variant[] = [];
  for (let shift = 0; shift < 2; shift++) out.push({ label: `emoji+${shift}`, task: body('😀', shift, 5000), name: body('😀', shift, 300) });
  for (let shift = 0; shift < 5; shift++)
    out.push({ label: `entities+${shift}`, task: body('&', shift, 5000), name: `${'x'.repeat(shift)}<Ann> & *Bo* > ${body('&', 0, 200)}` });
  for (let shift = 0; shift < 9; shift++)
    out.push({ label: `graphemes+${shift}`, task: body('🧑‍⚕️*_~`', shift, 5000), name: `${'x'.repeat(shift)}*Zoë* <@U0X> & ${body('👩🏽‍🦱', 0, 200)}` });
  for (let shift = 0; shift < 3; shift++)
    out.push({ label: `words+${shift}`, task: body('Ring <!channel> & 🚑 now > ', shift, 5000), name: `${'x'.repeat(shift)}Ann <Lee> & *Bo* 😀`.repeat(5) });
  return out;
}

export interface Rendered {
  name: string;
  payload: Payload;
}

const now = new Date('2026-11-23T09:00:00Z');
/** Shift names are letters, digits and spaces, up to 24 (time/shifts.ts). */
const SHIFT = 'Twilight Early 2';
const tz = 'Europe/London';
const HOUR = 3_600_000;

export function renderAll(v: Variant): Rendered[] {
  const ctx: RenderContext = { now, timezone: tz, showTask: true };
  const answers: AnswersShown = {
    lines: Array.from({ length: 12 }, (_, i) => ({
      answer: (['on-it', 'cant', 'join'] as const)[i % 3]!,
      by: `U0P${i}`,
      ...(i === 0 ? { doer: 'U0SOPHIE' } : {}),
      at: now,
      reason: i % 3 === 1 ? 'with-resident' : undefined,
    })),
    staff: ['U0P0', 'U0P2'],
    needed: 2,
  };
  const shared: RenderContext = { ...ctx, shared: true };
  const action = (i: number, extra: Partial<ActionView> = {}): ActionView => ({
    id: i.toString(16).padStart(24, '0'),
    actionNo: String(1000 + i),
    task: v.task,
    due: new Date(now.getTime() + (i % 5) * HOUR - 3 * HOUR),
    urgent: i % 3 === 0,
    completed: null,
    assignee: i % 2 ? { slackUserId: 'U0SOPHIE', careUserId: 'c'.repeat(24) } : { name: v.name, careUserId: 'd'.repeat(24) },
    ...extra,
  });
  const many = Array.from({ length: 120 }, (_, i) => action(i));
  /** Who's on now with more urgent actions than a message holds, and names as hostile as the variant's. */
  const occurrence = { shift: { name: v.name.slice(0, 24), start: '07:00', end: '19:00' }, date: '2027-06-15', startsAt: now, endsAt: now, id: 'x' };
  const onCall: OnCallNow = {
    shifts: { shifts: [occurrence.shift], isDefault: false, timezone: tz, current: occurrence, next: occurrence },
    seniors: ['U0PRIYA', 'U0OLIVER'],
    managersChannel: 'C0MGRS',
    actions: many.slice(0, 60).map((view, i) => ({
      view,
      began: new Date(now.getTime() - i * 60_000),
      onIt:
        i % 2
          ? [
              { name: v.name, since: now },
              { name: v.name, slackUserId: 'U0PRIYA', since: now },
            ]
          : [],
    })),
    more: 40,
  };
  const a = action(3);
  /** App-written mrkdwn (a refusal, a notice) that quotes what a person typed, escaped as the app does. */
  const said = `Could not save: ${userText(v.task)}`;
  const msg = (name: string, m: { text?: string | null; blocks?: unknown[] | undefined }): Rendered => ({
    name,
    payload: { surface: 'message', ...(typeof m.text === 'string' ? { text: m.text } : {}), blocks: m.blocks ?? [] },
  });
  const blocksMsg = (name: string, blocks: unknown[]): Rendered => msg(name, { text: 'x', blocks });
  const modal = (name: string, view: unknown): Rendered => ({ name, payload: { surface: 'modal', view: view as Record<string, unknown> } });
  const home = (name: string, view: unknown): Rendered => ({ name, payload: { surface: 'home', view: view as Record<string, unknown> } });

  const person = { careUserId: 'a'.repeat(24), name: v.name, slackUserId: 'U0AMELIA' };
  const other = { careUserId: 'b'.repeat(24), name: v.name };
  const plan = { from: person, to: other, scope: 'all' as const, actions: [], total: 25, overdue: 3, today: 5, later: 17, capped: false };
  const outcome = {
    moved: Array.from({ length: 23 }, (_, i) => ({ id: String(i).padStart(24, '0'), no: String(1000 + i) })),
    failed: [{ id: 'c'.repeat(24), no: '1042', why: 'deleted in the care system' }],
  };
  const undo = { runId: 'r1', expiresAt: now.getTime() + 600_000, windowMs: 600_000 };

  // What the digest job writes as its filter (a location name is the care system's: see the report).
  const digest = digestContent(many, now, tz, 'urgent only <@U0SOPHIE> Willow Bank');
  const shifts: HandoverShifts = {
    outgoing: { name: SHIFT, startsAt: new Date(now.getTime() - 12 * HOUR) },
    incoming: { name: 'Night', startsAt: now, endsAt: new Date(now.getTime() + 12 * HOUR), id: '2026-11-23/Night' },
  };
  const handover = handoverContent(
    shifts,
    many,
    many.map((x, i) => ({ view: i % 4 ? x : { ...x, completed: new Date(now.getTime() - HOUR) }, created: new Date(now.getTime() - 2 * HOUR) })),
  );
  const team: TeamView = {
    timezone: tz,
    through: '2026-11-30',
    overdue: 90,
    today: 40,
    carers: Array.from({ length: 40 }, (_, i) =>
      i % 2 ? { careUserId: `c${i}`, slackUserId: `U${i}`, overdue: 8, today: i } : { careUserId: `c${i}`, name: v.name, overdue: 1, today: 0 },
    ),
    unassigned: { count: 50, overdue: 30, today: 10, first: many.slice(0, 5) },
    partial: true,
    read: 2_000,
    channels: Array.from({ length: 30 }, (_, i) => ({
      channelId: `C${i}`,
      digest: {
        time: '08:00',
        days: 'weekdays' as const,
        timezone: tz,
        next: new Date(now.getTime() + 24 * HOUR),
        filters: { slackUserIds: ['U1'], locationName: v.name },
        setUpBy: 'U0',
        urgentAlerts: true,
        showTaskText: false,
      },
      routes: [v.name, v.name],
    })),
  };
  const status: StatusReport = {
    version: '1.2.3',
    care: {
      requests: 10,
      failures: 2,
      lastAnswerAgoMs: 3_000,
      lastTrouble: { agoMs: 120_000, error: v.task },
      rateLimit: { limit: 10, remaining: 7, agoMs: 3_000 },
    },
    poll: {
      everySeconds: 60,
      lastRun: { agoMs: 20_000, ok: false, error: v.task, requests: 0, seen: 0 },
      lagMs: 90_000,
      newestChange: now,
      lastOkAgoMs: 80_000,
      late: false,
    },
    deliveries: {
      windowHours: 24,
      sent: 12,
      pending: 3,
      failed: 9,
      rows: Array.from({ length: 4 }, (_, i) => ({
        id: i + 1,
        kind: 'completion',
        recipient: { type: 'user' as const, id: `U${i}` },
        reason: v.task,
        retry: true,
      })),
    },
    digests: [{ channelId: 'C1', time: '08:00', days: 'daily' as const, timezone: tz, last: now, next: now }],
  };
  const link = {
    slackUserId: 'U1',
    slackName: v.name,
    careUserId: 'c'.repeat(24),
    careUserName: v.name,
    careUserEmail: v.name,
    method: 'email',
    createdBy: null,
    createdAt: 0,
  };
  const line = { step: 'seniors' as const, to: ['U0PRIYA'], at: now, shift: v.name };
  const meta = { mode: 'edit' as const, actionId: a.id, tz };
  const history = {
    entries: [
      { at: now, verb: 'action.update', by: 'U1', details: { task: v.task } },
      { at: now, verb: 'action.reassign', by: null, details: { from: 'c'.repeat(24), to: 'd'.repeat(24) } },
      { at: now, verb: 'note', by: 'U1', details: { on: 'complete' }, note: v.task.slice(0, 500) },
    ],
    people: { ['c'.repeat(24)]: { name: v.name }, ['d'.repeat(24)]: { name: v.name } },
    omitted: 3,
  };

  return [
    blocksMsg('actionCard', actionCard(a, ctx)),
    blocksMsg('actionCard (shared)', actionCard(a, shared)),
    blocksMsg('renderActionGroups', renderActionGroups([{ label: 'Overdue', actions: many }], ctx, { maxBlocks: 50, buttons: 'full' }).blocks),
    home('homeView', homeView({ linked: true, careUserName: v.name, groups: [{ label: 'Overdue', actions: many }], limit: 100, error: said }, ctx)),
    home(
      'homeView (admin)',
      homeView(
        {
          linked: true,
          groups: [{ label: 'Overdue', actions: many }],
          limit: 20,
          admin: { team, status },
          handover: { outgoing: v.name, incoming: v.name, actions: many },
        },
        ctx,
      ),
    ),
    home('homeView (connect card)', {
      type: 'home',
      blocks: connectCareHomeBlocks({
        isAdmin: true,
        connection: { baseUrl: 'https://care.example', accountId: v.name, connectedBy: 'U1', connectedAt: 0 },
        timezone: tz,
      }),
    }),
    modal(
      'actionModal',
      actionModal(meta, 'm'.repeat(100), {
        task: v.task,
        assignee: { careUserId: 'c'.repeat(24), label: v.name },
        notify: [{ id: 'g1', name: v.name }],
        more: true,
        dueNotice: said,
      }),
    ),
    modal('historyModal', historyModal(a, history, tz)),
    modal('snoozeModal', snoozeModal('m', { label: actionLabel(a), date: '2026-11-24', time: '09:00', tz, shared: { assignee: assigneeText(a) } })),
    modal('snoozeConfirmModal', snoozeConfirmModal('m', { label: actionLabel(a), assignee: assigneeText(a), due: now, tz, earlierThan: now })),
    modal('noteModal (complete)', noteModal('m', { move: 'complete', label: actionLabel(a), assignee: assigneeText(a), shared: true })),
    modal('noteModal (take)', noteModal('m', { move: 'take', label: actionLabel(a), assignee: assigneeText(a), shared: false })),
    modal('messageModal', messageModal(v.name, said)),
    modal('loadingModal', loadingModal(v.name)),
    modal('damagedFormModal', damagedFormModal(v.name)),
    modal(
      'approveLinkModal',
      approveLinkModal(
        'cb',
        'm',
        { slackUserId: 'U1', name: v.name, email: v.name },
        { canSearch: false, suggested: { id: 'c'.repeat(24), name: v.name, email: v.name, linked: true, otherEmail: true } },
      ),
    ),
    modal('connectCareModal', connectCareModal('m', { choice: 'other', otherUrl: v.name, accountId: v.name }, said)),
    modal('checkingModal', checkingModal(`https://${v.name}`)),
    modal('notAdminModal', notAdminModal()),
    modal('reassignPickModal', reassignPickModal(person, 'm')),
    modal('reassignConfirmModal', reassignConfirmModal(plan, 'm')),
    modal('reassignProgressModal', reassignProgressModal(plan, 3)),
    modal('reassignResultModal', reassignResultModal(plan, outcome)),
    msg('reassignResultMessage', reassignResultMessage(plan, outcome, undo, tz)),
    msg('reassignSummaryMessage', reassignSummaryMessage({ by: 'U1', from: person, to: other, moved: outcome.moved, reader: 'to' })),
    blocksMsg('undoOfferBlocks', undoOfferBlocks(plan, 23, undo, tz)),
    blocksMsg('undoResultBlocks', undoResultBlocks('U1', person, other, outcome)),
    msg('assignmentNotice', assignmentNotice(a, ctx, { by: 'U1' })),
    msg('changeNotice', changeNotice(a, ctx, { kind: 'edit', by: 'U1', fields: ['task', 'due'] })),
    msg('completionNotice', completionNotice({ ...a, completed: now }, ctx, [v.name, v.name])),
    msg('creatorNotice', creatorNotice(a, ctx)),
    msg('urgentAlert', urgentAlert(a, shared)),
    msg('escalatedAlert', escalatedAlert(a, shared, [line, { step: 'managers', to: ['C0MGRS'], at: now }])),
    msg('escalationMessage', escalationMessage(a, shared, { step: 'seniors', unansweredMinutes: 30, location: v.name, shift: v.name, before: [line] })),
    msg('followUpMessage', followUpMessage(a, ctx, { ref: `2026-11-23 10:00:00@${now.toISOString()}`, heldSince: now, via: 'taken', state: { kind: 'open' } })),
    msg(
      'followUpMessage still on it',
      followUpMessage(a, ctx, {
        ref: `2026-11-23 10:00:00@${now.toISOString()}`,
        heldSince: now,
        via: 'taken',
        state: { kind: 'still-on-it', at: now, until: now },
      }),
    ),
    msg('handBackAlert', handBackAlert(a, shared, { by: 'U1', at: now })),
    msg(
      'escalationMessage again',
      escalationMessage(a, shared, { step: 'managers', unansweredMinutes: 90, location: v.name, before: [line], again: 'followup' }),
    ),
    msg(
      'escalatedAlert (repeats)',
      escalatedAlert(a, shared, [
        line,
        ...Array.from({ length: 11 }, (_, i) => ({ step: 'managers' as const, to: ['C0MGRS'], at: now, ...(i ? { repeat: { n: i, of: 10 } } : {}) })),
      ]),
    ),
    msg(
      'escalationMessage (repeat)',
      escalationMessage(a, shared, { step: 'managers', unansweredMinutes: 300, location: v.name, before: [line], repeat: { n: 9, of: 10 } }),
    ),
    msg('onCallMessage', onCallMessage(onCall, ctx)),
    home('homeView (on call)', homeView({ linked: true, groups: [{ label: 'Overdue', actions: many }], limit: 100, onCall }, ctx)),
    msg('redactedMessage', redactedMessage({ actionId: a.id, actionNo: a.actionNo ?? '1003' })),
    // Issue 33: an alert with a dozen answers (the context block holds 10), a two-person count, the modals, the answerer's note.
    msg('urgentAlert with answers', urgentAlert(a, { ...shared, answers })),
    msg('urgentAlert two of two needed', urgentAlert(a, { ...shared, answers: { lines: answers.lines.slice(0, 1), staff: ['U0PRIYA'], needed: 2 } })),
    msg('escalationMessage with answers', escalationMessage(a, { ...shared, answers }, { step: 'thread', unansweredMinutes: 15, location: v.name })),
    msg('answerNotice', answerNotice(a, ctx, answers.lines[0]!)),
    msg('answerNotice moved', answerNotice(a, ctx, answers.lines[0]!, { kind: 'moved' })),
    msg('answerNotice completed', answerNotice(a, ctx, answers.lines[0]!, { kind: 'completed' })),
    msg('answerConfirmation', answerConfirmation(a, 'cant', 'recorded', { note: v.task, undo: { value: 'U1:x'.repeat(300), minutes: 5 } })),
    modal('onItModal', onItModal('m', { label: `#${a.actionNo}`, assignee: null })),
    modal('onItModal assigned', onItModal('m', { label: `#${a.actionNo}`, assignee: v.name })),
    modal('cantModal', cantModal('m', { label: `#${a.actionNo}` })),
    ...(() => {
      const r = renderDigest(digest, shared, { postWhenEmpty: true });
      return r ? [msg('renderDigest', r.main), ...r.thread.map((m, i) => msg(`renderDigest thread ${i}`, m))] : [];
    })(),
    ...digestThread(digest, shared, 90).messages.map((m, i) => msg(`digestThread ${i}`, m)),
    msg('renderHandover', renderHandover(handover, shared, { channelId: 'C1', occurrence: '2026-11-23/Night' })),
    msg('renderNotAccepted', renderNotAccepted({ channelId: 'C1', shiftName: SHIFT, startsAt: now, minutes: 30 }, shared)),
    msg(
      'renderMorningSummary',
      renderMorningSummary(
        {
          title: 'Monday 23 November',
          overdue: 3,
          today: 4,
          urgent: 1,
          groups: [{ label: 'Overdue', actions: many }],
          schedule: { time: '08:00', days: 'daily', timezone: tz },
        },
        ctx,
      ),
    ),
    blocksMsg('helpBlocks', helpBlocks({ linked: true, careUserName: v.name, isAdmin: true, setUp: 'self-service' })),
    blocksMsg('errorBlocks', errorBlocks(said)),
    blocksMsg('notLinkedBlocks', notLinkedBlocks()),
    blocksMsg('linksBlocks', linksBlocks(Array.from({ length: 60 }, (_, i) => ({ ...link, slackUserId: `U${i}` })))),
    blocksMsg('linkRequestBlocks', linkRequestBlocks('r1', { slackUserId: 'U1', name: v.name, email: v.name }, { id: 'c'.repeat(24), name: v.name })),
    msg(
      'forgetQuestion',
      forgetQuestion({
        slackUserId: 'U1',
        name: v.name,
        deletes: { links: 1, linkRequests: 1, summarySettings: 1, deliveries: 3 },
        anonymises: 4,
        addedAdmin: true,
        admin: null,
      }),
    ),
    blocksMsg(
      'locationsBlocks',
      locationsBlocks(
        Array.from({ length: 30 }, (_, i) => ({ id: String(i).padStart(24, '0'), name: v.name, ref: v.name, phone: v.name, town: v.name })),
        v.name,
      ),
    ),
    blocksMsg(
      'literatureBlocks',
      literatureBlocks(
        Array.from({ length: 30 }, (_, i) => ({ id: String(i).padStart(24, '0'), name: v.name, ref: v.name, file: v.name, locationName: v.name })),
        v.name,
      ),
    ),
    blocksMsg('showTasksQuestion', showTasksQuestion('C1', 0)),
    blocksMsg(
      'patchActionBlocks',
      patchActionBlocks(actionCard(a, shared), a, shared, { kind: 'edit', by: 'U1', edits: { task: true, assignee: { from: v.name, to: v.name } } }) ?? [],
    ),
  ];
}
