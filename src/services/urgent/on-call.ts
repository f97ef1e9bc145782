/**
 * Who's on now (`/care oncall`, and a section of the Home tab): the shift on
 * (time/shifts.ts, in the home's zone), the seniors named for it and the
 * managers' channel (the escalation ladder's settings), and each open urgent
 * action the app alerted whose episode is still running, with who is on it.
 *
 * "On it" is a list per action (`onIt`): by default its assignee when the
 * action counts as taken in this episode (escalation-ladder.ts isTaken);
 * another part of the app may give more ("I'm on it" answers) through
 * `answers`. An action nobody is on says how long it has gone unanswered.
 *
 * What it reads is the person's own private view: a linked person only (care
 * data), and a safeguarding action only for those told about safeguarding
 * (its officers, or the admins when none are named).
 */
import type { CareClient } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import { rememberedAssignment } from '../notices/assignment-notices.js';
import { isTaken } from './escalation-ladder.js';
import { escalationOf } from './escalation-settings.js';
import { parseProgress, progressCursor } from './escalation-steps.js';
import type { HomeShifts, ShiftsNow } from '../shift-work/home-shifts.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { isSafeguarding, safeguardingAudience, safeguardingOf } from './safeguarding.js';
import { episodeCursor, parseUrgency } from './urgent-alerts.js';

/** Someone on an urgent action: a display name (a Slack mention when `slackUserId`), since when. */
export interface OnIt {
  name: string;
  slackUserId?: string;
  since: Date;
}

/** One open urgent action on the on-call view. */
export interface OnCallAction {
  view: ActionView;
  /** When its urgent episode began (the care system's time of the change that made it urgent). */
  began: Date;
  /** Who is on it (empty: nobody yet). */
  onIt: OnIt[];
}

export interface OnCallNow {
  shifts: ShiftsNow;
  /** Slack user ids named as seniors for the shift on. */
  seniors: string[];
  managersChannel?: string;
  /** Open urgent actions, newest episode first (at most MAX_SHOWN). */
  actions: OnCallAction[];
  /** Open urgent actions not shown (beyond MAX_SHOWN). */
  more: number;
}

export interface OnCall {
  /** The on-call view for a linked person (requireLink: it reads care data). */
  now(actor: Actor): Promise<OnCallNow>;
}

/** How many urgent alerts are looked at, and how many actions are shown. */
const RECENT_ALERTS = 500;
export const MAX_SHOWN = 20;
/** How many open urgent actions one read looks at (beyond MAX_SHOWN: counted as more). */
const MAX_READ = 60;

/** More "on it" answers for an action in its episode (another part of the app feeds it; default: none). */
export type OnItAnswers = (actionId: string, episode: string) => Promise<OnIt[]>;

/** How long one read of the open urgent actions is shared (every Home tab of a shift change: one read). */
const SHARED_FOR_MS = 5_000;

interface Shared {
  at: number;
  version: number | null;
  read: Promise<{ action: OnCallAction; safeguarding: boolean }[]>;
}

export function createOnCall(deps: {
  store: WorkspaceStore;
  care: CareClient;
  identity: IdentityService;
  shifts: HomeShifts;
  answers?: OnItAnswers;
  /** The workspace (whose links name the assignees). */
  teamId: () => Promise<string>;
  now: () => Date;
  /** The read cache's version of the care data (a change known to this instance starts a new read). */
  version?: () => number | null;
}): OnCall {
  const { store } = deps;
  let shared: Shared | undefined;

  /** The running episodes the app alerted, newest first: action and occurrence. */
  async function runningEpisodes(): Promise<{ actionId: string; occurrence: string }[]> {
    const rows = await store.listDeliveries({ kind: 'urgent', state: 'sent', order: 'desc', limit: RECENT_ALERTS });
    const seen = new Set<string>();
    const out: { actionId: string; occurrence: string }[] = [];
    for (const r of rows) {
      if (seen.has(r.actionId)) continue;
      seen.add(r.actionId);
      const urgency = parseUrgency(await store.getCursor(episodeCursor(r.actionId)));
      if (urgency?.since !== r.occurrence || urgency.quiet) continue;
      const progress = parseProgress(await store.getCursor(progressCursor(r.actionId)));
      // Completed, no longer urgent or gone ends it; taken does not (it is still open: someone is on it).
      if (progress?.occurrence === r.occurrence && progress.stopped && progress.stopped !== 'taken') continue;
      out.push({ actionId: r.actionId, occurrence: r.occurrence });
    }
    return out;
  }

  /** Every open urgent action of a running episode (at most MAX_SHOWN + the rest counted), whoever asks. */
  async function readAll(): Promise<{ action: OnCallAction; safeguarding: boolean }[]> {
    const safeguardingSettings = await safeguardingOf(store);
    const out: { action: OnCallAction; safeguarding: boolean }[] = [];
    for (const episode of await runningEpisodes()) {
      const action = await deps.care.actions.retrieve(episode.actionId, { attributes: [...ACTION_ATTRIBUTES] }).catch(() => null);
      if (!action || action.completed || !action.urgent) continue;
      const began = parseApiDateTime(episode.occurrence) ?? new Date(0);
      const [view] = await toActionViews([action], deps.identity);
      const remembered = await rememberedAssignment(store, action._id);
      const since = remembered ? (parseApiDateTime(remembered.since) ?? began) : began;
      const taken = isTaken(action.assigned_to ?? null, remembered ? { to: remembered.to, since: since.getTime() } : null, began.getTime());
      const assignee = view!.assignee;
      const onIt: OnIt[] =
        taken && assignee
          ? [
              {
                name: assignee.slackName ?? assignee.name ?? 'someone',
                ...(assignee.slackUserId ? { slackUserId: assignee.slackUserId } : {}),
                since: remembered?.to === action.assigned_to ? since : began,
              },
            ]
          : [];
      const answers = deps.answers ? await deps.answers(action._id, episode.occurrence).catch(() => []) : [];
      const named = new Set(onIt.map((o) => o.slackUserId ?? o.name));
      out.push({
        action: { view: view!, began, onIt: [...onIt, ...answers.filter((a) => !named.has(a.slackUserId ?? a.name))] },
        safeguarding: isSafeguarding(action, safeguardingSettings),
      });
      if (out.length >= MAX_READ) break;
    }
    return out;
  }

  /** One read shared by everyone asking within a few seconds while the care data this instance knows is unchanged. */
  function sharedRead(): Shared['read'] {
    const now = deps.now().getTime();
    const version = deps.version?.() ?? null;
    if (shared && shared.version === version && now - shared.at >= 0 && now - shared.at < SHARED_FOR_MS) return shared.read;
    const read = readAll();
    shared = { at: now, version, read };
    read.catch(() => {
      if (shared?.read === read) shared = undefined;
    });
    return read;
  }

  return {
    async now(actor) {
      await deps.identity.requireLink(actor);
      const [shifts, settings, safeguardingSettings, all] = await Promise.all([deps.shifts.now(), escalationOf(store), safeguardingOf(store), sharedRead()]);
      // A safeguarding action only for those told about safeguarding (its officers, or the admins when none are named).
      const toldOfSafeguarding = safeguardingAudience(safeguardingSettings, deps.identity.adminIds()).includes(actor.userId);
      const visible = all.filter((a) => !a.safeguarding || toldOfSafeguarding).map((a) => a.action);
      return {
        shifts,
        seniors: settings.seniors[shifts.current.shift.name] ?? [],
        ...(settings.managersChannel ? { managersChannel: settings.managersChannel } : {}),
        actions: visible.slice(0, MAX_SHOWN),
        more: Math.max(0, visible.length - MAX_SHOWN),
      };
    },
  };
}
