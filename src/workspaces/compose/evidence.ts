/**
 * A workspace's evidence and data protection: the evidence export (`/care evidence`), a person's export and
 * erasure (`/care export|forget @person`), and retention (the app's messages about a completed action edited
 * down once its retention is over).
 */
import { createEvidenceExport } from '../../services/evidence/evidence-export.js';
import { createPersonData } from '../../services/evidence/person-data.js';
import { createRetention } from '../../services/evidence/retention.js';
import { dmFileSender } from '../../slack/web-api/file-upload.js';
import type { WorkspaceCore } from './core.js';

export type WorkspaceEvidence = ReturnType<typeof composeEvidence>;

export function composeEvidence(core: WorkspaceCore) {
  const { care, store, identity, profiles, logger, now, timezone } = core;
  return {
    evidence: createEvidenceExport({
      care,
      store,
      identity,
      profiles,
      sendFile: dmFileSender(core.slack),
      timezone,
      now,
      logger: logger.child({ component: 'evidence' }),
      teamId: core.team,
    }),
    personData: createPersonData({
      store,
      identity,
      profiles,
      // Many workspaces name the installer (spec.admins.installer); one workspace's admins are configured.
      installerIsAdmin: core.spec.admins.installer !== undefined,
      adminNotices: core.shared.adminNotices,
      now,
      logger,
      teamId: core.team,
    }),
    retention: createRetention({
      store,
      poster: core.poster,
      slack: core.jobSlack,
      history: core.history,
      days: core.retentionDays,
      render: core.render,
      teamId: core.team,
      holder: core.shared.holder,
      staleAfterMs: core.staleAfterMs,
      now,
      logger: logger.child({ component: 'retention' }),
    }),
  };
}
