/**
 * The seam between the playground page server and whatever holds the Slack
 * state (the Slack fake in the demo, an in-memory double in tests). Everything
 * in `PlaygroundState` is plain JSON: the page renders it as is.
 */

/** A Block Kit text object. */
export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

/** A Block Kit option (selects, overflow menus, checkboxes, radio buttons). */
export interface SlackOption {
  text: SlackText;
  value: string;
  description?: SlackText;
  url?: string;
}

/** A Block Kit block as the app sent it; the page renders the types it knows and shows a placeholder for the rest. */
export type SlackBlock = { type: string; block_id?: string } & Record<string, unknown>;

/** A modal or Home tab view, in Slack's JSON shape plus what Slack draws around it. */
export interface SlackView {
  id: string;
  type: 'modal' | 'home';
  callback_id?: string;
  external_id?: string;
  title?: SlackText;
  submit?: SlackText | null;
  close?: SlackText | null;
  blocks: SlackBlock[];
  private_metadata?: string;
  hash?: string;
  /** Inline errors under input blocks, by block_id (from `response_action: 'errors'`). */
  errors?: Record<string, string>;
  /** A banner over the modal, e.g. when the app did not answer in time. */
  general_error?: string;
}

export interface PlaygroundUser {
  id: string;
  /** Handle, e.g. "alice". */
  name: string;
  real_name: string;
  is_admin: boolean;
  /** IANA time zone, when known. */
  tz?: string;
}

export interface PlaygroundChannel {
  id: string;
  /** Without "#". */
  name: string;
  is_private: boolean;
}

/** A direct-message conversation; `members` holds two user ids (the app's bot user id for a DM with the app). */
export interface PlaygroundIm {
  id: string;
  members: string[];
}

/** A message in a conversation (top level, or a thread reply when `thread_ts` differs from `ts`). */
export interface PlaygroundMessage {
  ts: string;
  thread_ts?: string;
  /** Author: a user id, or the app's bot user id. */
  user: string;
  bot_id?: string;
  text: string;
  blocks?: SlackBlock[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Number of thread replies (top-level messages only). */
  reply_count?: number;
  edited?: { user: string; ts: string };
  /** Set on ephemeral messages ("Only visible to you"). */
  ephemeral?: true;
}

export interface PlaygroundState {
  team: { id: string; name: string };
  /** The Slack app under demonstration. */
  app: { name: string; bot_user_id: string; bot_id?: string };
  /** The simulated clock, when the backend has one. */
  clock?: { now: string; time_zone?: string };
  users: PlaygroundUser[];
  channels: PlaygroundChannel[];
  ims: PlaygroundIm[];
  /** By conversation id (channel or IM): top-level messages and thread replies, oldest first. */
  messages: Record<string, PlaygroundMessage[]>;
  /** By recipient user id, then conversation id, oldest first. */
  ephemeral: Record<string, Record<string, PlaygroundMessage[]>>;
  /** The app's published Home tab by user id (absent: never published). */
  home: Record<string, SlackView>;
  /** Open modal stack by user id: bottom first, the visible one last. */
  modals: Record<string, SlackView[]>;
}

/** What the viewer is told after an act (shown as a toast). */
export interface PlaygroundResult {
  ok: boolean;
  message: string;
}

export type Surface = 'message' | 'home' | 'modal';

/** Which interactive element was used, and where. */
export interface ActionTarget {
  where: Surface;
  /** For `message`: the conversation and the message's ts. */
  channelId?: string;
  ts?: string;
  /** For `message`: the message is an ephemeral one (Slack's `container.is_ephemeral`). */
  isEphemeral?: boolean;
  /** For `home` / `modal`: the view the element was in (defaults to the user's current one). */
  viewId?: string;
  blockId: string;
  actionId: string;
}

export interface ButtonClick extends ActionTarget {
  value?: string;
  /** In a modal: what the person has entered so far (Slack sends it with the click as the view's state). */
  values?: ViewStateValues;
}

/** The chosen value, in the shape of Slack's `block_actions` action for that element type. */
export type SelectedValue =
  | { type: 'static_select' | 'overflow' | 'external_select'; selected_option: SlackOption }
  | { type: 'users_select'; selected_user: string }
  | { type: 'datepicker'; selected_date: string };

export interface OptionSelection extends ActionTarget {
  selected: SelectedValue;
  /** In a modal: what the person has entered so far (for a select with dispatch_action in an input block). */
  values?: ViewStateValues;
}

/** One value of Slack's `view.state.values[block_id][action_id]`. */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_date?: string | null;
  selected_time?: string | null;
  selected_date_time?: number | null;
  timezone?: string;
  selected_user?: string | null;
  selected_users?: string[];
  selected_channel?: string | null;
  selected_channels?: string[];
  selected_conversation?: string | null;
  selected_conversations?: string[];
  selected_option?: SlackOption | null;
  selected_options?: SlackOption[];
}

export type ViewStateValues = Record<string, Record<string, ViewStateValue>>;

/** An external_select in the user's top modal asking for options. */
export interface OptionsQuery {
  blockId: string;
  actionId: string;
  /** What the user has typed so far. */
  value: string;
  viewId?: string;
}

/** An action in the care system that the simulator can act on. */
export interface SimulatableAction {
  id: string;
  /** The human-facing action number, when there is one. */
  no?: number;
  title: string;
  completed?: boolean;
  urgent?: boolean;
}

/** Things that happen outside Slack, triggered from the page. */
export interface PlaygroundSimulator {
  /** Someone completes the action in the care system's own web app. */
  completeActionInWebApp(actionNoOrId: string | number): Promise<PlaygroundResult>;
  /** Move the simulated clock to the next digest time (and let due jobs run). */
  advanceClockToNextDigest(): Promise<PlaygroundResult>;
  /** Move the simulated clock to the next shift change of the workspace's shifts (and let due jobs run). */
  advanceClockToNextShift(): Promise<PlaygroundResult>;
  /**
   * Move the simulated clock (the app's, the care system's and Slack's) 15 minutes on and run the jobs now due
   * (the changes poll, escalation steps, digests, summaries, handovers), so a ladder can be watched step by step.
   */
  advanceClock15Minutes(): Promise<PlaygroundResult>;
  /** Someone marks the action urgent in the care system. */
  markActionUrgent(actionNoOrId: string | number): Promise<PlaygroundResult>;
  listSimulatableActions(): Promise<SimulatableAction[]>;
}

/**
 * Everything the page server calls. Acts resolve with a short result for the
 * viewer; they reject only on real failures (the server answers 500), or with
 * `PlaygroundInputError` when the request names something that does not exist
 * (the server answers 400).
 */
export interface PlaygroundBackend {
  snapshot(): Promise<PlaygroundState>;
  /** `listener` is called after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** `text` is the whole line, e.g. "/care new Call GP". */
  sendSlashCommand(userId: string, channelId: string, text: string): Promise<PlaygroundResult>;
  /** A plain message from the user; `threadTs` makes it a thread reply. */
  postMessage(userId: string, channelId: string, text: string, threadTs?: string): Promise<PlaygroundResult>;
  clickButton(userId: string, click: ButtonClick): Promise<PlaygroundResult>;
  /** Static selects, overflow menus and date pickers outside input blocks, and selects in input blocks with dispatch_action. */
  selectOption(userId: string, selection: OptionSelection): Promise<PlaygroundResult>;
  /** Submits the user's top modal (or `viewId`, which must be the top one). */
  submitModal(userId: string, values: ViewStateValues, viewId?: string): Promise<PlaygroundResult>;
  closeModal(userId: string, viewId?: string): Promise<PlaygroundResult>;
  /** Options for an external_select in the user's top modal. */
  suggestOptions(userId: string, query: OptionsQuery): Promise<SlackOption[]>;
  /** The user opens the app's Home tab (Slack sends `app_home_opened`). */
  openHome(userId: string): Promise<PlaygroundResult>;
  simulate: PlaygroundSimulator;
}

/** The request names a user, conversation, message or view that does not exist (HTTP 400). */
export class PlaygroundInputError extends Error {
  override readonly name = 'PlaygroundInputError';
}
