import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiContext } from './api/context.js';
import type { ApiAnswer } from './api/router.js';

/** Larger bodies are refused (Slack's own limit is 1 GB; the fake keeps to something a test needs). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

async function readBytes(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The file's bytes from the POST to its upload_url: the raw body, or, as `@slack/web-api`'s filesUploadV2
 * sends it, the (first) file part of a multipart/form-data body.
 */
async function fileBytes(req: IncomingMessage, raw: Buffer): Promise<Buffer | undefined> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return raw;
  try {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    for (const [, value] of form) if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
    return undefined;
  } catch {
    return undefined;
  }
}

const text = (status: number, body: string): ApiAnswer => ({ status, headers: {}, body });

/**
 * A POST to an upload_url (`/upload/v1/<team>/<ticket>`) handed out by files.getUploadURLExternal: the bytes
 * are kept for the file until files.completeUploadExternal shares it. Slack answers `200 OK - <bytes>`; a
 * ticket it does not know (or one already completed) is a 404 here. Recorded in `calls()` as `upload_url`
 * (its args: the file id and the byte count). `fake.faults` targets it as the method `upload_url`.
 */
export async function receiveUpload(ctx: ApiContext | undefined, ticket: string, req: IncomingMessage): Promise<ApiAnswer> {
  const raw = await readBytes(req);
  if (!ctx) return text(404, 'Not Found');
  const { store } = ctx;
  const at = store.clock.now();
  const started = performance.now();
  const file = store.state.files.find((f) => f.ticket === ticket && f.completedAt === undefined);
  let answer: ApiAnswer;
  let bytes: Buffer | undefined;
  const decision = ctx.faults.decide('upload_url');
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  if (decision.failure) answer = text(decision.failure.status ?? 500, decision.failure.error ?? 'Internal Server Error');
  else if (!file) answer = text(404, 'Not Found');
  else if (raw === undefined) answer = text(413, 'Request Entity Too Large');
  else if ((bytes = await fileBytes(req, raw)) === undefined) answer = text(400, 'Bad Request');
  else {
    file.contentBase64 = bytes.toString('base64');
    file.uploadedAt = at;
    store.emit({ kind: 'file.uploaded', fileId: file.id });
    answer = text(200, `OK - ${bytes.length}`);
  }
  store.recordCall({
    method: 'upload_url',
    args: { ...(file ? { file_id: file.id } : {}), bytes: bytes?.length ?? raw?.length ?? 0 },
    status: answer.status,
    result: answer.status === 200 ? { ok: true } : { ok: false, error: `http_${answer.status}` },
    at,
    durationMs: performance.now() - started,
  });
  return answer;
}
