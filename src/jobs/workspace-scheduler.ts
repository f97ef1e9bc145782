/**
 * The one scheduler, for a deployment of one workspace or many (a single
 * workspace is a list of one). Jobs per workspace: each kind (digests, changes poll, …) runs on its schedule
 * for every connected workspace, under a lease per kind and workspace
 * (`digests@T123`) so instances share the work. A tick runs its workspaces
 * through a pool of `concurrency` slots: a slow or hung workspace holds one
 * slot, never the others. A workspace whose runs fail is backed off (per kind,
 * doubling waits) and its trouble is told once per episode, across instances
 * (trouble-book.ts).
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from '../logging/logger.js';
import { type Store, workspaceKey } from '../store/index.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import { withLease, withStopSignal } from './leased-run.js';
import type { JobsObserver } from './observer.js';
import type { Job, JobKind } from './job.js';
import type { JobTable } from './job-table.js';
import { createTickDriver } from './tick-driver.js';
import { createTroubleBook } from './trouble-book.js';
import { troubleReason } from './trouble-reason.js';
import { backedOffUntil, type WorkspaceTrouble } from './workspace-trouble.js';
import { nextDueOf } from './next-due.js';

export interface WorkspaceSchedulerOptions {
  store: Store;
  holder: string;
  logger: Logger;
  kinds: JobKind[];
  /** The workspaces to run for now (connected ones), asked at every tick. */
  workspaces(): Promise<string[]>;
  /**
   * The workspaces a tick of a `local` kind (work of this instance alone) runs for: those composed here, known
   * without asking the store. Absent: `workspaces`, as for every kind. (With many workspaces the listing of all of
   * them was a third of an idle instance's listings: the read-cache sync ticks just after every poll.)
   */
  localWorkspaces?(): string[];
  /**
   * The jobs of the workspaces composed on this instance (job-table.ts): a run finds its job there first and
   * asks `jobFor` only on a miss. Without it, every run asks `jobFor`.
   */
  jobTable?: Pick<JobTable, 'take'> | undefined;
  /** That workspace's job of this kind (asked on a miss of `jobTable`); null when the workspace is gone or not ready (skip it). */
  jobFor(teamId: string, kind: string): Promise<Job | null>;
  /** At most this many workspace runs at once per tick of a kind (default 8). */
  concurrency?: number;
  /** Lease length (default 60 s), renewed at a third of it while a run goes on. */
  leaseMs?: number;
  /** The app's clock, epoch ms (default Date.now): the ticks' timer and backoff bookkeeping. */
  now?: () => number;
  /** The tick timer's longest sleep before it reads the clock again (default 1 s). */
  tickMaxWaitMs?: number;
  /** After n failures in a row of a kind, that workspace's runs of it are skipped until min(base * 2^(n-1), max) has passed. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Told once per trouble episode (first failure after success), across instances; retried at the next failure until it succeeds. */
  onTrouble?(teamId: string, trouble: { since: number; failures: number; error: string; kind: string }): Promise<void>;
  /** Told when every kind that failed in a told episode has run well again. */
  onRecovered?(teamId: string, trouble: { since: number; failures: number }): Promise<void>;
  /** Leases and runs, labelled by kind (never by workspace: labels stay bounded). */
  observer?: JobsObserver | undefined;
  /**
   * Kinds marked `byDue` run only where due: one query a tick over all workspaces (job-due.ts) leaves out
   * those not due, so an idle workspace takes no lease and reads no cursor for them. Off: every kind runs
   * for every workspace each tick. Likewise a kind marked `sweepsDeliveries` is told, from one query a tick,
   * whether each workspace has any unfinished delivery (instead of each run asking for its own).
   */
  findDue?: boolean;
  /** The longest a `byDue` kind waits between runs of a workspace, whatever its run said (default 1 hour). */
  dueAtMostMs?: number;
  /**
   * Keep each lease after a run instead of giving it back, so a workspace's runs of a kind stay on the instance
   * that ran it last (its composed workspace is used there and let go elsewhere). Kept leases are renewed
   * together (one statement at a third of a lease's length), given back at stop, and run out a lease's length
   * after an instance dies. A run under a lease kept and renewed reads neither its slot nor, after a clean
   * run, its job trouble: no other instance ran that kind there meanwhile.
   */
  keepLeases?: boolean;
  /**
   * The clock the store judges leases by, epoch ms: whether a kept lease was renewed recently enough to be
   * surely still ours is measured on it (default `now`). A deployment passes the wall clock (the database's
   * time); a test that moves the store's clock passes that one.
   */
  leaseClock?: () => number;
}

export type WorkspaceRunSkip = 'leased' | 'backoff' | 'not-ready' | 'not-due';

export interface WorkspaceRunResult {
  ran: boolean;
  result?: unknown;
  skipped?: WorkspaceRunSkip;
  /** The run failed (it threw, or resolved to an object with `error`). */
  failed?: boolean;
}

export interface WorkspaceTickReport {
  /** Runs made here (failed ones included). */
  ran: number;
  /** Workspaces not run here: held by another instance (or already run for this slot), backed off, not ready, not due (a local kind), or stopping. */
  skipped: number;
  /** Of the runs made here, those that failed. */
  failed: number;
}

export interface WorkspaceScheduler {
  start(): void;
  /**
   * Run one kind for one workspace now, under its lease; { ran:false } when another holder has it or it is backed off (unless force).
   * `teamId` may be left out when the deployment serves one workspace (it is then that one).
   */
  runOnce(kind: string, teamId?: string, options?: { force?: boolean }): Promise<WorkspaceRunResult>;
  /**
   * Run one kind for every workspace now (as a tick does) and resolve when all finished.
   * `slot` names the scheduled moment (scheduled ticks pass it): a workspace already run for
   * that slot or a later one, by any instance, is skipped — so two instances ticking the
   * same moment run each workspace once between them.
   */
  tick(kind: string, options?: { slot?: number }): Promise<WorkspaceTickReport>;
  /** Stop scheduling, abort and wait for running runs, release leases. */
  stop(): Promise<void>;
}

const isErrorResult = (result: unknown): result is { error: unknown } =>
  result !== null && typeof result === 'object' && 'error' in result && (result as { error: unknown }).error !== undefined;

export function createWorkspaceScheduler(o: WorkspaceSchedulerOptions): WorkspaceScheduler {
  const { store, holder, logger } = o;
  const observe = o.observer ?? {};
  const leaseMs = o.leaseMs ?? 60_000;
  const concurrency = Math.max(1, Math.floor(o.concurrency ?? 8));
  const now = o.now ?? Date.now;
  const leaseNow = o.leaseClock ?? now;
  const byDue = (kind: JobKind) => o.findDue === true && kind.byDue === true;
  const dueAtMostMs = o.dueAtMostMs ?? 60 * 60_000;
  const kinds = new Map(o.kinds.map((k) => [k.name, k]));
  const stopping = new AbortController();
  // Each run in flight listens for the stop: up to every kind's slots at once (Node warns past 10 listeners).
  setMaxListeners(o.kinds.reduce((n, k) => n + Math.max(1, Math.floor(k.concurrency ?? concurrency)), 0) + 10, stopping.signal);
  const running = new Map<string, Promise<WorkspaceRunResult>>();
  /** Leases kept after their runs (keepLeases), with when each was last taken or renewed (leaseNow): renewed together, given back at stop. */
  const kept = new Map<string, number>();
  /** Renewed within half a lease's length: surely still ours (a run needs not take it again). */
  const stillOurs = (name: string) => {
    const at = kept.get(name);
    return at !== undefined && leaseNow() - at < leaseMs / 2;
  };
  /** `kind:team` of kept leases whose last run here went well (no job trouble to read before the next). */
  const clean = new Set<string>();
  /**
   * `kind:team` of local kinds (with `findDue`: many workspaces) whose last run here went well: work of this
   * instance alone, so only its own runs here back it off: no job trouble to read before the next (every 5 s,
   * for every workspace held, it was the most of an idle instance's questions).
   */
  const cleanLocal = new Set<string>();
  /** The slot each kept lease's last run here was for: a slot is run once here without reading its cursor. */
  const keptSlot = new Map<string, number>();
  // Kept leases are renewed together, one statement at a third of a lease's length, for as long as this
  // instance lives: a dead instance's workspaces are taken over within a lease's length.
  const keptMs = leaseMs;
  const renewKept = async () => {
    if (kept.size === 0) return;
    try {
      const at = leaseNow();
      const still = await store.renewLeasesOf(holder, keptMs);
      for (const name of kept.keys()) {
        if (still.has(name)) kept.set(name, at);
        else kept.delete(name);
      }
      for (const key of clean) if (!kept.has(key)) clean.delete(key);
      for (const key of keptSlot.keys()) if (!kept.has(key)) keptSlot.delete(key);
    } catch (err) {
      // Not renewed: the next run of each takes its lease again (and finds it ours, or another's).
      logger.warn('could not renew the kept job leases', { error: troubleReason(err) });
      kept.clear();
      clean.clear();
    }
  };
  const renewing = o.keepLeases ? setInterval(() => void renewKept(), Math.max(1000, Math.floor(leaseMs / 3))) : undefined;
  renewing?.unref();
  const dispatching = new Set<string>();
  const ticks = createTickDriver({ now, logger, ...(o.tickMaxWaitMs ? { maxWaitMs: o.tickMaxWaitMs } : {}) });
  const book = createTroubleBook({
    store,
    holder,
    logger,
    leaseMs,
    now,
    backoff: { baseMs: o.backoff?.baseMs ?? DEFAULT_BACKOFF.baseMs, maxMs: o.backoff?.maxMs ?? DEFAULT_BACKOFF.maxMs },
    ...(o.onTrouble ? { onTrouble: (t, n) => o.onTrouble!(t, n) } : {}),
    ...(o.onRecovered ? { onRecovered: (t, n) => o.onRecovered!(t, n) } : {}),
  });

  // The lease gauge says whether this instance holds any lease of a kind: counted, told on 0 ↔ 1.
  const leasesHeld = new Map<string, number>();
  const countLease = (kind: string) => (held: boolean) => {
    const n = (leasesHeld.get(kind) ?? 0) + (held ? 1 : -1);
    leasesHeld.set(kind, n);
    if (held && n === 1) observe.lease?.(kind, true);
    if (!held && n === 0) observe.lease?.(kind, false);
  };

  function kindOf(name: string): JobKind {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`no job kind named ${name}`);
    return kind;
  }

  /**
   * The run itself, with the lease held (or for a local kind, without one). `kept`: under a lease this instance
   * kept since its last run of the kind there (keepLeases): no other instance ran it meanwhile, so neither the
   * slot nor (after a clean run) the job trouble needs reading again.
   */
  async function attempt(
    kind: JobKind,
    teamId: string,
    signal: AbortSignal,
    force: boolean,
    slot: number | undefined,
    kept = false,
    unfinished?: boolean,
    localJob?: Job,
  ): Promise<WorkspaceRunResult> {
    const log = { job: kind.name, teamId };
    const key = workspaceKey(kind.name, teamId);
    let trouble: WorkspaceTrouble | null = null;
    const knownClean = kind.local ? cleanLocal.has(key) : kept && clean.has(key);
    if (!(knownClean && !force)) {
      try {
        trouble = await book.read(teamId);
      } catch (err) {
        logger.warn('could not read a workspace’s job trouble; running anyway', { ...log, error: troubleReason(err) });
      }
    }
    const until = backedOffUntil(trouble, kind.name);
    if (!force && until !== null && now() < until) return { ran: false, skipped: 'backoff' };
    if (slot !== undefined && kept) {
      if ((keptSlot.get(key) ?? Number.NEGATIVE_INFINITY) >= slot) return { ran: false, skipped: 'leased' };
      keptSlot.set(key, slot);
    }
    if (slot !== undefined && !kind.local && !kept) {
      // Claimed for this slot before running: the other instance, getting the lease after us, skips it.
      // One conditional statement: the slot is this run's only if no run took it (or a later one) before.
      if (!(await store.claimJobSlot(teamId, kind.name, slot, now()))) return { ran: false, skipped: 'leased' };
      if (o.keepLeases) keptSlot.set(key, slot);
    }
    const started = Date.now();
    let result: unknown;
    let failure: unknown;
    let failed = false;
    // Noted before the run: a change made while it runs (job_due's triggers) leaves the workspace due.
    const dueRun = byDue(kind) ? `${holder}/${started}/${Math.random().toString(36).slice(2)}` : undefined;
    try {
      const job = localJob ?? o.jobTable?.take(teamId, kind) ?? (await o.jobFor(teamId, kind.name));
      if (!job) return { ran: false, skipped: 'not-ready' };
      if (dueRun) await store.beginDueRun(teamId, kind.name, dueRun);
      result = await job.run({ signal, logger: logger.child(log), ...(unfinished === undefined ? {} : { unfinishedDeliveries: unfinished }) });
      if (isErrorResult(result)) [failed, failure] = [true, result.error];
    } catch (err) {
      [failed, failure] = [true, err];
    }
    if (!kind.local) observe.ran?.(kind.name, Date.now() - started, !failed);
    const reason = failed ? troubleReason(failure) : '';
    const ran: WorkspaceRunResult = { ran: true, result: failed && !isErrorResult(result) ? { error: reason } : result, ...(failed ? { failed } : {}) };
    if (signal.aborted) {
      // Stopped or lease lost: neither a failure nor a recovery.
      logger.debug('workspace job ended after an abort', log);
      return ran;
    }
    if (failed) {
      clean.delete(key);
      cleanLocal.delete(key);
      const state = await book.failed(teamId, kind.name, reason);
      logger.warn('workspace job failed; backed off', {
        ...log,
        error: reason,
        ...(state ? { failures: state.kinds[kind.name]?.failures, retryInMs: (state.kinds[kind.name]?.nextAttemptAt ?? 0) - now() } : {}),
      });
    } else {
      logger.debug('workspace job finished', { ...log, ms: Date.now() - started });
      if (dueRun) await store.endDueRun(teamId, kind.name, dueRun, nextDueOf(result, now(), dueAtMostMs));
      if (backedOffUntil(trouble, kind.name) !== null) await book.succeeded(teamId, kind.name);
      // Ran well, not backed off: while this instance keeps the lease, only it writes this kind's trouble here.
      if (o.keepLeases && !kind.local) clean.add(key);
      if (o.findDue && kind.local) cleanLocal.add(key);
    }
    return ran;
  }

  async function leased(kind: JobKind, teamId: string, force: boolean, slot: number | undefined, unfinished?: boolean): Promise<WorkspaceRunResult> {
    if (kind.local) {
      // Work of this instance alone (its read cache) is for the workspaces it holds, which it knows without asking the
      // store: one it does not hold is left before its job trouble is read (a question per workspace and tick), and
      // one whose job says it has nothing to do now is left before any of a run's bookkeeping.
      const localJob = o.jobTable?.take(teamId, kind) ?? (await o.jobFor(teamId, kind.name).catch(() => undefined));
      if (localJob === null) return { ran: false, skipped: 'not-ready' };
      if (!force && localJob?.notDue?.()) return { ran: false, skipped: 'not-due' };
      return withStopSignal(stopping.signal, (signal) => attempt(kind, teamId, signal, force, slot, false, unfinished, localJob));
    }
    const name = workspaceKey(kind.name, teamId);
    const keepMs = o.keepLeases ? keptMs : undefined;
    const startedAt = leaseNow();
    const held = stillOurs(name);
    const holding = {
      store,
      holder,
      logger,
      leaseMs,
      keepMs,
      held,
      stopping: stopping.signal,
      fields: { job: kind.name, teamId },
      observe: countLease(kind.name),
    };
    try {
      const got = await withLease(name, holding, (signal) => attempt(kind, teamId, signal, force, slot, held, unfinished));
      if (got.held && keepMs && !held) kept.set(name, startedAt);
      if (!got.held) {
        kept.delete(name);
        clean.delete(workspaceKey(kind.name, teamId));
      }
      if (got.held) return got.value;
      if (got.error !== undefined) logger.warn('could not take a job lease; skipping this run', { job: kind.name, teamId, error: troubleReason(got.error) });
    } catch (err) {
      // The store failed around the run (reading the slot, say): skip; a tick must never crash the process.
      logger.warn('workspace job run could not be made; skipping it', { job: kind.name, teamId, error: troubleReason(err) });
    }
    return { ran: false, skipped: 'leased' };
  }

  /** One run of a kind for a workspace, never two at once within this instance. */
  function guarded(kind: JobKind, teamId: string, force: boolean, slot?: number, unfinished?: boolean): Promise<WorkspaceRunResult> {
    const key = workspaceKey(kind.name, teamId);
    if (stopping.signal.aborted) return Promise.resolve({ ran: false });
    if (running.has(key)) return Promise.resolve({ ran: false, skipped: 'leased' });
    const work = leased(kind, teamId, force, slot, unfinished).finally(() => running.delete(key));
    running.set(key, work);
    return work;
  }

  async function tick(kindName: string, options: { slot?: number } = {}): Promise<WorkspaceTickReport> {
    const kind = kindOf(kindName);
    const report: WorkspaceTickReport = { ran: 0, skipped: 0, failed: 0 };
    if (stopping.signal.aborted) return report;
    let teams: string[];
    /** The workspaces with an unfinished delivery, read once for this tick (a kind that sweeps them); undefined: each run asks. */
    let unfinished: Set<string> | undefined;
    try {
      teams = kind.local && o.localWorkspaces ? o.localWorkspaces() : [...new Set(await o.workspaces())];
      if (byDue(kind) && teams.length) {
        // One query over all workspaces: those not due are left out before any lease or cursor is touched.
        const waiting = await store.notDue(kind.name, now()).catch((err: unknown) => {
          logger.warn('could not read which workspaces are due; running every one', { job: kind.name, error: troubleReason(err) });
          return new Set<string>();
        });
        teams = teams.filter((t) => !waiting.has(t));
      }
      if (o.keepLeases && !kind.local && teams.length) {
        // The workspaces another instance keeps the lease of are its own: one query, not a refused lease each.
        const prefix = `${kind.name}@`; // workspaceKey(kind.name, t) is prefix + t
        const theirs = await store.leasesHeldElsewhere(prefix, holder).catch(() => new Set<string>());
        teams = teams.filter((t) => !theirs.has(prefix + t));
      }
      if (o.findDue && kind.sweepsDeliveries && teams.length) {
        // One query over all workspaces, not one a run: most ticks find none, and no run sweeps.
        unfinished = await store.workspacesWithUnfinishedDeliveries().catch((err: unknown) => {
          logger.warn('could not read which workspaces have unfinished deliveries; each run asks', { job: kind.name, error: troubleReason(err) });
          return undefined;
        });
      }
    } catch (err) {
      logger.warn('could not list the workspaces; skipping this tick', { job: kind.name, error: troubleReason(err) });
      return report;
    }
    dispatching.add(kind.name);
    const slots = Math.max(1, Math.floor(kind.concurrency ?? concurrency));
    let next = 0;
    const worker = async () => {
      while (next < teams.length) {
        const teamId = teams[next++]!;
        if (next >= teams.length) dispatching.delete(kind.name); // all handed out: the next tick may begin
        const r = stopping.signal.aborted ? { ran: false } : await guarded(kind, teamId, false, options.slot, unfinished?.has(teamId));
        if (r.ran) report.ran++;
        else report.skipped++;
        if (r.failed) report.failed++;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(slots, teams.length) }, worker));
    } finally {
      dispatching.delete(kind.name);
    }
    return report;
  }

  /** The workspace of a deployment that serves one. */
  async function onlyWorkspace(): Promise<string> {
    const teams = [...new Set(await o.workspaces())];
    if (teams.length !== 1) throw new Error(`name the workspace to run for: this deployment serves ${teams.length}`);
    return teams[0]!;
  }

  /** A scheduled tick: skipped while the previous one of its kind is still handing out workspaces. */
  function scheduledTick(kind: JobKind, slot?: number): void {
    if (dispatching.has(kind.name)) {
      logger.debug('previous tick still busy; skipping this one', { job: kind.name });
      return;
    }
    void tick(kind.name, slot === undefined ? {} : { slot }).then(
      (r) => logger.debug('workspace tick done', { job: kind.name, ...r }),
      (err: unknown) => logger.error('workspace tick failed', { job: kind.name, error: troubleReason(err) }),
    );
  }

  return {
    start() {
      // No overlap guard across ticks: a tick with a hung workspace must not hold up the next tick's other workspaces.
      ticks.start([...kinds.values()].map((kind) => ({ name: kind.name, schedule: kind.schedule, run: (slot: number) => scheduledTick(kind, slot) })));
      for (const kind of kinds.values()) if (kind.runOnStart) scheduledTick(kind);
    },
    async runOnce(kindName, named, options = {}) {
      const kind = kindOf(kindName);
      const teamId = named ?? (await onlyWorkspace());
      const key = workspaceKey(kind.name, teamId);
      // Wait for this instance's current run (and any that started meanwhile), then run.
      for (let current = running.get(key); current; current = running.get(key)) await current.catch(() => undefined);
      return guarded(kind, teamId, options.force === true);
    },
    tick,
    async stop() {
      ticks.stop();
      if (renewing) clearInterval(renewing);
      stopping.abort();
      await Promise.allSettled([...running.values()]);
      // Kept leases given back: the other instances take these workspaces at their next tick.
      await Promise.allSettled([...kept.keys()].map((name) => store.releaseLease(name, holder)));
      kept.clear();
    },
  };
}
