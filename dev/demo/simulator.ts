/**
 * The playground's "Simulate" panel in the demo: things that happen in the
 * care system, outside Slack. Each one acts through the sandbox's controls
 * (the care system's own web app, its clock) and then runs the app's job that
 * would notice it, so the result shows at once instead of within a minute.
 */
import type { ComposedApp } from '../../src/compose.js';
import type { Logger } from '../../src/logging/logger.js';
import type { PlaygroundResult, PlaygroundSimulator, SimulatableAction } from '../playground/backend.js';
import { type Subscription, workspaceKey } from '../../src/store/index.js';
import type { Shift } from '../../src/time/shifts.js';
import { nextStart } from '../../src/time/start-time.js';
import { type EscalationProgress, parseProgress, progressCursor } from '../../src/services/urgent/escalation-steps.js';
import type { DemoClock } from './clock.js';
import { SandboxControlError, type SandboxControls } from './sandbox-controls.js';

export interface DemoSimulatorOptions {
  app: ComposedApp;
  controls: SandboxControls;
  clock: DemoClock;
  teamId: string;
  /** The channel whose digest "advance to the next digest" aims at (others due at the same time go too). */
  digestChannelId: string;
  /** The clock moved: the page should redraw. */
  changed: () => void;
  logger: Logger;
  /** How many recently changed actions the panel offers (default 30). */
  listSize?: number;
}

const ok = (message: string): PlaygroundResult => ({ ok: true, message });
/** "Advance 15 minutes": how far the clock moves. */
const ADVANCE_MS = 15 * 60_000;
const STEP_WORDS: Record<string, string> = {
  thread: 'a reminder in the alert’s thread',
  seniors: 'DMs to the seniors on shift',
  managers: 'a post in the managers’ channel',
};
const refused = (message: string): PlaygroundResult => ({ ok: false, message });
const OBJECT_ID = /^[0-9a-f]{24}$/i;

export function createDemoSimulator(o: DemoSimulatorOptions): PlaygroundSimulator {
  const idsByNo = new Map<string, string>();

  /** An action's Id from its number (or Id); undefined when the care system has no such action. */
  async function resolve(key: string | number): Promise<string | undefined> {
    const text = String(key).trim().replace(/^#/, '');
    if (OBJECT_ID.test(text)) return text;
    const known = idsByNo.get(text);
    if (known) return known;
    if (!/^\d+$/.test(text)) return undefined;
    const page = await o.app.care.actions.list({ filters: { q: text }, attributes: ['_id', 'action_no'], per_page: 100 });
    const hit = page.items.find((a) => String(a.action_no) === text);
    if (hit) idsByNo.set(text, hit._id);
    return hit?._id;
  }

  /** The escalation ladder of each open urgent action (or of `ids`), as the app remembers it now. */
  async function laddersNow(ids?: string[]): Promise<Map<string, EscalationProgress | null>> {
    const open =
      ids ?? (await o.app.care.actions.list({ filters: { completed: 'no', urgent: 'yes' }, attributes: ['_id'], per_page: 100 })).items.map((a) => a._id);
    const read = await Promise.all(
      open.map(async (id) => [id, parseProgress(await o.app.store.getCursor(workspaceKey(progressCursor(id), o.app.teamId)))] as const),
    );
    return new Map(read);
  }

  /** Runs the changes poll now (what the app would do within a minute). */
  async function poll(): Promise<string> {
    const run = await o.app.jobs.runOnce('changes-poll');
    const report = run.result as { error?: string } | undefined;
    if (!run.ran) return 'the app will notice within a minute';
    if (report?.error) return 'the app could not poll the care API just now; it will try again within a minute';
    return 'the app has polled the care API';
  }

  const label = (a: { action_no?: unknown; _id: string }) => (a.action_no ? `#${String(a.action_no)}` : a._id);

  /** "#12" for an action Id (its Id when the care system cannot say). */
  async function numberOf(id: string): Promise<string> {
    for (const [no, known] of idsByNo) if (known === id) return `#${no}`;
    const a = await o.controls.getAction(id).catch(() => null);
    return a ? label(a) : id;
  }

  return {
    async completeActionInWebApp(key) {
      const id = await resolve(key);
      if (!id) return refused(`The care system has no action ${String(key)}.`);
      try {
        const before = await o.controls.getAction(id);
        if (before.completed) return refused(`${label(before)} is already completed.`);
        const after = await o.controls.completeAction(id);
        return ok(`${label(after)} completed in the care web app; ${await poll()}.`);
      } catch (err) {
        if (err instanceof SandboxControlError) return refused(err.message);
        throw err;
      }
    },

    async markActionUrgent(key) {
      const id = await resolve(key);
      if (!id) return refused(`The care system has no action ${String(key)}.`);
      try {
        const before = await o.controls.getAction(id);
        if (before.completed) return refused(`${label(before)} is completed; only open actions raise urgent alerts.`);
        if (before.urgent) return refused(`${label(before)} is already urgent.`);
        const after = await o.controls.updateAction(id, { urgent: true });
        return ok(`${label(after)} marked urgent in the care web app; ${await poll()}.`);
      } catch (err) {
        if (err instanceof SandboxControlError) return refused(err.message);
        throw err;
      }
    },

    async advanceClockToNextDigest() {
      const subs = await o.app.store.listSubscriptions(o.teamId);
      if (subs.length === 0) return refused('No channel has a digest. An admin can set one up with `/care digest here`.');
      const { shifts } = await o.app.deps.shifts.now();
      const chosen = subs.find((s) => s.channelId === o.digestChannelId && nextOf(s, shifts, o.clock.now()));
      const target = chosen ?? earliest(subs, shifts, o.clock.now());
      const next = target && nextOf(target, shifts, o.clock.now());
      if (!target || !next) return refused('No digest has a next time: a digest set at a shift’s start names a shift there is no longer.');
      // The care system's clock first (it stamps changes), then the app's.
      await o.controls.setClock(next);
      if (next.getTime() > o.clock.nowMs()) o.clock.jumpTo(next);
      o.changed();
      const run = await o.app.jobs.runOnce('digests');
      const report = run.result as { channels?: number; error?: string } | undefined;
      const when = new Intl.DateTimeFormat('en-GB', {
        timeZone: target.timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(next);
      if (!run.ran) return ok(`Clock moved to ${when} (${target.timeZone}); the digests will go out within a minute.`);
      if (report?.error) return refused(`Clock moved to ${when}, but the digest run failed: ${report.error}`);
      const n = report?.channels ?? 0;
      return ok(`Clock moved to ${when} (${target.timeZone}); ${n} digest${n === 1 ? '' : 's'} posted.`);
    },

    async advanceClockToNextShift() {
      // The demo workspace's shifts (`/care shifts`), on the app's clock.
      const { next, timezone } = await o.app.deps.shifts.now();
      await o.controls.setClock(next.startsAt);
      if (next.startsAt.getTime() > o.clock.nowMs()) o.clock.jumpTo(next.startsAt);
      o.changed();
      // What a shift change brings: digests and summaries set for shift start go out now, not within a minute.
      const digests = await o.app.jobs.runOnce('digests');
      await o.app.jobs.runOnce('summaries');
      const when = new Intl.DateTimeFormat('en-GB', {
        timeZone: timezone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(next.startsAt);
      const n = (digests.result as { channels?: number } | undefined)?.channels ?? 0;
      return ok(`Clock moved to ${when} (${timezone}): the ${next.shift.name} shift begins${n ? `; ${n} digest${n === 1 ? '' : 's'} posted` : ''}.`);
    },

    async advanceClock15Minutes() {
      const next = new Date(o.clock.nowMs() + ADVANCE_MS);
      // The ladders as they stand: the scheduler's own tick may run a step between the jump and the run below,
      // so what this advance did is read from the ladders after it, not from one run's report.
      const before = await laddersNow();
      // The care system's clock first (it stamps changes), then the app's (and the Slack fake's, which follows it).
      await o.controls.setClock(next);
      o.clock.jumpTo(next);
      o.changed();
      // What would run within the next minute runs now: the poll first (it ends episodes), then the ladder.
      await o.app.jobs.runOnce('changes-poll');
      const run = await o.app.jobs.runOnce('escalations');
      for (const job of ['digests', 'summaries', 'handovers']) await o.app.jobs.runOnce(job);
      o.changed();
      const { timezone } = await o.app.deps.shifts.now();
      const when = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(next);
      const report = run.result as { error?: string } | undefined;
      if (report?.error) return refused(`Clock moved to ${when}, but the escalation run failed: ${report.error}`);
      const steps = stepsSince(before, await laddersNow([...before.keys()]));
      if (!steps.length && !run.ran) return ok(`Clock moved 15 minutes on, to ${when} (${timezone}); escalation steps due will follow within a minute.`);
      if (!steps.length) return ok(`Clock moved 15 minutes on, to ${when} (${timezone}); no escalation step was due.`);
      const said = await Promise.all(
        steps.map(
          async (x) =>
            `${STEP_WORDS[x.step] ?? x.step}${x.repeat ? ` again (${x.repeat})` : ''}${x.skipped ? ' (skipped: nobody to tell)' : ''} for ${await numberOf(x.actionId)}`,
        ),
      );
      return ok(`Clock moved 15 minutes on, to ${when} (${timezone}). Escalated: ${said.join('; ')}.`);
    },

    async listSimulatableActions(): Promise<SimulatableAction[]> {
      const page = await o.app.care.actions.list({
        sort_by: ['-modified'],
        per_page: o.listSize ?? 30,
        attributes: ['_id', 'action_no', 'task', 'completed', 'urgent'],
      });
      return page.items.map((a) => {
        if (a.action_no) idsByNo.set(String(a.action_no), a._id);
        const title = (a.task ?? '').replace(/\s+/g, ' ').trim();
        return {
          id: a._id,
          ...(a.action_no ? { no: Number(a.action_no) } : {}),
          title: title.length > 70 ? `${title.slice(0, 69)}…` : title,
          completed: Boolean(a.completed),
          urgent: Boolean(a.urgent),
        };
      });
    },
  };
}

/** A digest's next time (a clock time or a shift start); null when it has none. */
function nextOf(s: Subscription, shifts: readonly Shift[], now: Date): Date | null {
  return nextStart({ time: s.time, days: s.days, timezone: s.timeZone, shifts }, now)?.at ?? null;
}

/** The subscription whose next digest comes first (undefined: none has a next one). */
function earliest(subs: Subscription[], shifts: readonly Shift[], now: Date): Subscription | undefined {
  const at = (s: Subscription) => nextOf(s, shifts, now)?.getTime() ?? Infinity;
  const first = subs.reduce((a, b) => (at(b) < at(a) ? b : a));
  return at(first) === Infinity ? undefined : first;
}

/** The steps done between two readings of the ladders (a new episode's steps all count). */
export function stepsSince(
  before: ReadonlyMap<string, EscalationProgress | null>,
  after: ReadonlyMap<string, EscalationProgress | null>,
): { actionId: string; step: string; repeat?: number; skipped?: string }[] {
  const steps: { actionId: string; step: string; repeat?: number; skipped?: string }[] = [];
  for (const [actionId, now] of after) {
    if (!now) continue;
    const then = before.get(actionId);
    const seen = then && then.occurrence === now.occurrence ? then.done.length : 0;
    for (const d of now.done.slice(seen))
      steps.push({ actionId, step: d.step, ...(d.repeat ? { repeat: d.repeat } : {}), ...(d.skipped ? { skipped: d.skipped } : {}) });
  }
  return steps;
}
