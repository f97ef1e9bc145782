/**
 * Slack's file upload flow as it is today (files.upload was retired for new apps in May 2024 and for all in
 * November 2025): files.getUploadURLExternal hands out an upload_url and a file id, the app POSTs the bytes to
 * that URL (served by this fake, `upload.ts`), and files.completeUploadExternal shares the file into a
 * conversation, where a message shows it.
 *
 * Arguments, answers and errors: each method's page on docs.slack.dev (as kept in slack-ruby/slack-api-ref,
 * `docs.slack.dev/methods/files.getUploadURLExternal.json` and `files.completeUploadExternal.json`). Both need
 * `files:write`; both are Tier 4 (api/rate-tiers.ts).
 */
import type { FakeFile, FakeMessage, SharedFileRef } from '../types.js';
import { ApiError } from './api-error.js';
import { optJson, optNumber, optString, requireString, type Args } from './args.js';
import { requireScope } from './content.js';
import type { ApiContext, MethodHandler } from './context.js';

/** Slack's limit on alt text. */
const ALT_TEXT_MAX = 1000;
/** Slack's limit on a snippet. */
const SNIPPET_MAX_BYTES = 1024 * 1024;
/** "A maximum of 100 channels is allowed per request." */
const MAX_CHANNELS = 100;

const MIME_TYPES: Record<string, string> = {
  csv: 'text/csv',
  txt: 'text/plain',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
};

function typeOf(name: string): { filetype: string; mimetype: string } {
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  const mimetype = MIME_TYPES[ext];
  return mimetype ? { filetype: ext, mimetype } : { filetype: 'binary', mimetype: 'application/octet-stream' };
}

export function sizeOf(file: FakeFile): number {
  return file.contentBase64 === undefined ? 0 : Buffer.from(file.contentBase64, 'base64').length;
}

export function sharedRef(file: FakeFile): SharedFileRef {
  return { id: file.id, name: file.name, title: file.title, size: sizeOf(file), ...typeOf(file.name) };
}

const getUploadURLExternal: MethodHandler = (ctx, args) => {
  requireScope(ctx, 'files:write');
  const { store } = ctx;
  const filename = requireString(args, 'filename');
  const length = optNumber(args, 'length');
  if (length === undefined) requireString(args, 'length');
  // "Typically only occurs when the `length` provided is 0."
  if (length === undefined || length < 1 || !Number.isInteger(length)) throw new ApiError('missing_argument');
  const alt = optString(args, 'alt_txt') ?? optString(args, 'alt_text');
  if (alt && alt.length > ALT_TEXT_MAX) throw new ApiError('alt_txt_too_large');
  if (optString(args, 'snippet_type') !== undefined && length > SNIPPET_MAX_BYTES) throw new ApiError('snippet_too_large');
  const file: FakeFile = {
    id: store.ids.next('F'),
    ticket: store.ids.secret(32),
    name: filename,
    title: filename,
    declaredLength: length,
    user: store.state.bot.userId,
    createdAt: store.clock.now(),
    channels: [],
    shares: {},
  };
  store.state.files.push(file);
  return { upload_url: ctx.uploadUrl(`${store.state.team.id}/${file.ticket}`), file_id: file.id };
};

interface FileEntry {
  id: string;
  title?: string;
}

function fileEntries(args: Args): FileEntry[] {
  const raw = optJson(args, 'files', 'invalid_arguments');
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } });
  }
  return raw.map((entry) => {
    const e = entry as Record<string, unknown>;
    if (typeof e !== 'object' || e === null || typeof e.id !== 'string') {
      throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] files[].id must be a string'] } });
    }
    return { id: e.id, ...(typeof e.title === 'string' ? { title: e.title } : {}) };
  });
}

/** The conversations named by `channel_id` or `channels` (ids only: a user id is not a conversation here). */
function shareTargets(ctx: ApiContext, args: Args): string[] {
  const { store } = ctx;
  const one = optString(args, 'channel_id');
  const many = (optString(args, 'channels') ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const refs = [...(one ? [one] : []), ...many];
  if (refs.length > MAX_CHANNELS) throw new ApiError('channels_limit_exceeded');
  return [...new Set(refs)].map((ref) => {
    const channel = store.state.channels.find((c) => c.id === ref);
    if (!channel) throw new ApiError('channel_not_found');
    if (channel.is_archived) throw new ApiError('is_archived');
    if (channel.members.includes(store.state.bot.userId)) return channel.id;
    if (channel.is_private || channel.is_im) throw new ApiError('channel_not_found');
    throw new ApiError('not_in_channel');
  });
}

const completeUploadExternal: MethodHandler = (ctx, args) => {
  requireScope(ctx, 'files:write');
  const { store } = ctx;
  const entries = fileEntries(args);
  // A file is found only while its upload is open: issued here, its bytes received, not completed yet.
  const files = entries.map((entry) => {
    const file = store.state.files.find((f) => f.id === entry.id);
    if (!file || file.contentBase64 === undefined || file.completedAt !== undefined) throw new ApiError('file_not_found');
    return { file, entry };
  });
  const targets = shareTargets(ctx, args);
  const comment = optString(args, 'initial_comment');
  const threadTs = optString(args, 'thread_ts');
  const now = store.clock.now();
  for (const { file, entry } of files) {
    file.title = entry.title ?? file.name;
    file.completedAt = now;
  }
  const refs = files.map(({ file }) => sharedRef(file));
  const { bot, team } = store.state;
  for (const channel of targets) {
    const parent = threadTs ? store.findMessage(channel, threadTs) : undefined;
    const message: FakeMessage = {
      type: 'message',
      ts: store.newTs(),
      channel,
      user: bot.userId,
      bot_id: bot.botId,
      app_id: bot.appId,
      team: team.id,
      text: comment ?? '',
      files: refs,
      upload: true,
      ...(parent ? { thread_ts: parent.thread_ts ?? parent.ts } : {}),
      via: 'files.completeUploadExternal',
    };
    store.addMessage(message);
    for (const { file } of files) {
      file.channels.push(channel);
      file.shares[channel] = message.ts;
      store.emit({ kind: 'file.shared', channel, ts: message.ts, fileId: file.id });
    }
  }
  return { files: files.map(({ file }) => ({ id: file.id, title: file.title, name: file.name, created: Math.floor(now / 1000), user: file.user })) };
};

export const fileMethods: Record<string, MethodHandler> = {
  'files.getUploadURLExternal': getUploadURLExternal,
  'files.completeUploadExternal': completeUploadExternal,
};
