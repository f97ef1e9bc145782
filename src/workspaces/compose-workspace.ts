/**
 * Everything one workspace's work is built from: its Slack clients (its bot
 * token), its care client (its key and its own 10 req/s limiter), its read
 * caches, and every service the listeners and jobs use, over its own view of
 * the store. A single-workspace deployment builds one from the environment; a
 * deployment serving many builds one per installed and connected workspace
 * (registry.ts).
 *
 * It only wires: each feature is composed in its own file (compose/: core, notices, actions, shift work,
 * admin, evidence), and what a feature decides is its services' (what follows a write: services/actions/after-write.ts;
 * who gets an urgent alert: services/urgent/urgent-audience.ts; what Retry runs: services/notices/redelivery.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { CareClient } from '../care/index.js';
import { createHealth, type HealthReport } from '../health.js';
import type { Job } from '../jobs/index.js';
import type { CompletionNotices } from '../services/notices/completion-notices.js';
import type { Deliverer } from '../services/notices/delivery.js';
import type { Digests } from '../services/shift-work/digests.js';
import type { IdentityService } from '../services/people/identity.js';
import type { ReadCaches } from '../services/read-cache/read-caches.js';
import type { SlackDeps } from '../slack/deps.js';
import { composeActions, type WorkspaceActions } from './compose/actions.js';
import { composeAdmin, type WorkspaceAdmin } from './compose/admin.js';
import { composeCore, type WorkspaceCore } from './compose/core.js';
import { composeEvidence, type WorkspaceEvidence } from './compose/evidence.js';
import { composeJobs } from './compose/jobs.js';
import { composeNotices, type WorkspaceNotices } from './compose/notices.js';
import { composeShiftWork, type WorkspaceShiftWork } from './compose/shift-work.js';
import { composeSlackDeps } from './compose/slack-deps.js';
import type { WorkspaceShared, WorkspaceSpec } from './workspace-spec.js';

export type { WorkspaceShared, WorkspaceSpec } from './workspace-spec.js';

export interface Workspace {
  teamId: () => Promise<string>;
  deps: SlackDeps;
  care: CareClient;
  /** The client listeners post with; `jobSlack` is the one scheduled work posts with. */
  slack: WebClient;
  jobSlack: WebClient;
  reads: ReadCaches;
  identity: IdentityService;
  notices: CompletionNotices;
  digests: Digests;
  /** Its delivery ledger's poster (exactly-once posts of this workspace). */
  deliverer: Deliverer;
  /** This workspace's scheduled work (digest tick, summary tick, changes poll, read-cache sync): entered in the job table by the registry. */
  jobs: Job[];
  /**
   * Every service of this workspace, as its feature composition built it (listeners get `deps` alone): the
   * isolation contract walks them (test/e2e/multi-workspace-deps-isolation.test.ts).
   */
  services: WorkspaceServices;
  health: () => Promise<HealthReport>;
  /** Close its care client (the store is shared and stays open). */
  close(): Promise<void>;
}

/** A workspace's services by feature; of its core, the services alone (not its clients, store or settings). */
export interface WorkspaceServices {
  core: Pick<WorkspaceCore, 'identity' | 'directory' | 'channels' | 'names' | 'profiles' | 'deliverer' | 'poster' | 'history' | 'reads'>;
  notices: WorkspaceNotices;
  actions: WorkspaceActions;
  shiftWork: WorkspaceShiftWork;
  admin: WorkspaceAdmin;
  evidence: WorkspaceEvidence;
}

export function composeWorkspace(shared: WorkspaceShared, spec: WorkspaceSpec): Workspace {
  const core = composeCore(shared, spec);
  const notices = composeNotices(core);
  const actions = composeActions(core, notices);
  const shiftWork = composeShiftWork(core, actions);
  const admin = composeAdmin(core, notices, shiftWork);
  const evidence = composeEvidence(core);
  const { care, store, identity, directory, channels, names, profiles, deliverer, poster, history, reads } = core;
  return {
    teamId: core.team,
    deps: composeSlackDeps(core, actions, shiftWork, admin, evidence),
    care,
    slack: core.slack,
    jobSlack: core.jobSlack,
    reads: core.reads,
    identity: core.identity,
    notices: notices.notices,
    digests: shiftWork.digests,
    jobs: composeJobs(core, notices, shiftWork, actions, evidence),
    services: {
      core: { identity, directory, channels, names, profiles, deliverer, poster, history, reads },
      notices,
      actions,
      shiftWork,
      admin,
      evidence,
    },
    health: createHealth({ store, care }),
    deliverer: core.deliverer,
    async close() {
      await care.close();
    },
  };
}
