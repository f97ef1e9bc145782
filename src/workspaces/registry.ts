/**
 * The workspaces a deployment serves, each composed once and kept: its
 * installation (bot token), its care connection and its settings, read from
 * the store. What another instance changed (a reconnect, new settings, an
 * uninstall) is noticed within `recheckMs`; what this instance changed is
 * applied at once (`refresh`). A workspace this instance has not used for
 * `idleMs` (no request, no job run here) is let go with its caches and care
 * client, so an instance's memory follows the workspaces it serves; the next
 * `get` composes it again from the store. A few are let go at each listing
 * (`letGoAtOnce`), so hundreds idle at once are closed over the next ticks,
 * not in one burst.
 */
import { createJobTable, type JobTable } from '../jobs/job-table.js';
import type { Logger } from '../logging/logger.js';
import type { CareConnection, SlackInstallation, Store, WorkspaceSettings, WorkspaceSummary } from '../store/index.js';
import type { Workspace, WorkspaceSpec } from './compose-workspace.js';
import { installationOf } from '../deployment/installation-of.js';
import { namedBy } from '../deployment/workspace-admins.js';
import type { RetentionDays } from '../services/evidence/retention.js';
import { idleToLetGo } from './idle-let-go.js';

export type WorkspaceLookup =
  | { state: 'ready'; workspace: Workspace; installation: SlackInstallation | null }
  /** Installed, but no care account is connected yet: only admins' set-up works. */
  | { state: 'not-connected'; installation: SlackInstallation; settings: WorkspaceSettings | null }
  /** Not installed here (or uninstalled). */
  | { state: 'not-installed' };

export interface WorkspaceRegistry {
  readonly mode: 'single' | 'multi';
  get(workspaceId: string): Promise<WorkspaceLookup>;
  /** The workspaces with a care account connected: the ones jobs run for. */
  connected(): Promise<string[]>;
  /** Forget what is kept for this workspace (its care client is closed); the next `get` reads the store again. */
  refresh(workspaceId: string): Promise<void>;
  /** Every workspace composed on this instance now (tests and benches). */
  composed(): Map<string, Workspace>;
  /** The workspace as composed on this instance now, if it is: never composed by asking, and not counted as a use. */
  held(workspaceId: string): Workspace | undefined;
  /** The workspaces composed on this instance now (no store read): where work of this instance alone runs. */
  heldIds(): string[];
  /**
   * The jobs of the workspaces composed here and up to date, entered as each is composed and taken out as it is let
   * go, found changed or closed: the scheduler finds a run's job there (jobs/job-table.ts), and asks `get` on a miss.
   */
  readonly jobTable: Pick<JobTable, 'take'>;
  close(): Promise<void>;
}

/**
 * A single-workspace deployment: a registry of one, the workspace from the environment under its Slack team id
 * (bound in the database at its first start: deployment/single-workspace.ts), whatever team asks (a person of
 * another team is refused before: slack/tenancy/request-workspace.ts).
 */
export function singleWorkspaceRegistry(teamId: string, workspace: Workspace): WorkspaceRegistry {
  const jobTable = createJobTable(Date.now);
  jobTable.enter(teamId, workspace.jobs);
  return {
    mode: 'single',
    jobTable,
    get: async () => ({ state: 'ready', workspace, installation: null }),
    connected: async () => [teamId],
    refresh: async () => undefined,
    composed: () => new Map([[teamId, workspace]]),
    held: () => workspace,
    heldIds: () => [teamId],
    close: () => {
      jobTable.withdraw(teamId);
      return workspace.close();
    },
  };
}

export interface MultiRegistryOptions {
  store: Store;
  /** Compose one workspace over its own view of the store (`installation`: the row its bot token came from). */
  compose(workspaceId: string, spec: WorkspaceSpec, installation: SlackInstallation): Workspace;
  defaults: {
    timezone: string;
    careWebUrl?: string | undefined;
    retentionDays?: RetentionDays | undefined;
    rateLimitPerSecond?: number | undefined;
    careConnections?: number | undefined;
  };
  logger: Logger;
  /** How long a composed workspace is used before its rows are read again (another instance may have changed them). Default 60 s. */
  recheckMs?: number;
  /** A composed workspace not asked for (`get`) for this long is let go at the next `connected` (default 10 minutes). */
  idleMs?: number;
  /** A workspace let go is closed this long after (a run that got it just before may still be using it; default 60 s). */
  closeAfterMs?: number;
  /** At most this many are let go at each `connected` (the longest idle first; default 20): the closes are spread. */
  letGoAtOnce?: number;
  now?: () => number;
}

interface Kept {
  workspace: Workspace;
  installation: SlackInstallation;
  /** What it was built from: rebuilt when any of these moved. */
  stamp: string;
  checkedAt: number;
  /** When it was last asked for (`get`). */
  usedAt: number;
}

const stampOf = (i: SlackInstallation, c: CareConnection, s: WorkspaceSettings | null) =>
  `${i.updatedAt}|${c.connectedAt}|${c.baseUrl}|${c.accountId}|${s?.updatedAt ?? 0}`;
/** The same stamp from the listing of every workspace (one query for all). */
const listedStamp = (w: WorkspaceSummary) =>
  w.care ? `${w.updatedAt}|${w.care.connectedAt}|${w.care.baseUrl}|${w.care.accountId}|${w.settingsUpdatedAt ?? 0}` : null;

/**
 * What the listing of every workspace (one query for all) says of each kept here: its rows unchanged since it was
 * composed (no need to read them again; its jobs stay in the table), or changed (its jobs leave the table, so its
 * runs ask `get`, which reads them again within recheckMs, as a request's does).
 */
function noteListing(all: WorkspaceSummary[], kept: Map<string, Kept>, jobTable: JobTable, t: number): void {
  for (const w of all) {
    const entry = kept.get(w.workspaceId);
    if (!entry) continue;
    if (listedStamp(w) === entry.stamp) {
      entry.checkedAt = t;
      jobTable.enter(w.workspaceId, entry.workspace.jobs);
    } else jobTable.withdraw(w.workspaceId);
  }
}

/** Workspaces let go for idleness are closed a little later (a run that got one just before may still use it). */
function closingLater(closeAfterMs: number, logger: Logger) {
  const timers = new Map<Workspace, ReturnType<typeof setTimeout>>();
  return {
    later(workspaceId: string, workspace: Workspace) {
      const timer = setTimeout(() => {
        timers.delete(workspace);
        void workspace.close().catch((error) => logger.warn('closing a workspace failed', { team: workspaceId, error }));
      }, closeAfterMs);
      timer.unref();
      timers.set(workspace, timer);
    },
    /** Close every one still waiting, now (the registry is closing). */
    async now() {
      for (const [workspace, timer] of timers) {
        clearTimeout(timer);
        timers.delete(workspace);
        await workspace.close().catch(() => undefined);
      }
    },
  };
}

/** What one workspace is composed from: its rows, the deployment's defaults where a setting is unset. */
function specOf(
  workspaceId: string,
  installation: SlackInstallation,
  botToken: string,
  connection: CareConnection,
  settings: WorkspaceSettings | null,
  defaults: MultiRegistryOptions['defaults'],
): WorkspaceSpec {
  return {
    teamId: workspaceId,
    botToken,
    care: {
      baseUrl: connection.baseUrl,
      accountId: connection.accountId,
      apiKey: connection.apiKey,
      apiSecret: connection.apiSecret,
      rateLimitPerSecond: defaults.rateLimitPerSecond,
      connections: defaults.careConnections,
    },
    timezone: settings?.timeZone ?? defaults.timezone,
    careWebUrl: settings?.careWebUrl ?? defaults.careWebUrl,
    retentionDays: settings?.retentionDays ?? defaults.retentionDays,
    // The installer and the admins added in Slack; the workspace's own admins and owners count anyway (services/people/admin-rule.ts).
    admins: namedBy(installation, settings),
  };
}

export function multiWorkspaceRegistry(options: MultiRegistryOptions): WorkspaceRegistry {
  const { store, logger } = options;
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 60_000;
  const idleMs = options.idleMs ?? 10 * 60_000;
  const closeAfterMs = options.closeAfterMs ?? 60_000;
  const letGoAtOnce = options.letGoAtOnce ?? 20;
  const kept = new Map<string, Kept>();
  const building = new Map<string, Promise<WorkspaceLookup>>();
  const closing = closingLater(closeAfterMs, logger);
  const jobTable = createJobTable(now);

  /** Let go of (a few of) the workspaces nobody here asked for (or ran a job of) within idleMs (not one being built now). */
  const evictIdle = () => {
    const candidates = [...kept].map(([id, entry]) => ({ id, usedAt: Math.max(entry.usedAt, jobTable.takenAt(id) ?? 0) }));
    for (const id of idleToLetGo(candidates, now(), idleMs, letGoAtOnce, (team) => building.has(team))) {
      const entry = kept.get(id)!;
      kept.delete(id);
      jobTable.withdraw(id);
      logger.debug('let go of a workspace idle on this instance', { team: id });
      closing.later(id, entry.workspace);
    }
  };
  /** The listing in flight: ticks of several kinds at one moment share it (one query, one pass over the workspaces). */
  let listing: Promise<string[]> | undefined;

  async function listConnected(): Promise<string[]> {
    const all = await store.listWorkspaces();
    const ids = new Set(all.filter((w) => w.care !== null).map((w) => w.workspaceId));
    noteListing(all, kept, jobTable, now());
    // Uninstalled or disconnected elsewhere: let go of what this instance kept.
    for (const id of kept.keys()) if (!ids.has(id)) await drop(id);
    evictIdle();
    return [...ids];
  }

  const drop = async (workspaceId: string) => {
    const entry = kept.get(workspaceId);
    kept.delete(workspaceId);
    jobTable.withdraw(workspaceId);
    if (entry) await entry.workspace.close().catch((error) => logger.warn('closing a workspace failed', { team: workspaceId, error }));
  };

  async function load(workspaceId: string): Promise<WorkspaceLookup> {
    const [installation, connection, settings] = await Promise.all([
      installationOf(store, workspaceId),
      store.getCareConnection(workspaceId),
      store.getWorkspaceSettings(workspaceId),
    ]);
    if (!installation?.bot) {
      await drop(workspaceId);
      return { state: 'not-installed' };
    }
    if (!connection) {
      await drop(workspaceId);
      return { state: 'not-connected', installation, settings };
    }
    const stamp = stampOf(installation, connection, settings);
    const current = kept.get(workspaceId);
    if (current && current.stamp === stamp) {
      current.checkedAt = now();
      current.usedAt = now();
      jobTable.enter(workspaceId, current.workspace.jobs);
      return { state: 'ready', workspace: current.workspace, installation };
    }
    await drop(workspaceId);
    const workspace = options.compose(
      workspaceId,
      specOf(workspaceId, installation, installation.bot.token, connection, settings, options.defaults),
      installation,
    );
    kept.set(workspaceId, { workspace, installation, stamp, checkedAt: now(), usedAt: now() });
    jobTable.enter(workspaceId, workspace.jobs);
    return { state: 'ready', workspace, installation };
  }

  return {
    mode: 'multi',
    jobTable,
    async get(workspaceId) {
      const entry = kept.get(workspaceId);
      if (entry) entry.usedAt = now();
      if (entry && now() - entry.checkedAt < recheckMs) return { state: 'ready', workspace: entry.workspace, installation: entry.installation };
      // One read of the store at a time per workspace, however many requests ask at once.
      let pending = building.get(workspaceId);
      if (!pending) {
        pending = load(workspaceId).finally(() => building.delete(workspaceId));
        building.set(workspaceId, pending);
      }
      // The database does not answer: a workspace composed here goes on as it was (read again at the next request).
      if (!entry) return pending;
      return pending.catch((error: unknown) => {
        logger.warn('could not read a workspace from the database; serving it as composed here', { team: workspaceId, error });
        return { state: 'ready', workspace: entry.workspace, installation: entry.installation };
      });
    },
    connected() {
      listing ??= listConnected().finally(() => {
        listing = undefined;
      });
      return listing;
    },
    async refresh(workspaceId) {
      await building.get(workspaceId)?.catch(() => undefined);
      await drop(workspaceId);
    },
    composed: () => new Map([...kept].map(([id, k]) => [id, k.workspace])),
    held: (workspaceId) => kept.get(workspaceId)?.workspace,
    heldIds: () => [...kept.keys()],
    async close() {
      for (const id of [...kept.keys()]) await drop(id);
      await closing.now();
    },
  };
}
