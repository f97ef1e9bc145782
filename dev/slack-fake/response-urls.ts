import { ApiError } from './api/api-error.js';
import { optBool, optString, type Args } from './api/args.js';
import { parseContent, type MessageContent } from './api/content.js';
import type { FakeStore } from './store.js';
import type { FakeMessage, ResponseUrlOrigin, ResponseUrlRecord } from './types.js';

/** A response_url works for 30 minutes, 5 times. */
export const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;
export const RESPONSE_URL_MAX_USES = 5;

export function issueResponseUrl(store: FakeStore, baseUrl: string, origin: ResponseUrlOrigin): string {
  const id = `${store.state.team.id}/${store.ids.secret(12)}/${store.ids.secret(24)}`;
  const now = store.clock.now();
  const record: ResponseUrlRecord = { id, url: `${baseUrl}response/${id}`, issuedAt: now, uses: 0, origin };
  const list = store.state.responseUrls;
  // Long-dead URLs are forgotten (they would only answer expired_url).
  while (list.length > 0 && (list[0]?.issuedAt ?? now) < now - 4 * RESPONSE_URL_LIFETIME_MS) list.shift();
  list.push(record);
  return record.url;
}

/**
 * A post to a response_url, with Slack's semantics: `delete_original`,
 * `replace_original`, else a new message (`response_type` "in_channel" posts
 * to the conversation, otherwise only the person sees it). Expired/used URLs
 * answer 404.
 */
export function postToResponseUrl(store: FakeStore, id: string, args: Args): Record<string, unknown> {
  const record = store.state.responseUrls.find((r) => r.id === id);
  if (!record) throw new ApiError('invalid_url', {}, 404);
  if (store.clock.now() - record.issuedAt > RESPONSE_URL_LIFETIME_MS) throw new ApiError('expired_url', {}, 404);
  if (record.uses >= RESPONSE_URL_MAX_USES) throw new ApiError('used_url', {}, 404);
  const deleteOriginal = optBool(args, 'delete_original') ?? false;
  const replaceOriginal = optBool(args, 'replace_original') ?? false;
  let content: MessageContent = {};
  try {
    if (!deleteOriginal) content = parseContent(args, { requireSomething: true });
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(e.error, e.extra, 400);
    throw e;
  }
  record.uses += 1;
  const origin = record.origin;
  const original = originalOf(record);
  if (deleteOriginal) {
    if (!original) throw new ApiError('message_not_found', {}, 404);
    removeOriginal(store, original);
    return {};
  }
  if (replaceOriginal && original) {
    replaceContent(store, original, content);
    return {};
  }
  const threadTs = optString(args, 'thread_ts') ?? ('threadTs' in origin ? origin.threadTs : undefined);
  const ts = store.newTs();
  if (optString(args, 'response_type') === 'in_channel') {
    const { bot, team } = store.state;
    const message: FakeMessage = {
      type: 'message',
      ts,
      channel: origin.channel,
      user: bot.userId,
      bot_id: bot.botId,
      app_id: bot.appId,
      team: team.id,
      text: content.text ?? '',
      ...pick(content),
      ...(threadTs ? { thread_ts: threadTs } : {}),
      via: 'response_url',
    };
    store.addMessage(message);
    record.lastPosted = { channel: origin.channel, ts, ephemeral: false };
  } else {
    store.addEphemeral({
      ts,
      channel: origin.channel,
      user: origin.user,
      text: content.text ?? '',
      ...pick(content),
      ...(threadTs ? { thread_ts: threadTs } : {}),
      via: 'response_url',
    });
    record.lastPosted = { channel: origin.channel, ts, ephemeral: true };
  }
  return {};
}

type Original = { channel: string; ts: string; ephemeral: boolean; user: string };

function originalOf(record: ResponseUrlRecord): Original | undefined {
  const o: ResponseUrlOrigin = record.origin;
  if (o.kind === 'message') return { channel: o.channel, ts: o.messageTs, ephemeral: o.ephemeral, user: o.user };
  return record.lastPosted ? { ...record.lastPosted, user: o.user } : undefined;
}

function pick(content: MessageContent): Pick<MessageContent, 'blocks' | 'attachments'> {
  return { ...(content.blocks ? { blocks: content.blocks } : {}), ...(content.attachments ? { attachments: content.attachments } : {}) };
}

function removeOriginal(store: FakeStore, original: Original): void {
  if (original.ephemeral) {
    const e = store.findEphemeral(original.user, original.ts);
    if (!e) throw new ApiError('message_not_found', {}, 404);
    e.deleted = true;
    store.emit({ kind: 'ephemeral.deleted', user: e.user, channel: e.channel, ts: e.ts });
    return;
  }
  const m = store.findMessage(original.channel, original.ts);
  if (!m) throw new ApiError('message_not_found', {}, 404);
  store.deleteMessage(m);
}

function replaceContent(store: FakeStore, original: Original, content: MessageContent): void {
  const changes = { text: content.text ?? '', blocks: content.blocks, attachments: content.attachments };
  if (original.ephemeral) {
    const e = store.findEphemeral(original.user, original.ts);
    if (!e) throw new ApiError('message_not_found', {}, 404);
    Object.assign(e, changes, { replaced: true });
    if (!changes.blocks) delete e.blocks;
    if (!changes.attachments) delete e.attachments;
    store.emit({ kind: 'ephemeral.updated', user: e.user, channel: e.channel, ts: e.ts });
    return;
  }
  const m = store.findMessage(original.channel, original.ts);
  if (!m) throw new ApiError('message_not_found', {}, 404);
  store.updateMessage(m, changes, false);
  if (!changes.blocks) delete m.blocks;
  if (!changes.attachments) delete m.attachments;
}
