import { NotFoundError, type Action, type ActionInput, type CareClient, type ReminderInput } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import { apiDateRange, dueWindow, inWindow, type DueWindowName } from '../../time/due-windows.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { movesEarlier } from '../../time/snooze.js';
import { ACTION_ATTRIBUTES, bucketByDue, byUrgencyThenDue, type ActionFormValue, type ActionRef, type ActionView, type DueBuckets } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import { UserFacingError } from '../errors.js';
import type { ListWhere } from './list-where.js';
import { sameActionAssignedTo, sameActionDueAt } from './keep-action.js';
import { withCareWebLinks } from '../care-web-link.js';
import { editedFields } from '../notices/change-kinds.js';
import { completingCursor } from '../notices/creator-notices.js';
import type { Actor, IdentityService } from '../people/identity.js';
import type { ActionCache } from '../read-cache/action-cache.js';
import { createOpenActions } from '../read-cache/open-actions.js';
import type { AfterWrite } from './after-write.js';
import { claimTake, takeKey } from './take-claim.js';
import { type EditRestore, type UndoOutcome, type UndoRequest, undoChange } from './undo-change.js';

export interface ActionsService {
  /** By Id: the whole action. By number: the action with ACTION_ATTRIBUTES only (enough for cards). */
  resolve(ref: ActionRef): Promise<Action>;
  /** Care actions as this workspace's cards show them (its people's mentions, who completed them here). */
  views(actions: Action[]): Promise<ActionView[]>;
  /** The person's open actions: overdue, due today, due in the next 7 days (`where`: of one location or resident only). */
  mine(careUserId: string, now: Date, tz: string, where?: ListWhere): Promise<DueBuckets>;
  due(careUserId: string, window: DueWindowName, now: Date, tz: string, where?: ListWhere): Promise<ActionView[]>;
  find(words: string): Promise<ActionView[]>;
  create(actor: Actor, form: ActionFormValue): Promise<Action>;
  /**
   * Save the edit form. `before`: the action as it was just before. Whoever it was taken away from is
   * told, and the assignee it kept is told what changed, when someone else edited it (a new assignee
   * is told by the assignment DMs).
   */
  update(actor: Actor, id: string, form: ActionFormValue): Promise<{ action: Action; before: Action }>;
  /** The Undo of an Edit: the fields it changed put back (`previous`), all else as it is now; told as an edit is. */
  restoreEdit(actor: Actor, id: string, previous: EditRestore): Promise<{ action: Action; changed: boolean }>;
  /** `undo`: the Undo of a Reopen (the audit row says so, for the action's history). */
  complete(actor: Actor, id: string, options?: { undo?: boolean }): Promise<{ action: Action; changed: boolean }>;
  /** `undo`: the Undo of a Complete (the audit row says so, for the action's history). */
  reopen(actor: Actor, id: string, options?: { undo?: boolean }): Promise<{ action: Action; changed: boolean }>;
  /**
   * Take it: assign the action to the clicker's own care user (linked people
   * only), nothing else changed. Unchanged when it is already theirs or
   * complete (its posts are then drawn as it is now). `previousAssignee`: the care user it was taken from.
   * With `onlyIfUnassigned` (the person was shown it as nobody's), an action
   * someone else has meanwhile is left as it is (`changed: false`).
   * Claimed once (take-claim.ts): of many presses on one version of the action only one writes; the others
   * are `changed: false` with `takenBy`, the Slack user whose press won (null: not known), and announce nothing.
   */
  takeIt(
    actor: Actor,
    id: string,
    options?: { onlyIfUnassigned?: boolean },
  ): Promise<{ action: Action; changed: boolean; previousAssignee: string | null; takenBy?: string | null }>;
  /**
   * Hand back (follow-up.ts): the action unassigned in the care system, nothing else changed, when `from` still
   * has it (care user Id); unchanged when it is complete or someone else has it now.
   */
  handBack(actor: Actor, id: string, from: string): Promise<{ action: Action; changed: boolean }>;
  /**
   * A new due time and nothing else changed (see keep-action.ts); `due` may be
   * worked out from the current one. A completed action is left as it is.
   * `previousDue`: the due time before (the care API's text); `earlier`: the new one
   * brought it forward (said "moved earlier", not "snoozed"). The assignee is told
   * when someone else snoozed it (`undo`: the due time put back by an Undo).
   */
  snooze(
    actor: Actor,
    id: string,
    due: Date | ((current: Date | null) => Date),
    options?: { undo?: boolean },
  ): Promise<{ action: Action; changed: boolean; previousDue: string | null; earlier: boolean }>;
  /**
   * Undo of a Complete, Reopen, Snooze or Edit made on a channel post: once only (spent
   * when used), and only while the action is as that change left it (undo-change.ts).
   */
  undo(actor: Actor, request: UndoRequest): Promise<UndoOutcome>;
}

const MAX_LISTED = 500;

/**
 * What an edit through Slack changed that an action's history shows: the assignee (`from`, `to`: care
 * user Ids), the due time (`dueFrom`, `dueTo`) and urgency. Ids and times only, never task text.
 */
export function editDetails(before: Action, after: Action): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if ((before.assigned_to ?? null) !== (after.assigned_to ?? null)) Object.assign(details, { from: before.assigned_to ?? null, to: after.assigned_to ?? null });
  if ((before.due ?? null) !== (after.due ?? null)) Object.assign(details, { dueFrom: before.due ?? null, dueTo: after.due ?? null });
  if (Boolean(before.urgent) !== Boolean(after.urgent)) details.urgent = Boolean(after.urgent);
  return details;
}

/**
 * What the actions service is built from. What follows each change it makes through Slack (a completion's notices,
 * a new assignee told, an urgent alert, the posts redrawn, the assignee told of another's change) is AfterWrite's
 * (after-write.ts): called, not awaited, and never throwing; the changes poll finds what it missed.
 */
export interface ActionsServiceDeps extends AfterWrite {
  /** The care client; the composition gives the read cache's (read-cache/observe-writes.ts), which tells the cache each write. */
  care: CareClient;
  store: WorkspaceStore;
  identity: IdentityService;
  /** The workspace it serves (bound at composition: no caller names one). */
  teamId: () => Promise<string>;
  logger: Logger;
  /** CARE_WEB_URL: views carry a link to the action in the care system's web app. */
  careWebUrl?: string | undefined;
  /** Lists and cards read through the instance's action cache (read-cache/); writes go through `care` as before. */
  reads: ActionCache;
  /** The app's clock (how long a spent Undo is remembered). Default: the system clock. */
  now?: () => Date;
}

export function createActionsService(deps: ActionsServiceDeps): ActionsService {
  const { care, store, identity, logger, reads } = deps;
  const open = createOpenActions(reads, logger);

  /** After an edit through Slack: the one it was taken away from, or the assignee it kept, is told (never the editor). */
  function announceEdit(actor: Actor, before: Action, after: Action): void {
    const from = before.assigned_to ?? null;
    if (from !== (after.assigned_to ?? null)) {
      if (from) deps.announceChange(after, { kind: 'unassign', by: actor, assignee: from });
      return;
    }
    const fields = editedFields(before, after);
    if (fields.length) deps.announceChange(after, { kind: 'edit', by: actor, assignee: from, fields });
  }

  async function audit(actor: Actor, verb: string, actionId: string, details: Record<string, unknown> = {}) {
    await store.appendAudit({ userId: actor.userId, verb, actionId, details });
  }

  function input(form: ActionFormValue, assignedTo: string | null, keep?: Action): ActionInput {
    return {
      task: form.task,
      due: form.due,
      assigned_to: assignedTo,
      urgent: form.urgent,
      pin_to_calendar: form.pin,
      notify_on_complete: form.notify,
      // The form only lets through the API's methods and offsets.
      reminders: form.reminders.map((r) => r as ReminderInput),
      // The form does not show tags: keep the ones the action has.
      ...(keep?.user_tags?.length ? { user_tags: keep.user_tags } : {}),
      ...(form.subject ? { [form.subject.type]: form.subject.id } : {}),
    };
  }

  /** Only the actions of one location (their `location`) or one resident (the open actions about them, one cached read). */
  async function narrowed(items: Action[], where: ListWhere | undefined): Promise<Action[]> {
    if (!where) return items;
    if (where.type === 'location') return items.filter((a) => a.location === where.id);
    const about = await reads.list(
      { filters: { parent_subject: [where.id], completed: 'no' }, attributes: [...ACTION_ATTRIBUTES], sort_by: ['due'], per_page: 100, limit: MAX_LISTED },
      { background: true },
    );
    const ids = new Set(about.map((a) => a._id));
    return items.filter((a) => ids.has(a._id));
  }

  const service: ActionsService = {
    async resolve(ref) {
      if (ref.type === 'id') {
        try {
          return await care.actions.retrieve(ref.id);
        } catch (err) {
          if (err instanceof NotFoundError)
            throw new UserFacingError(`There is no action with the Id \`${ref.id}\`. Search by words instead: \`/care find &lt;words&gt;\``, 'not-found');
          throw err;
        }
      }
      // Action numbers resolve through filters-q (a substring search), with an exact match on action_no.
      // The match comes back with what cards need, so no second request (the API's rate limit is the bottleneck).
      // An action the cache holds (kept fresh by the changes feed) needs no request at all.
      const held = reads.byNumber(ref.no);
      if (held) return held;
      for await (const a of reads.remembering(
        care.actions.iterate({
          filters: { q: ref.no, completed: 'unset' },
          attributes: [...ACTION_ATTRIBUTES],
          per_page: 100,
          limit: 1000,
        }),
      )) {
        if (a.action_no === ref.no) return a;
      }
      throw new UserFacingError(`There is no action #${ref.no}. Check the number on its card, or search by words: \`/care find &lt;words&gt;\``, 'not-found');
    },

    views: async (actions) => withCareWebLinks(deps.careWebUrl, await toActionViews(actions, identity, { store, teamId: deps.teamId })),

    async mine(careUserId, now, tz, where) {
      const week = dueWindow('week', now, tz);
      const items = await narrowed(await open.of(careUserId, { end_date: apiDateRange(week).end_date }, now, MAX_LISTED), where);
      return bucketByDue(await service.views(items), now, tz);
    },

    async due(careUserId, windowName, now, tz, where) {
      const window = dueWindow(windowName, now, tz);
      const items = await narrowed(await open.of(careUserId, apiDateRange(window), now, MAX_LISTED), where);
      const inRange = items.filter((a) => {
        const due = parseApiDateTime(a.due);
        return due !== null && inWindow(due, window);
      });
      return (await service.views(inRange)).sort(byUrgencyThenDue);
    },

    async find(words) {
      const items = await reads.list({
        filters: { q: words, completed: 'unset' },
        attributes: [...ACTION_ATTRIBUTES],
        sort_by: ['-due'],
        per_page: 100,
        limit: 100,
      });
      const views = await service.views(items);
      return views.sort((a, b) => (a.completed ? 1 : 0) - (b.completed ? 1 : 0) || byUrgencyThenDue(a, b));
    },

    async create(actor, form) {
      await identity.requireLink(actor);
      // Anyone on the rota: a care user not in Slack sees it in the care system (the care API refuses an unknown Id).
      const created = await care.actions.create(input(form, form.assigneeCareUserId));
      if (!created) throw new UserFacingError('The care system accepted the action but did not return it; check the care system before creating it again.');
      // Who created it (the creator is told when someone else completes it) and what it started as, for its history: ids and times only.
      await audit(actor, 'action.create', created._id, {
        actionNo: created.action_no,
        to: created.assigned_to ?? null,
        due: created.due ?? null,
        ...(created.urgent ? { urgent: true } : {}),
      });
      logger.info('action created through Slack', { actionId: created._id, by: actor.userId });
      deps.announceWrite(created, { by: actor, before: null });
      return created;
    },

    async update(actor, id, form) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      const updated = (await care.actions.update(id, input({ ...form, subject: null }, form.assigneeCareUserId, current))) ?? (await care.actions.retrieve(id));
      await audit(actor, 'action.update', id, editDetails(current, updated));
      deps.announceWrite(updated, { by: actor, before: current });
      announceEdit(actor, current, updated);
      return { action: updated, before: current };
    },

    async restoreEdit(actor, id, previous) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      const due = parseApiDateTime('due' in previous ? previous.due : current.due);
      if (!due)
        throw new UserFacingError(
          'It had no due time before the edit, and the care system needs one: use Edit on its card to set the time you want.',
          'invalid',
        );
      const update = {
        ...sameActionDueAt(current, due),
        ...('assignee' in previous ? { assigned_to: previous.assignee ?? null } : {}),
        ...('urgent' in previous ? { urgent: Boolean(previous.urgent) } : {}),
      };
      const restored = (await care.actions.update(id, update)) ?? (await care.actions.retrieve(id));
      await audit(actor, 'action.update', id, { ...editDetails(current, restored), undo: true });
      deps.announceWrite(restored, { by: actor, before: current });
      announceEdit(actor, current, restored);
      return { action: restored, changed: true };
    },

    async complete(actor, id, options = {}) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      if (current.completed) return { action: current, changed: false };
      // Marked first: a poll that sees it completed before the audit row below is written waits for it (creator-notices.ts).
      await store.setCursor(completingCursor(id), String((deps.now ?? (() => new Date()))().getTime()));
      const done = (await care.actions.complete(id)) ?? (await care.actions.retrieve(id));
      // Views read this entry to say who completed it (matched by the completion time).
      await audit(actor, 'action.complete', id, {
        completed: done.completed,
        completedBy: actor.userId,
        via: 'slack',
        ...(options.undo ? { undo: true } : {}),
      });
      await store.setCursor(completingCursor(id), ''); // written: the poll need not wait any more
      deps.announceCompletion(done);
      deps.announceWrite(done, { by: actor, before: current });
      deps.announceChange(done, { kind: 'complete', by: actor, assignee: done.assigned_to ?? null });
      return { action: done, changed: true };
    },

    async reopen(actor, id, options = {}) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      if (!current.completed) return { action: current, changed: false };
      const open = (await care.actions.reopen(id)) ?? (await care.actions.retrieve(id));
      await audit(actor, 'action.reopen', id, { completed: current.completed ?? null, ...(options.undo ? { undo: true } : {}) });
      deps.announceWrite(open, { by: actor, before: current });
      deps.announceChange(open, { kind: 'reopen', by: actor, assignee: open.assigned_to ?? null });
      return { action: open, changed: true };
    },

    async takeIt(actor, id, options = {}) {
      const link = await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      const label = current.action_no ? `#${current.action_no}` : 'This action';
      const previousAssignee = current.assigned_to ?? null;
      if (current.completed) {
        // Completed elsewhere: nothing to take, but every post about it is drawn as it is now (the one clicked by its listener).
        deps.announceWrite(current, { by: actor, before: current });
        return { action: current, changed: false, previousAssignee };
      }
      if (previousAssignee === link.careUserId) return { action: current, changed: false, previousAssignee };
      if (previousAssignee && options.onlyIfUnassigned) return { action: current, changed: false, previousAssignee };
      const update = sameActionAssignedTo(current, link.careUserId);
      if (!update) throw new UserFacingError(`${label} has no due time, so it cannot be taken here: open it with \`/care show\` and use Edit.`, 'invalid');
      // One press of this version writes; the rest are told who took it (their copy is the one it was taken from).
      const claim = await claimTake(store, takeKey(await deps.teamId(), current), actor.userId);
      if (!claim.won) return { action: current, changed: false, previousAssignee, takenBy: claim.by };
      let taken: Action;
      try {
        taken = (await care.actions.update(id, update)) ?? (await care.actions.retrieve(id));
        await audit(actor, 'action.assign', id, { from: previousAssignee, to: link.careUserId, via: 'take-it' });
      } catch (err) {
        await claim.failed(err).catch((e) => logger.warn('could not give back a Take it claim', { actionId: id, error: e }));
        throw err;
      }
      await claim.done().catch((e) => logger.warn('could not record a Take it as done', { actionId: id, error: e }));
      deps.announceWrite(taken, { by: actor, before: current });
      deps.announceChange(taken, { kind: 'take', by: actor, assignee: previousAssignee });
      return { action: taken, changed: true, previousAssignee };
    },

    async handBack(actor, id, from) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      if (current.completed || current.assigned_to !== from) return { action: current, changed: false };
      const update = sameActionAssignedTo(current, null);
      if (!update) throw new UserFacingError('It has no due time, so it cannot be handed back here: open it with `/care show` and use Edit.', 'invalid');
      const handed = (await care.actions.update(id, update)) ?? (await care.actions.retrieve(id));
      await audit(actor, 'action.assign', id, { from, to: null, via: 'hand-back' });
      deps.announceWrite(handed, { by: actor, before: current });
      return { action: handed, changed: true };
    },

    async snooze(actor, id, due, options = {}) {
      await identity.requireLink(actor);
      const current = await care.actions.retrieve(id);
      const previousDue = current.due ?? null;
      if (current.completed) return { action: current, changed: false, previousDue, earlier: false };
      const to = typeof due === 'function' ? due(parseApiDateTime(current.due)) : due;
      const snoozed = (await care.actions.update(id, sameActionDueAt(current, to))) ?? (await care.actions.retrieve(id));
      await audit(actor, 'action.snooze', id, { from: previousDue, to: snoozed.due ?? null, ...(options.undo ? { undo: true } : {}) });
      const earlier = !options.undo && movesEarlier(parseApiDateTime(previousDue), parseApiDateTime(snoozed.due));
      deps.announceWrite(snoozed, { by: actor, before: current });
      deps.announceChange(snoozed, { kind: options.undo ? 'unsnooze' : earlier ? 'earlier' : 'snooze', by: actor, assignee: snoozed.assigned_to ?? null });
      return { action: snoozed, changed: true, previousDue, earlier };
    },

    undo: (actor, request) =>
      undoChange(
        {
          care,
          store,
          now: deps.now ?? (() => new Date()),
          teamId: deps.teamId,
          moves: {
            complete: (a, id) => service.complete(a, id, { undo: true }),
            reopen: (a, id) => service.reopen(a, id, { undo: true }),
            unsnooze: (a, id, due) => service.snooze(a, id, due, { undo: true }),
            unedit: (a, id, previous) => service.restoreEdit(a, id, previous),
          },
        },
        actor,
        request,
      ),
  };
  return service;
}
