/**
 * Who was on each two-person action in the evidence file (issue 33): an action needs two staff when the app marks
 * it so or it carries one of the home's two-staff tags. Its staff are those of its latest urgent episode (the one
 * its last alert was about), counted as its posts count them (episode-answers.ts standingIn): whoever took it, then
 * each "I'm on it" and "Join" still standing, the same person once. Read in bulk where the store allows.
 */
import type { EpisodeAnswer, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { needsTwoStaff, readTwoStaffTags, staffNeeded, TWO_STAFF_SETTING } from '../urgent/answer-policy.js';
import { rememberedAssignment } from '../notices/assignment-notices.js';
import { type AnswersKnown, standingIn } from '../urgent/episode-answers.js';
import type { IdentityService } from '../people/identity.js';
import type { EvidenceAction } from './evidence-rows.js';

/** One two-person action's staff: Slack users (`care:<id>` for an assignee not linked), the taker first. */
export interface StaffOn {
  staff: string[];
  needed: number;
}

/** The latest of an action's urgent episodes (their `modified` at start), or null. Pure. */
export function latestEpisode(episodes: Iterable<string>): string | null {
  let latest: string | null = null;
  let at = Number.NEGATIVE_INFINITY;
  for (const e of episodes) {
    const t = parseApiDateTime(e)?.getTime() ?? Number.NEGATIVE_INFINITY;
    if (latest === null || t > at) [latest, at] = [e, t];
  }
  return latest;
}

export async function staffOnTwoPersonActions(
  deps: {
    store: Pick<WorkspaceStore, 'twoStaffMarked' | 'getHomeSetting' | 'listDeliveries' | 'getCursor'>;
    identity: Pick<IdentityService, 'slackUserFor'>;
  },
  actions: readonly Pick<EvidenceAction, 'id' | 'assignedTo' | 'userTags'>[],
  answersOf: ReadonlyMap<string, EpisodeAnswer[]>,
): Promise<Map<string, StaffOn>> {
  const out = new Map<string, StaffOn>();
  if (!actions.length) return out;
  const [marked, tagsSetting] = await Promise.all([deps.store.twoStaffMarked(actions.map((a) => a.id)), deps.store.getHomeSetting(TWO_STAFF_SETTING)]);
  const tags = readTwoStaffTags(tagsSetting?.value);
  for (const a of actions) {
    if (!needsTwoStaff(marked.has(a.id), a.userTags, tags)) continue;
    const needed = staffNeeded(true);
    const answers = answersOf.get(a.id) ?? [];
    const alerts = await deps.store.listDeliveries({ kind: 'urgent', actionId: a.id, state: 'sent', limit: 50 });
    const episode = latestEpisode([...answers.map((x) => x.episode), ...alerts.map((d) => d.occurrence)]);
    if (!episode) {
      out.set(a.id, { staff: [], needed });
      continue;
    }
    const remembered = await rememberedAssignment(deps.store, a.id);
    const assigneeKey = a.assignedTo ? ((await deps.identity.slackUserFor(a.assignedTo).catch(() => null)) ?? `care:${a.assignedTo}`) : null;
    const known: AnswersKnown = {
      answers,
      twoStaff: true,
      assignee: a.assignedTo,
      assigneeKey,
      remembered: remembered ? { to: remembered.to, since: parseApiDateTime(remembered.since)?.getTime() ?? 0 } : null,
    };
    out.set(a.id, { staff: standingIn(known, episode).shown.staff, needed });
  }
  return out;
}
