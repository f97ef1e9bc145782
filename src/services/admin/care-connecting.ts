/**
 * Connecting a workspace to its care account, as the connect form on the Home tab asks for it: the shapes,
 * and the port the form is given. The deployment does it (deployment/workspace-setup.ts: the check, the
 * saved credentials, their audit rows); the form, a Slack listener, names only this.
 */
import type { ConnectionCheck } from './care-connection-check.js';

export interface CareCredentials {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** The care account a workspace is connected to, as the Slack side may see it: never the key or the secret. */
export interface CareAccount {
  baseUrl: string;
  accountId: string;
}

export type ConnectOutcome =
  /** The credentials did not work: nothing was saved. */
  | { saved: false; check: ConnectionCheck }
  /** Saved (some permissions may be missing: `check.permissions`); `replaced` is the account it was connected to before. */
  | { saved: true; check: ConnectionCheck; replaced: CareAccount | null };

export interface CareConnecting {
  /** The care account the workspace is connected to, or null. */
  careAccount(workspaceId: string): Promise<CareAccount | null>;
  /** Check the credentials against the care system; save them (and an audit row, never the key or secret) only when they work. */
  connectCare(workspaceId: string, userId: string, credentials: CareCredentials): Promise<ConnectOutcome>;
  /** Forget the workspace's care account and its credentials; the account it was, or null when it was not connected. */
  disconnectCare(workspaceId: string, userId: string): Promise<CareAccount | null>;
}
