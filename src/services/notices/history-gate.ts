/**
 * How often a workspace's channel history may be read, across every instance:
 * a commercially distributed app not approved for Slack's Marketplace may call
 * `conversations.history` once a minute per workspace (15 messages a page).
 * Each read takes the workspace's lease `slack-history` (its store keeps it
 * apart from every other workspace's) that nobody gives back: while it lasts, no instance reads again. An internal app is paced
 * by the Slack client's own pacer alone (`everyMs` 0).
 */
import type { WorkspaceStore } from '../../store/index.js';
import { ALWAYS_READABLE, type HistoryAccess } from './history-access.js';

export interface HistoryGate extends HistoryAccess {
  /** Messages to ask for per page (Slack's cap for this app). */
  readonly pageLimit: number;
  /** May one page be read now? True uses up this workspace's read until the interval has passed. */
  tryRead(): Promise<boolean>;
}

export function createHistoryGate(deps: {
  /** The workspace's own store: the lease is this workspace's. */
  store: Pick<WorkspaceStore, 'acquireLease'>;
  holder: string;
  everyMs: number;
  pageLimit: number;
  /** Whether the workspace granted the history scopes at all (default: yes). */
  access?: HistoryAccess | undefined;
}): HistoryGate {
  let reads = 0;
  const access = deps.access ?? ALWAYS_READABLE;
  return {
    pageLimit: deps.pageLimit,
    readable: () => access.readable(),
    async tryRead() {
      if (deps.everyMs <= 0) return true;
      // A holder name of its own for each read: a lease the instance already holds is not extended into a second read.
      return deps.store.acquireLease('slack-history', `${deps.holder}#${++reads}`, deps.everyMs + 1_000);
    },
  };
}
