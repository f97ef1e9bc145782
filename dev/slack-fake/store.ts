import { EventEmitter } from 'node:events';
import type { AppDistribution } from './app-distribution.js';
import type { Clock } from './clock.js';
import { IdFactory } from './ids.js';
import type { AckRecord, CallRecord, ConfirmationRecord, FakeChange, FakeChannel, FakeEphemeral, FakeMessage, FakeState, SlackUser } from './types.js';
import { botSlackUser, type OrgWideInstall, toFakeChannel, toSlackUser, type Workspace } from './workspace.js';

/** The fake's state plus the small set of mutations every part of the fake shares. */
/** The call and ack logs keep this many newest entries (a long demo must not grow without end). */
export const MAX_LOG_ENTRIES = 10_000;

export class FakeStore {
  readonly state: FakeState;
  readonly ids = new IdFactory();
  readonly events = new EventEmitter();
  /** How the app is distributed to this workspace (decides history/replies limits); `fake.setAppDistribution`. */
  appDistribution: AppDistribution;
  /** Installing answers an org-wide install of this org (`fake.setOrgWideInstall`); undefined: a workspace install. */
  orgWideInstall: OrgWideInstall | undefined;
  private seq = 0;

  constructor(
    workspace: Workspace,
    readonly clock: Clock,
  ) {
    const now = clock.now();
    this.appDistribution = workspace.appDistribution ?? 'internal';
    this.orgWideInstall = workspace.orgWideInstall;
    const bot = { ...workspace.bot, scopes: [...workspace.bot.scopes] };
    this.state = {
      team: { ...workspace.team },
      bot,
      users: [...workspace.users.map((u) => toSlackUser(u, workspace.team, now)), botSlackUser(bot, workspace.team, now)],
      channels: workspace.channels.map((c) => toFakeChannel(c, workspace.users[0]?.id ?? bot.userId, now)),
      messages: {},
      ephemerals: [],
      modals: {},
      homes: {},
      triggers: [],
      responseUrls: [],
      calls: [],
      acks: [],
      confirmations: [],
      files: [],
    };
    this.events.setMaxListeners(100);
  }

  emit(change: FakeChange): void {
    this.events.emit('change', change);
  }

  hasScope(scope: string): boolean {
    return this.state.bot.scopes.includes(scope);
  }

  /** By id, handle ("alice" / "@alice") or email. */
  user(ref: string): SlackUser | undefined {
    const key = ref.startsWith('@') ? ref.slice(1) : ref;
    const lower = key.toLowerCase();
    return (
      this.state.users.find((u) => u.id === key) ?? this.state.users.find((u) => u.name.toLowerCase() === lower || u.profile.email?.toLowerCase() === lower)
    );
  }

  requireUser(ref: string): SlackUser {
    const user = this.user(ref);
    if (!user) throw new Error(`Slack fake: no user "${ref}" in the workspace`);
    return user;
  }

  /** By id or name ("care-team" / "#care-team"). */
  channel(ref: string): FakeChannel | undefined {
    const name = ref.startsWith('#') ? ref.slice(1) : ref;
    return this.state.channels.find((c) => c.id === ref) ?? this.state.channels.find((c) => !c.is_im && c.name === name);
  }

  requireChannel(ref: string): FakeChannel {
    const channel = this.channel(ref);
    if (!channel) throw new Error(`Slack fake: no channel "${ref}"`);
    return channel;
  }

  /** The bot's IM with a person, opened on first use (as conversations.open does). */
  imWith(userId: string): FakeChannel {
    const existing = this.state.channels.find((c) => c.is_im && c.user === userId);
    if (existing) return existing;
    const im: FakeChannel = {
      id: this.ids.next('D'),
      name: userId,
      is_private: true,
      is_im: true,
      is_mpim: false,
      user: userId,
      members: [userId, this.state.bot.userId],
      created: Math.floor(this.clock.now() / 1000),
      creator: this.state.bot.userId,
      topic: '',
      purpose: '',
      is_archived: false,
    };
    this.state.channels.push(im);
    this.emit({ kind: 'channel.opened', channel: im.id, user: userId });
    return im;
  }

  newTs(): string {
    return this.ids.ts(this.clock.now());
  }

  channelMessages(channelId: string): FakeMessage[] {
    let list = this.state.messages[channelId];
    if (!list) {
      list = [];
      this.state.messages[channelId] = list;
    }
    return list;
  }

  findMessage(channelId: string, ts: string): FakeMessage | undefined {
    return this.state.messages[channelId]?.find((m) => m.ts === ts);
  }

  addMessage(message: FakeMessage): void {
    this.channelMessages(message.channel).push(message);
    if (message.thread_ts && message.thread_ts !== message.ts) {
      const parent = this.findMessage(message.channel, message.thread_ts);
      if (parent) {
        parent.thread_ts = parent.ts;
        parent.reply_count = (parent.reply_count ?? 0) + 1;
        parent.reply_users = [...new Set([...(parent.reply_users ?? []), message.user])];
        parent.latest_reply = message.ts;
      }
    }
    this.emit({ kind: 'message.posted', channel: message.channel, ts: message.ts });
  }

  updateMessage(message: FakeMessage, changes: Partial<FakeMessage>, markEdited: boolean): void {
    Object.assign(message, changes);
    if (markEdited) message.edited = { user: this.state.bot.userId, ts: this.newTs() };
    this.emit({ kind: 'message.updated', channel: message.channel, ts: message.ts });
  }

  /** Deletes like Slack: a parent with replies leaves a "This message was deleted." tombstone. */
  deleteMessage(message: FakeMessage): void {
    const list = this.channelMessages(message.channel);
    if ((message.reply_count ?? 0) > 0) {
      Object.assign(message, { subtype: 'tombstone', text: 'This message was deleted.', blocks: undefined, attachments: undefined });
    } else {
      list.splice(list.indexOf(message), 1);
      const parent = message.thread_ts ? this.findMessage(message.channel, message.thread_ts) : undefined;
      if (parent && parent !== message && parent.reply_count) parent.reply_count -= 1;
    }
    this.emit({ kind: 'message.deleted', channel: message.channel, ts: message.ts });
  }

  addEphemeral(ephemeral: FakeEphemeral): void {
    this.state.ephemerals.push(ephemeral);
    this.emit({ kind: 'ephemeral.posted', channel: ephemeral.channel, user: ephemeral.user, ts: ephemeral.ts });
  }

  findEphemeral(userId: string, ts: string): FakeEphemeral | undefined {
    return this.state.ephemerals.find((e) => e.user === userId && e.ts === ts && !e.deleted);
  }

  recordCall(call: Omit<CallRecord, 'seq'>): CallRecord {
    const record = { seq: ++this.seq, ...call };
    this.state.calls.push(record);
    if (this.state.calls.length > MAX_LOG_ENTRIES) this.state.calls.shift();
    this.emit({ kind: 'call', method: call.method });
    return record;
  }

  recordAck(ack: Omit<AckRecord, 'seq'>): AckRecord {
    const record = { seq: ++this.seq, ...ack };
    this.state.acks.push(record);
    if (this.state.acks.length > MAX_LOG_ENTRIES) this.state.acks.shift();
    this.emit({ kind: 'ack', user: ack.user });
    return record;
  }

  recordConfirmation(c: Omit<ConfirmationRecord, 'seq'>): ConfirmationRecord {
    const record = { seq: ++this.seq, ...c };
    this.state.confirmations.push(record);
    if (this.state.confirmations.length > MAX_LOG_ENTRIES) this.state.confirmations.shift();
    this.emit({ kind: 'confirmation', user: c.user });
    return record;
  }

  snapshot(): FakeState {
    return structuredClone(this.state);
  }
}
