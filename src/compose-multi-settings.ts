/** What a deployment serving many workspaces is started with (main.ts from the environment; tests and benches). */
import type { AppSettings } from './compose.js';
import type { KeyRing } from './crypto/key-ring.js';
import type { CareHost } from './services/admin/care-hosts.js';
import type { SlackDistribution } from './slack/web-api/rate-plan.js';

export interface MultiAppSettings extends Omit<AppSettings, 'slack' | 'care' | 'adminSlackUserIds'> {
  slack: {
    signingSecret: string;
    clientId: string;
    clientSecret: string;
    stateSecret: string;
    /** Another Slack (the local fake): its Web API, OAuth exchange and authorize page. */
    apiUrl?: string | undefined;
    lookupFailureTtlMs?: number;
    /** Default `distributed` (SLACK_MARKETPLACE_APPROVED=true: `marketplace`). */
    distribution?: SlackDistribution | undefined;
  };
  /** Tokens and care secrets are kept encrypted with it (ENCRYPTION_KEY). */
  keyRing: KeyRing;
  /** Every workspace's care client: requests per second (CARE_RATE_LIMIT) and pooled connections. */
  care?: { rateLimitPerSecond?: number | undefined; connections?: number | undefined };
  /** A workspace's runs of one job kind at once on this instance (default 8). */
  jobConcurrency?: number;
  /** How long a workspace is used as composed before its rows are read again (default 60 s). */
  recheckMs?: number;
  /** A workspace this instance has not used for this long is let go with its caches (default 10 minutes). */
  workspaceIdleMs?: number;
  /**
   * CARE_API_HOSTS: the only care API hosts admins may connect to (plain http:// allowed for them). Unset: any
   * public https:// host name, every resolved address checked to be public when connecting (services/admin/care-hosts.ts).
   */
  careApiHosts?: readonly CareHost[] | undefined;
}
