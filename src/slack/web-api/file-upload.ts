/**
 * A file into a person's DM with the app, by Slack's current upload flow (files.upload is retired):
 * files.getUploadURLExternal (filename and length) -> the bytes POSTed to the upload_url it answers ->
 * files.completeUploadExternal with the DM's `channel_id`, which posts the message that shows the file.
 * `@slack/web-api`'s filesUploadV2 makes exactly these three requests through the client's own `fetch`, so
 * the two Web API calls are paced and counted like every other (slack-pacer.ts; the upload_url is not a Web
 * API method and passes the pacer as it is). Needs the bot scope `files:write` (and `im:write` to open the DM).
 */
import type { WebClient } from '@slack/web-api';
import { type DmFileSender, FileSendRefused, type OutgoingFile, type SentFile } from '../../services/file-sender.js';

export async function uploadFileToDm(slack: WebClient, userId: string, file: OutgoingFile): Promise<SentFile> {
  const opened = await slack.conversations.open({ users: userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new Error('conversations.open gave no channel');
  const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : Buffer.from(file.content);
  let result: unknown;
  try {
    result = await slack.filesUploadV2({
      channel_id: channelId,
      file: bytes,
      filename: file.filename,
      title: file.title ?? file.filename,
      ...(file.comment ? { initial_comment: file.comment } : {}),
    });
  } catch (err) {
    if ((err as { data?: { error?: unknown } }).data?.error === 'missing_scope') throw new FileSendRefused('missing-scope');
    throw err;
  }
  const fileId = fileIdOf(result);
  if (!fileId) throw new Error('files.completeUploadExternal gave no file');
  return { fileId, channelId };
}

/** filesUploadV2 answers `{files: [completeUploadExternal's answer, …]}`, each with its `files: [{id}]`. */
function fileIdOf(result: unknown): string | undefined {
  const completions = (result as { files?: { files?: { id?: string }[] }[] }).files ?? [];
  return completions[0]?.files?.[0]?.id;
}

/** The service port (services/file-sender.ts) over one workspace's client. */
export function dmFileSender(slack: WebClient): DmFileSender {
  return (userId, file) => uploadFileToDm(slack, userId, file);
}
