/**
 * The fake's state model. Everything here is plain JSON (no class instances,
 * no Maps, no functions) so a playground can render `fake.snapshot()` as is.
 */

/** A Block Kit block or element as the app sent it (kept opaque, validated separately). */
export type Block = Record<string, unknown>;

export interface TextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

export interface SlackUser {
  id: string;
  team_id: string;
  name: string;
  deleted: boolean;
  real_name: string;
  tz: string;
  tz_label: string;
  tz_offset: number;
  is_admin: boolean;
  is_owner: boolean;
  is_primary_owner: boolean;
  is_restricted: boolean;
  is_ultra_restricted: boolean;
  is_bot: boolean;
  is_app_user: boolean;
  updated: number;
  profile: {
    email?: string;
    real_name: string;
    display_name: string;
    real_name_normalized: string;
    display_name_normalized: string;
    bot_id?: string;
    team: string;
  };
}

export interface FakeChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_im: boolean;
  is_mpim: boolean;
  /** For an IM: the human on the other side of the bot. */
  user?: string;
  members: string[];
  created: number;
  creator: string;
  topic: string;
  purpose: string;
  is_archived: boolean;
}

export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

/** A message as Slack stores it (top-level or thread reply: `thread_ts` tells). */
export interface FakeMessage {
  type: 'message';
  ts: string;
  channel: string;
  user: string;
  bot_id?: string;
  app_id?: string;
  team: string;
  text: string;
  blocks?: Block[];
  attachments?: Block[];
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  metadata?: MessageMetadata;
  edited?: { user: string; ts: string };
  subtype?: string;
  /** Files shared with the message (files.completeUploadExternal), as Slack lists them: id, name, title, size. */
  files?: SharedFileRef[];
  /** True on the message a file upload posted (Slack's `upload: true`). */
  upload?: boolean;
  /** How the message got here (fake bookkeeping, not a Slack field). */
  via: 'chat.postMessage' | 'response_url' | 'command_ack' | 'files.completeUploadExternal';
}

/** A file as a message shows it. */
export interface SharedFileRef {
  id: string;
  name: string;
  title: string;
  size: number;
  mimetype: string;
  filetype: string;
}

/**
 * A file of the external upload flow: its ticket from files.getUploadURLExternal, the bytes POSTed to its
 * upload_url (base64, so the state stays plain JSON) and where files.completeUploadExternal shared it.
 */
export interface FakeFile {
  id: string;
  /** The opaque part of its upload_url. */
  ticket: string;
  /** `filename` as given to files.getUploadURLExternal. */
  name: string;
  /** `title` from files.completeUploadExternal (the name until then). */
  title: string;
  /** `length` as declared to files.getUploadURLExternal. */
  declaredLength: number;
  /** The bytes received at the upload_url (base64); undefined until then. */
  contentBase64?: string;
  /** The uploader (the bot user). */
  user: string;
  /** Clock ms: the upload URL was handed out, the bytes arrived, the upload was completed. */
  createdAt: number;
  uploadedAt?: number;
  completedAt?: number;
  /** Conversations it was shared into (empty: completed as a private file, or not completed yet). */
  channels: string[];
  /** The message that shares it, per conversation id. */
  shares: Record<string, string>;
}

/** A message only one person saw ("Only visible to you"). */
export interface FakeEphemeral {
  ts: string;
  channel: string;
  /** The person who saw it. */
  user: string;
  text: string;
  blocks?: Block[];
  attachments?: Block[];
  thread_ts?: string;
  /** Set when the app removed it (delete_original) or replaced it; the reader hides deleted ones. */
  deleted?: boolean;
  replaced?: boolean;
  via: 'chat.postEphemeral' | 'response_url' | 'command_ack';
}

/** One value in `view.state.values[block_id][action_id]`, in Slack's shape per element type. */
export type StateValue = { type: string } & Record<string, unknown>;
export type StateValues = Record<string, Record<string, StateValue>>;

export interface SlackView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  title?: TextObject;
  submit?: TextObject | null;
  close?: TextObject | null;
  blocks: Block[];
  private_metadata: string;
  callback_id: string;
  state: { values: StateValues };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  root_view_id: string | null;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  external_id: string;
  bot_id: string;
}

/** A view shown to a person, plus what Slack draws around it. */
export interface ViewRecord {
  view: SlackView;
  /** Inline errors under input blocks, by block_id (from `response_action: 'errors'`). */
  errors: Record<string, string>;
  /** The banner Slack shows when the app's answer was not understood or too slow. */
  generalError?: string;
}

export interface TriggerRecord {
  id: string;
  user: string;
  issuedAt: number;
  used: boolean;
  /** The view the person was looking at when the trigger was made (to push on top of it). */
  viewId?: string;
}

export type ResponseUrlOrigin =
  | { kind: 'command'; channel: string; user: string; command: string }
  | { kind: 'message'; channel: string; user: string; messageTs: string; ephemeral: boolean; threadTs?: string }
  | { kind: 'shortcut'; channel: string; user: string; threadTs?: string };

export interface ResponseUrlRecord {
  id: string;
  url: string;
  issuedAt: number;
  uses: number;
  origin: ResponseUrlOrigin;
  /** The last message this URL posted (what `replace_original` replaces for slash commands). */
  lastPosted?: { channel: string; ts: string; ephemeral: boolean };
}

export interface CallRecord {
  seq: number;
  /** Web API method, or "response_url". */
  method: string;
  /** Arguments as received (token removed). */
  args: Record<string, unknown>;
  status: number;
  result: Record<string, unknown>;
  /** Clock time (ms since epoch) the call arrived. */
  at: number;
  durationMs: number;
}

export type DriverRequestKind =
  | 'slash_command'
  | 'block_actions'
  | 'view_submission'
  | 'view_closed'
  | 'block_suggestion'
  | 'shortcut'
  | 'message_action'
  | 'event_callback';

export interface AckRecord {
  seq: number;
  kind: DriverRequestKind;
  /** What the request was about: command name, action_id, callback_id or event type. */
  name: string;
  user: string;
  at: number;
  latencyMs: number;
  /** HTTP status of the app's answer (absent when none came in time). */
  status?: number;
  acked: boolean;
  /** Why it counts as a failure: not acked in time, HTTP error, connection error. */
  failure?: 'timeout' | 'http_error' | 'network_error';
}

/**
 * A confirmation dialog a person was shown (a `confirm` on the element they
 * used) and what they pressed: `confirm` sends the click to the app, `deny`
 * (Cancel) sends nothing.
 */
export interface ConfirmationRecord {
  seq: number;
  user: string;
  /** The element's action_id. */
  actionId: string;
  title: string;
  text: string;
  confirmLabel: string;
  denyLabel: string;
  answer: 'confirm' | 'deny';
  at: number;
}

export interface FakeTeam {
  id: string;
  name: string;
  domain: string;
}

export interface FakeBot {
  userId: string;
  botId: string;
  appId: string;
  name: string;
  scopes: string[];
}

export interface FakeState {
  team: FakeTeam;
  bot: FakeBot;
  users: SlackUser[];
  channels: FakeChannel[];
  /** By channel id; top-level messages and thread replies, in ts order. */
  messages: Record<string, FakeMessage[]>;
  ephemerals: FakeEphemeral[];
  /** Modal view stack per user id (last = on top). */
  modals: Record<string, ViewRecord[]>;
  /** Published Home tab per user id. */
  homes: Record<string, SlackView>;
  triggers: TriggerRecord[];
  responseUrls: ResponseUrlRecord[];
  calls: CallRecord[];
  acks: AckRecord[];
  /** Every confirmation dialog shown, oldest first. */
  confirmations: ConfirmationRecord[];
  /** Files of the external upload flow, oldest first. */
  files: FakeFile[];
}

/** What changed (for the playground's live view). */
export interface FakeChange {
  kind:
    | 'message.posted'
    | 'message.updated'
    | 'message.deleted'
    | 'ephemeral.posted'
    | 'ephemeral.updated'
    | 'ephemeral.deleted'
    | 'channel.opened'
    | 'view.opened'
    | 'view.pushed'
    | 'view.updated'
    | 'view.closed'
    | 'view.state'
    | 'home.published'
    | 'file.uploaded'
    | 'file.shared'
    | 'call'
    | 'ack'
    | 'confirmation';
  channel?: string;
  user?: string;
  ts?: string;
  viewId?: string;
  method?: string;
  fileId?: string;
}
