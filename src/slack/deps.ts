import type { HistoryAccess } from '../services/notices/history-access.js';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { ActionHistoryService } from '../services/actions/action-history.js';
import type { ActionNotes } from '../services/actions/action-notes.js';
import type { ActionPosts } from '../services/actions/action-posts.js';
import type { ActionsService } from '../services/actions/actions.js';
import type { EpisodeAnswers } from '../services/urgent/episode-answers.js';
import type { ChannelPolicy } from '../services/channel-policy.js';
import type { ChannelSetup } from '../services/shift-work/channel-setup.js';
import type { HomeShifts } from '../services/shift-work/home-shifts.js';
import type { OnCall } from '../services/urgent/on-call.js';
import type { DirectoryService } from '../services/people/directory.js';
import type { EvidenceExport } from '../services/evidence/evidence-export.js';
import type { HandoverService } from '../services/shift-work/handovers.js';
import type { EscalationSettingsService } from '../services/urgent/escalation-settings.js';
import type { FollowUps } from '../services/urgent/follow-up.js';
import type { SafeguardingSettingsService } from '../services/urgent/safeguarding-settings.js';
import type { IdentityService } from '../services/people/identity.js';
import type { ReassignService } from '../services/reassign/reassign.js';
import type { ReassignUndo } from '../services/reassign/reassign-undo.js';
import type { HomeFilters } from '../services/actions/home-filters.js';
import type { PersonData } from '../services/evidence/person-data.js';
import type { SlackProfiles } from '../services/people/slack-profiles.js';
import type { StatusService } from '../services/admin/status.js';
import type { SummarySettings } from '../services/shift-work/summary-settings.js';
import type { TeamViewService } from '../services/admin/team-view.js';
import type { WorkspaceNames } from '../services/people/workspace-names.js';
import type { Command } from './commands/command.js';
import type { SignedMetadata } from './sealed/signed-metadata.js';
import type { Block } from './views/blocks.js';
import type { WorkspaceCommandDeps } from './listeners/commands/workspace-answers.js';

export interface CommandContext {
  teamId: string;
  userId: string;
  channelId: string;
  triggerId: string;
  reply(message: { text: string; blocks?: unknown[] }): Promise<void>;
  /** The person already sees an answer elsewhere (a modal opened): a slow command then posts no "slow" line. */
  answeredElsewhere(): void;
}

/** The kinds of `/care` command a handler answers (parse errors are answered by the dispatcher). */
export type CommandKind = Exclude<Command['kind'], 'error'>;

/**
 * Answers one kind of parsed `/care` command (listeners/commands/, one file per family), with the workspace's
 * deps below. Errors it throws become a sentence for the person.
 */
export type CommandHandler<K extends CommandKind> = (cmd: Command & { kind: K }, ctx: CommandContext, deps: SlackDeps) => Promise<void>;

/** One person's Home tab publishes: the newest render wins, one publish at a time. */
export interface HomeQueue {
  generation: number;
  tail: Promise<void>;
  /** When the latest render began (the app's clock, ms) and the care data version it read. */
  renderedAt?: number;
  renderedVersion?: number | null;
  /** An opening inside the quiet time that found the data changed: the publish waiting for its end. */
  trailing?: NodeJS.Timeout | undefined;
}

/**
 * Everything the Slack listeners need, built once per workspace by its composition (workspaces/compose-workspace.ts) and passed in.
 * Listeners reach care data and the store only through these services.
 */
export interface SlackDeps {
  actions: ActionsService;
  /** The answers to urgent episodes: "I'm on it", "I can't", "Join" (issue 33). */
  answers: EpisodeAnswers;
  /** Posts about one action made outside the delivery paths (the form's confirmations), recorded in the ledger. */
  posts: ActionPosts;
  /** An action's life as the app knows it (the History button). */
  history: ActionHistoryService;
  /** Notes on actions, written when completing or taking one (`addNote`, `notesOf`): kept by the app, never posted in a channel. */
  notes: ActionNotes;
  identity: IdentityService;
  /** Admins: a person's data exported or erased (`/care export|forget @person`). */
  personData: PersonData;
  directory: DirectoryService;
  profiles: SlackProfiles;
  channels: ChannelPolicy;
  /** Admins' per-channel set-up: digests and group routes. */
  channelSetup: ChannelSetup;
  /** Handover at shift changes: the channels (admins), Accept handover, a carer's own part on the Home tab. */
  handovers: HandoverService;
  /** The workspace's channels and people by the names people type. */
  names: WorkspaceNames;
  /** Each person's own morning summary setting. */
  summaries: SummarySettings;
  /** Admins' evidence export (`/care evidence`): a CSV into their DM. */
  evidence: EvidenceExport;
  /** The care home's escalation ladder (`/care escalation`, admins). */
  escalation?: EscalationSettingsService;
  /** The follow-up DM's answers (Done, Still on it, Hand back) of taken urgent work. */
  followUps?: FollowUps;
  /** The safeguarding tier (`/care settings safeguarding`, admins). */
  safeguarding?: SafeguardingSettingsService;
  /** The care home's shifts: shown to anyone, set by admins (`/care shifts`). */
  shifts: HomeShifts;
  /** Who's on now (`/care oncall`, the Home tab's section). */
  onCall?: OnCall;
  /** The WebClient listeners post with (same token and API URL as Bolt's). */
  slack: WebClient;
  /** Whether the workspace granted the history scopes (optional since March 2026): without them nothing is read back. */
  historyAccess?: HistoryAccess | undefined;
  logger: Logger;
  now: () => Date;
  /** APP_TIMEZONE: fallback zone for date text and people without one. */
  timezone: string;
  /** Per-person Home tab publish queues of this app instance (see home-publisher.ts). */
  homeQueues: Map<string, HomeQueue>;
  /** Moves on with every change to care actions this instance learns of; null when it cannot know (see read-cache/action-cache.ts). */
  careVersion?: () => number | null;
  /** Seals every modal's private_metadata to the person and form it was issued to (see signed-metadata.ts). */
  signedMetadata: SignedMetadata;
  /** Admins' Home tab: the team view and the app's status (with Retry of failed deliveries). */
  teamView: TeamViewService;
  status: StatusService;
  /** Admins: move all of someone's open work to someone else (Team view, `/care reassign`). */
  reassign: ReassignService;
  /** Admins: Undo of a reassignment, from its result DM. */
  reassignUndo: ReassignUndo;
  /** Each person's Home tab location filter. */
  homeFilters: HomeFilters;
  /** More for admins' Home tab after Team and Status (multi-workspace mode: this workspace's care connection card). */
  adminHomeExtra?: (() => Promise<Block[]>) | undefined;
  /** How `/care admins|settings|connect` are answered: from the configuration (one workspace) or set in Slack (many). */
  workspaceSetup: WorkspaceCommandDeps;
}
