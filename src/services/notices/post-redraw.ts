/**
 * Every post follows its action (issue 32): the delivery ledger knows each post and DM the app sent about an
 * action (its sent rows carry the channel and ts); when the action changes — through Slack (at once, after the
 * write) or in the care system (seen by the changes poll) — each live post of a kind in the redraw table
 * (redraw-kinds.ts) is edited to read as the action is now: a completed alert says so, by whom and when, without
 * Take it; an escalation post follows its alert.
 *
 * Exactly once per change across instances: each redraw is a ledger row of its own (kind `redraw`, occurrence
 * `<channel>/<ts>@<the action's modified>`), claimed as deliveries are; a claim whose holder died goes stale and
 * is taken over (the taker first reads the post back where Slack allows it, and only records a post that
 * already reads right). A version older than one already drawn on a post is not drawn over it.
 * Every edit goes through the workspace's paced poster (chat.update is Tier 3): a 429 is waited out within the
 * claim's time, else handed back uncounted for the next poll's retry sweep. A post Slack no longer has (deleted,
 * archived channel, …) is marked failed for good and never tried again. Retention wins: a post that is (being)
 * edited down to its neutral line, or an action whose retention is already over, is never drawn again.
 */
import type { HistoryAccess } from './history-access.js';
import { createHash } from 'node:crypto';
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { Action, CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { Delivery, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';
import { toActionViews } from '../action-views.js';
import { rememberedAssignment } from './assignment-notices.js';
import type { ChannelPolicy } from '../channel-policy.js';
import { describeSlackError, type OutgoingMessage, unfinishedDeliveries } from './delivery.js';
import { answerLines, answersDigest, answersKnown, standingIn } from '../urgent/episode-answers.js';
import { lineOf, parseProgress, progressCursor } from '../urgent/escalation-steps.js';
import type { IdentityService } from '../people/identity.js';
import type { RedrawFacts, RedrawKind } from './redraw-kinds.js';
import type { AlertState, EscalationLine, MessageRenderers } from '../renderers.js';
import { GONE, redactCompletedBefore, redactionKey, type RetentionDays } from '../evidence/retention.js';

export const REDRAW_KIND = 'redraw';

/** The post a change was made from: its listener draws it there (with who did it, and Undo). */
export interface PostRef {
  channel: string;
  ts: string;
}

export interface RedrawReport {
  /** Posts edited by this call. */
  redrawn: number;
  /** Posts left for the retry sweep (another instance's fresh claim, Slack's rate limit, a passing error). */
  left: number;
  /** Posts Slack no longer has, dropped from the list by this call. */
  dropped: number;
}

export interface PostRedraw {
  /**
   * Draw every live post about this action as it is now (this version: its `modified`). `drawnAt`: the post
   * the change was made from, which its listener draws itself (recorded as drawn, not edited here).
   */
  follow(action: Action, options?: { drawnAt?: PostRef | undefined }): Promise<RedrawReport>;
  /** Redraws failed for a passing reason or left by an instance that died: the action read again and followed. */
  retryUnfinished(): Promise<number>;
}

/** The ledger key of one post's redraw to one version of its action. */
export function redrawKey(row: Pick<Delivery, 'actionId' | 'recipient' | 'slackChannel' | 'slackTs'>, version: string) {
  return { kind: REDRAW_KIND, actionId: row.actionId, occurrence: `${row.slackChannel}/${row.slackTs}@${version}`, recipient: row.recipient };
}

/** `<channel>/<ts>@<version>` -> its parts. */
function parseRedrawOccurrence(occurrence: string): { post: string; version: string } | null {
  const at = occurrence.indexOf('@');
  return at < 0 ? null : { post: occurrence.slice(0, at), version: occurrence.slice(at + 1) };
}

const timeOf = (v: string | null | undefined) => parseApiDateTime(v)?.getTime() ?? null;

/**
 * One version of an action: its `modified` (whole seconds) and a digest of what its posts show, so two changes
 * within one second are two versions. Pure.
 */
export function versionOf(action: Action, answers = ''): string {
  const shown: unknown[] = [action.completed ?? null, Boolean(action.urgent), action.assigned_to ?? null, action.due ?? null, action.task ?? null];
  // The answers to its urgent episodes (episode-answers.ts answersDigest): an "I'm on it" is a change its posts show.
  if (answers) shown.push(answers);
  return `${action.modified ?? action.completed ?? ''}#${createHash('sha256').update(JSON.stringify(shown)).digest('hex').slice(0, 12)}`;
}

/** The `modified` of a version (ms). */
const versionTime = (version: string) => timeOf(version.split('#')[0]);
/** What a post's drawing says when the post is to be deleted, not drawn. */
const REMOVE = Symbol('remove');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = 'redrawn' | 'done' | 'left' | 'dropped';

export function createPostRedraw(deps: {
  store: WorkspaceStore;
  care: Pick<CareClient, 'actions'>;
  identity: IdentityService;
  channels: Pick<ChannelPolicy, 'showTasksIn'>;
  kinds: Readonly<Record<string, RedrawKind>>;
  render: Pick<MessageRenderers, 'redacted'>;
  /** Edits with this client: no retries of its own, paced. */
  poster: WebClient;
  /** Reads a post back (a claim taken over) with this one, where `readPosts` allows. */
  slack: WebClient;
  /** False for an app Slack allows one history read a minute: a claim taken over is drawn again without a look. */
  readPosts: boolean;
  /** Whether the workspace granted the history scopes (without them a post is drawn again, never read). */
  history?: HistoryAccess | undefined;
  teamId: () => Promise<string>;
  /** The home's zone (fallback times in the posts' text). */
  timezone: string;
  retentionDays: RetentionDays;
  holder: string;
  staleAfterMs: number;
  now: () => Date;
  locationNames?: ((ids: string[]) => Promise<Map<string, string>>) | undefined;
  /** Whether an action must be in no channel (a safeguarding concern): its channel posts are deleted, not redrawn. */
  keepOutOfChannels?: ((action: Action) => Promise<boolean>) | undefined;
  logger: Logger;
}): PostRedraw {
  const { store, logger } = deps;
  const budgetMs = deps.staleAfterMs / 2;

  /** The live posts about an action, one per message (the oldest row naming it), of a kind the table draws. */
  async function postsAbout(actionId: string): Promise<Delivery[]> {
    const rows = await store.listDeliveries({ actionId, state: 'sent', limit: 1000 });
    const posts = new Map<string, Delivery>();
    for (const row of rows) {
      if (!deps.kinds[row.kind] || !row.slackChannel || !row.slackTs) continue;
      const at = `${row.slackChannel}/${row.slackTs}`;
      if (!posts.has(at)) posts.set(at, row);
    }
    return [...posts.values()];
  }

  /** Per post: the newest version drawn (or being drawn), and whether Slack no longer has it. */
  async function drawnSoFar(actionId: string): Promise<Map<string, { newest: number; gone: boolean }>> {
    const out = new Map<string, { newest: number; gone: boolean }>();
    for (const state of ['sent', 'pending', 'failed'] as const) {
      for (const row of await store.listDeliveries({ kind: REDRAW_KIND, actionId, state, limit: 1000 })) {
        const of = parseRedrawOccurrence(row.occurrence);
        if (!of) continue;
        const seen = out.get(of.post) ?? { newest: Number.NEGATIVE_INFINITY, gone: false };
        if (state !== 'failed' || row.retryable) seen.newest = Math.max(seen.newest, versionTime(of.version) ?? Number.NEGATIVE_INFINITY);
        if (state === 'failed' && !row.retryable && GONE.has(row.lastError ?? '')) seen.gone = true;
        out.set(of.post, seen);
      }
    }
    return out;
  }

  async function factsOf(action: Action): Promise<RedrawFacts> {
    const team = await deps.teamId();
    const [progress, remembered, audit, location, known] = await Promise.all([
      store.getCursor(progressCursor(action._id)).then(parseProgress),
      rememberedAssignment(store, action._id),
      store.listAudit({ actionId: action._id, limit: 1000 }).then((rows) => rows.filter((e) => e.teamId === team)),
      action.location && deps.locationNames
        ? deps
            .locationNames([action.location])
            .then((m) => m.get(action.location!) ?? null)
            .catch(() => null)
        : Promise.resolve(null),
      answersKnown({ store, identity: deps.identity }, action),
    ]);
    const state = (episode: string): AlertState => {
      if (action.completed) return 'completed';
      if (!action.urgent) return 'not-urgent';
      // Answered: taken (one person, by an assignment), or on it (someone said so; two staff answered).
      const standing = standingIn(known, episode);
      if (!standing.answered) return 'open';
      return standing.taker && !standing.twoStaff ? 'taken' : 'on-it';
    };
    const escalationLines = (episode: string): EscalationLine[] => (progress?.occurrence === episode ? progress.done.map(lineOf) : []);
    const answers = (episode: string) => standingIn(known, episode).shown;
    const answer = (id: number) => {
      const found = known.answers.find((a) => a.id === id);
      return found ? { line: answerLines([found])[0]!, undoneAt: found.undoneAt } : null;
    };
    return { state, escalationLines, answers, answer, location, assignment: remembered, audit };
  }

  /** Does the post already read `text` (an edit whose holder died before recording it)? */
  async function alreadyReads(channel: string, ts: string, text: string): Promise<boolean> {
    if (!deps.readPosts) return false;
    try {
      if (deps.history && !(await deps.history.readable())) return false;
      const res = await deps.slack.conversations.history({ channel, latest: ts, oldest: ts, inclusive: true, limit: 1 });
      return (res.messages ?? []).find((m) => m.ts === ts)?.text === text;
    } catch (err) {
      logger.debug('could not read a post back before drawing it again', { error: describeSlackError(err) });
      return false;
    }
  }

  /** A post retention has edited down (or is editing): never drawn back. */
  const redacted = async (row: Delivery) => (await store.getDelivery(redactionKey(row))) !== null;

  async function update(channel: string, ts: string, message: OutgoingMessage): Promise<void> {
    await deps.poster.chat.update({ channel, ts, text: message.text, blocks: message.blocks ?? [] });
  }

  async function drawOne(row: Delivery, version: string, actionNo: string, message: () => Promise<OutgoingMessage | typeof REMOVE | null>): Promise<Outcome> {
    const channel = row.slackChannel!;
    const ts = row.slackTs!;
    const claim = await store.claimDelivery(redrawKey(row, version), { holder: deps.holder, staleAfterMs: deps.staleAfterMs });
    if (claim.outcome === 'sent' || claim.outcome === 'failed') return 'done';
    if (claim.outcome === 'busy') return 'left';
    const id = claim.delivery.id;
    const drawn = await message();
    if (drawn === REMOVE) return removeOne(row, id);
    if (!drawn || (await redacted(row))) {
      await store.markSent(id, { channel, ts });
      return 'done';
    }
    if (claim.outcome === 'reclaimed' && (await alreadyReads(channel, ts, drawn.text))) {
      await store.markSent(id, { channel, ts });
      return 'done';
    }
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await update(channel, ts, drawn);
        await store.markSent(id, { channel, ts });
        // Retention began on this post meanwhile: its neutral line is put back (the same words it writes).
        if (await redacted(row)) await update(channel, ts, deps.render.redacted({ actionId: row.actionId, actionNo })).catch(() => undefined);
        return 'redrawn';
      } catch (err) {
        const code = describeSlackError(err);
        if (GONE.has(code)) {
          // Deleted, archived, or the app is out of the channel: dropped from the list, the reason kept.
          await store.markFailed(id, code, { retryable: false, holder: deps.holder });
          logger.info('a post about an action is gone from Slack; it is no longer redrawn', { actionId: row.actionId, channel, reason: code });
          return 'dropped';
        }
        const e = err as { code?: string; retryAfter?: number };
        const limited = e.code === ErrorCode.RateLimitedError || code === 'ratelimited';
        const wait = limited ? Math.max(1, e.retryAfter ?? 1) * 1000 : Math.min(5000, 250 * 2 ** (attempt - 1));
        if (performance.now() - started + wait >= budgetMs || (!limited && attempt >= 4)) {
          // Handed back for the retry sweep (a 429 is not counted against its attempts).
          await store.markFailed(id, code, { retryable: true, holder: deps.holder, ...(limited ? { countAttempt: false } : {}) });
          return 'left';
        }
        await sleep(wait);
      }
    }
  }

  /** A channel post about an action that must be in no channel: deleted once (a post already gone is done). */
  async function removeOne(row: Delivery, id: number): Promise<Outcome> {
    const channel = row.slackChannel!;
    const ts = row.slackTs!;
    try {
      await deps.poster.chat.delete({ channel, ts });
    } catch (err) {
      const code = describeSlackError(err);
      if (!GONE.has(code)) {
        await store.markFailed(id, code, { retryable: true, holder: deps.holder });
        return 'left';
      }
    }
    await store.markSent(id, { channel, ts });
    logger.info('a channel post about an action kept out of channels was deleted', { actionId: row.actionId, channel });
    return 'dropped';
  }

  const redraw: PostRedraw = {
    async follow(action, options = {}) {
      const report: RedrawReport = { redrawn: 0, left: 0, dropped: 0 };
      const posts = await postsAbout(action._id);
      if (!posts.length) return report;
      // Retention's neutral line wins: an action whose retention is already over is left to it.
      const completed = timeOf(action.completed);
      const before = redactCompletedBefore(deps.retentionDays, deps.now());
      if (completed !== null && before !== null && completed <= before) return report;
      const answered = answersDigest(await store.listEpisodeAnswers(action._id));
      const version = versionOf(action, answered);
      const versionAt = versionTime(version) ?? Number.NEGATIVE_INFINITY;
      // Still the urgent, open action an alert was drawn from, nobody having answered it (within the second it
      // was posted, nothing else is news to it).
      const asAlerted = Boolean(action.urgent) && !action.completed && !answered;
      const drawn = await drawnSoFar(action._id);
      // A safeguarding concern is in no channel: its channel posts go (its DMs still follow it).
      const outOfChannels = (await deps.keepOutOfChannels?.(action)) ?? false;
      let view: Awaited<ReturnType<typeof toActionViews>>[number] | undefined;
      let facts: RedrawFacts | undefined;
      for (const row of posts) {
        const kind = deps.kinds[row.kind]!;
        const at = `${row.slackChannel}/${row.slackTs}`;
        const so = drawn.get(at);
        if (so?.gone) continue;
        if (so && so.newest > versionAt) continue; // a newer version is drawn there already
        const sentVersion = kind.sentVersion?.(row);
        const sentAt = sentVersion ? (timeOf(sentVersion) ?? Number.NEGATIVE_INFINITY) : null;
        if (sentAt !== null && (versionAt < sentAt || (versionAt === sentAt && asAlerted))) continue; // drawn so when posted
        const asOf = kind.sentAsOf?.(row) ?? null;
        if (asOf !== null && versionAt <= asOf) continue; // drawn from this version, or a later one, when posted
        if (options.drawnAt && options.drawnAt.channel === row.slackChannel && options.drawnAt.ts === row.slackTs) {
          const claim = await store.claimDelivery(redrawKey(row, version), { holder: deps.holder, staleAfterMs: deps.staleAfterMs });
          if (claim.outcome === 'claimed' || claim.outcome === 'reclaimed' || claim.outcome === 'failed-retry')
            await store.markSent(claim.delivery.id, { channel: row.slackChannel!, ts: row.slackTs! });
          continue;
        }
        const outcome = await drawOne(row, version, action.action_no ?? '', async () => {
          if (outOfChannels && kind.shared(row)) return REMOVE;
          view ??= (await toActionViews([action], deps.identity, { store, teamId: deps.teamId }))[0]!;
          facts ??= await factsOf(action);
          const shared = kind.shared(row);
          const showTask = shared ? await deps.channels.showTasksIn(row.slackChannel!) : true;
          return kind.render({ view, row, ctx: { now: deps.now(), timezone: deps.timezone, showTask, shared }, facts });
        });
        if (outcome === 'redrawn') report.redrawn++;
        if (outcome === 'left') report.left++;
        if (outcome === 'dropped') report.dropped++;
      }
      return report;
    },

    async retryUnfinished() {
      const todo = await unfinishedDeliveries(store, REDRAW_KIND, { staleAfterMs: deps.staleAfterMs, limit: 200 });
      const byAction = new Map<string, Delivery[]>();
      for (const row of todo) byAction.set(row.actionId, [...(byAction.get(row.actionId) ?? []), row]);
      for (const [actionId, rows] of byAction) {
        let action: Action;
        try {
          action = await deps.care.actions.retrieve(actionId, { attributes: [...ACTION_ATTRIBUTES] });
        } catch (err) {
          logger.warn('could not read an action to draw its posts again; trying again next poll', { actionId, error: err });
          continue;
        }
        const version = versionOf(action, answersDigest(await store.listEpisodeAnswers(action._id)));
        // Rows of an older version are settled: the action as it is now is what gets drawn.
        for (const row of rows) {
          if (parseRedrawOccurrence(row.occurrence)?.version === version) continue;
          const claim = await store.claimDelivery(row, { holder: deps.holder, staleAfterMs: deps.staleAfterMs });
          if (claim.outcome === 'claimed' || claim.outcome === 'reclaimed' || claim.outcome === 'failed-retry')
            await store.markFailed(claim.delivery.id, 'superseded by a newer version of the action', { retryable: false, holder: deps.holder });
        }
        await redraw.follow(action).catch((err) => logger.warn('drawing posts again failed; trying again next poll', { actionId, error: err }));
      }
      return byAction.size;
    },
  };
  return redraw;
}
