import { findInput } from './find-blocks.js';
import type { RenderContext } from './mrkdwn.js';
import type { FakeStore } from './store.js';
import type { FakeEphemeral, FakeFile, FakeMessage, SlackView } from './types.js';

/** A top-level message with its thread replies (oldest first). */
export type ChannelMessage = FakeMessage & { replies: FakeMessage[] };

/** The modal a person has open: the top view, its inline errors and the whole stack. */
export interface OpenModal {
  view: SlackView;
  errors: Record<string, string>;
  generalError?: string;
  stack: SlackView[];
}

function byTs(a: { ts: string }, b: { ts: string }): number {
  return Number(a.ts) - Number(b.ts);
}

/** What the conversation shows, oldest first: top-level messages with replies attached. */
export function conversationMessages(store: FakeStore, channelId: string): ChannelMessage[] {
  const all = [...(store.state.messages[channelId] ?? [])].sort(byTs);
  const top = all.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  return structuredClone(top.map((m) => ({ ...m, replies: all.filter((r) => r.thread_ts === m.ts && r.ts !== m.ts) })));
}

export function channelMessages(store: FakeStore, channelRef: string): ChannelMessage[] {
  return conversationMessages(store, store.requireChannel(channelRef).id);
}

/** The bot's DMs with a person (empty when no IM was ever opened). */
export function dmMessages(store: FakeStore, userRef: string): ChannelMessage[] {
  const user = store.requireUser(userRef);
  const im = store.state.channels.find((c) => c.is_im && c.user === user.id);
  return im ? conversationMessages(store, im.id) : [];
}

/** Ephemeral messages a person still sees (deleted ones gone, replaced ones in their new form). */
export function userEphemerals(store: FakeStore, userRef: string, channelRef?: string): FakeEphemeral[] {
  const user = store.requireUser(userRef);
  const channel = channelRef ? store.requireChannel(channelRef).id : undefined;
  return structuredClone(store.state.ephemerals.filter((e) => e.user === user.id && !e.deleted && (!channel || e.channel === channel)));
}

export function openModalOf(store: FakeStore, userRef: string): OpenModal | undefined {
  const stack = store.state.modals[store.requireUser(userRef).id] ?? [];
  const top = stack[stack.length - 1];
  if (!top) return undefined;
  return structuredClone({
    view: top.view,
    errors: top.errors,
    ...(top.generalError ? { generalError: top.generalError } : {}),
    stack: stack.map((r) => r.view),
  });
}

export function homeOf(store: FakeStore, userRef: string): SlackView | undefined {
  const view = store.state.homes[store.requireUser(userRef).id];
  return view ? structuredClone(view) : undefined;
}

/** The inline error shown under an input of the open modal, found by its label (or block_id). */
export function inlineErrorOf(store: FakeStore, userRef: string, label: string): string | undefined {
  const stack = store.state.modals[store.requireUser(userRef).id] ?? [];
  const top = stack[stack.length - 1];
  if (!top) return undefined;
  const input = findInput(top.view.blocks, label);
  const blockId = input ? (input.block.block_id as string) : label;
  return top.errors[blockId];
}

/** Names and zones for rendering text as a given person reads it. */
export function renderContextFor(store: FakeStore, viewerRef?: string): RenderContext {
  const viewer = viewerRef ? store.requireUser(viewerRef) : undefined;
  return {
    userName: (id) => store.state.users.find((u) => u.id === id)?.profile.display_name || store.state.users.find((u) => u.id === id)?.real_name,
    channelName: (id) => store.state.channels.find((c) => c.id === id)?.name,
    ...(viewer ? { tz: viewer.tz } : {}),
    now: store.clock.now(),
  };
}

/** A file uploaded through files.getUploadURLExternal, as a test reads it. */
export interface UploadedFile {
  id: string;
  /** The filename given to files.getUploadURLExternal. */
  name: string;
  title: string;
  /** The bytes POSTed to its upload_url (empty when none arrived). */
  bytes: Buffer;
  /** The bytes as UTF-8 text. */
  text: string;
  /** Whether files.completeUploadExternal finished it. */
  completed: boolean;
  /** The conversations it was shared into (ids), and the ts of the message sharing it in each. */
  channels: string[];
  shares: Record<string, string>;
  /** Clock ms the upload URL was handed out. */
  createdAt: number;
}

function uploadedFile(file: FakeFile): UploadedFile {
  const bytes = file.contentBase64 === undefined ? Buffer.alloc(0) : Buffer.from(file.contentBase64, 'base64');
  return {
    id: file.id,
    name: file.name,
    title: file.title,
    bytes,
    text: bytes.toString('utf8'),
    completed: file.completedAt !== undefined,
    channels: [...file.channels],
    shares: { ...file.shares },
    createdAt: file.createdAt,
  };
}

/**
 * Files of the upload flow, oldest first: every one (`{all: true}`: also those not completed), or those
 * shared into a channel, or into a person's DM with the bot (`{dm: user}`).
 */
export function uploadedFiles(store: FakeStore, options: { channel?: string; dm?: string; all?: boolean } = {}): UploadedFile[] {
  let channel: string | undefined;
  if (options.channel) channel = store.requireChannel(options.channel).id;
  if (options.dm) {
    const user = store.requireUser(options.dm);
    const im = store.state.channels.find((c) => c.is_im && c.user === user.id);
    if (!im) return [];
    channel = im.id;
  }
  return store.state.files.filter((f) => (options.all || f.completedAt !== undefined) && (!channel || f.channels.includes(channel))).map(uploadedFile);
}
