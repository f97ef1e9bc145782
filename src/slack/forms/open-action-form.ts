import { readDuePhrase } from '../../time/due-phrases.js';
import { localParts } from '../../time/zones.js';
import type { SlackDeps } from '../deps.js';
import { CallbackIds } from '../ids.js';
import { openThenFill } from '../listeners/modal-flow.js';
import { fitTask } from './task-limit.js';
import { userText } from '../text.js';
import { nowInWords } from './due-check.js';
import { type ActionFormInitial, type ActionModalMeta, actionModal, assigneeLabel, firstWordOf } from '../views/action-form-modal.js';
import { cut } from '../cut.js';

const TITLE = 'New care action';

/** Under the due time when the words named a time already gone: kept as typed, so nothing moves silently. */
function passedNotice(phrase: string, now: Date, tz: string): string {
  return `“${userText(phrase, 60)}” has passed: it is now ${nowInWords(now, tz)}. Pick a later time.`;
}

/** The unread words carried in the form's sealed metadata (which has a size limit): a few, each short. */
const fitUnread = (words: string[]) => words.slice(0, 5).map((w) => cut(w, 40, { mrkdwn: false }));

/** The assignee picker's starting choice: this care user, named and marked as the picker marks them. */
export async function assigneeInitial(deps: SlackDeps, careUserId: string, slackUserId?: string | null): Promise<ActionFormInitial['assignee']> {
  const [name, slack] = await Promise.all([
    deps.identity.careUserName(careUserId).catch(() => undefined),
    slackUserId === undefined ? deps.identity.slackUserFor(careUserId) : Promise.resolve(slackUserId),
  ]);
  return { careUserId, label: assigneeLabel({ name: name ?? 'Care user', ...(slack ? { slackUserId: slack } : {}) }) };
}

/**
 * Open the create form (openThenFill): the trigger lives 3 s, so a loading view
 * opens first; the person's time zone (a Slack call) comes after, and the form
 * replaces the loading view. A failure after opening is shown in the modal.
 *
 * The assignee starts as the person creating it (when linked); anyone on the
 * rota can be picked, in Slack or not. With `dueFromTask` ("/care new Call the GP tomorrow
 * 3pm") the due date and time are read from the task's words in the person's
 * zone and those words are left out of the task.
 */
export async function openCreateForm(
  deps: SlackDeps,
  triggerId: string,
  actor: { teamId: string; userId: string },
  where: {
    channelId?: string | undefined;
    threadTs?: string | undefined;
    task?: string | undefined;
    dueFromTask?: boolean;
    /** Told once the modal is open (the person sees an answer). */
    onOpened?: () => void;
    /** The words were typed after `/care` with no sub-command: the form says they were read as `/care new`. */
    readAsNew?: boolean;
  },
): Promise<void> {
  const flow = { triggerId, title: TITLE, log: 'could not fill the create form', onOpened: where.onOpened };
  await openThenFill(deps, flow, async () => {
    const [tz, link] = await Promise.all([deps.profiles.tz(actor.userId), deps.identity.getLink(actor)]);
    // The person creating it, by their Slack name (no call to the care system before the form shows).
    const me = link ? await deps.profiles.get(actor.userId).catch(() => null) : null;
    const assignee = link ? { careUserId: link.careUserId, label: assigneeLabel({ name: me?.name ?? 'You', slackUserId: actor.userId }) } : undefined;
    const now = deps.now();
    const read = where.task && where.dueFromTask ? readDuePhrase(where.task, now, tz) : { task: where.task ?? '' };
    // Longer than the form holds: the form shows the first 3,000 and says so; saving them unchanged is refused.
    const fitted = fitTask(read.task);
    const initial: ActionFormInitial = {
      ...(fitted.task ? { task: fitted.task } : {}),
      dueDate: read.date ?? localParts(now, tz).date,
      ...(read.time ? { dueTime: read.time } : {}),
      ...(assignee ? { assignee } : {}),
      // A time read that has passed is kept as typed, and said at once (saving it is refused with the time now).
      ...('past' in read && read.past ? { dueNotice: passedNotice(read.phrase ?? '', now, tz) } : {}),
    };
    const unread = 'unread' in read ? read.unread : undefined;
    const meta: ActionModalMeta = {
      mode: 'create' as const,
      tz,
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(where.threadTs ? { threadTs: where.threadTs } : {}),
      ...(fitted.cut ? { taskCut: fitted.cut } : {}),
      ...(where.readAsNew || unread?.length
        ? { typed: { ...(where.readAsNew ? { asNew: firstWordOf(where.task ?? '') } : {}), ...(unread?.length ? { unread: fitUnread(unread) } : {}) } }
        : {}),
    };
    const sealed = deps.signedMetadata.encode(meta, { ...actor, form: CallbackIds.actionModal });
    return actionModal(meta, sealed, initial);
  });
}
