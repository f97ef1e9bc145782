/**
 * A loopback relay between the Slack driver and the app that keeps a copy of
 * every request as it went over the wire (headers and raw body), so a test can
 * send one again byte for byte, as someone who captured it would.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TappedRequest {
  headers: Record<string, string>;
  body: string;
}

export interface RequestTap {
  /** Point the driver here instead of at the app. */
  url: string;
  requests: TappedRequest[];
  /** POST a captured request (with extra or replaced headers) to `to` (default: the tap's target). */
  resend(request: TappedRequest, options?: { to?: string; headers?: Record<string, string> }): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** The headers Slack sends that matter to the app (content type, signature, timestamp, retries). */
function slackHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if ((name === 'content-type' || name.startsWith('x-slack-')) && typeof value === 'string') kept[name] = value;
  }
  return kept;
}

export interface RequestTapOptions {
  /**
   * Hold the app's answer to the n-th request (0-based) this long before passing it on: an answer that
   * reaches Slack late (Slack gives up after 3 s and retries an event). The app has answered by then.
   */
  answerDelayMs?: (index: number) => number;
}

export async function startRequestTap(target: string, options: RequestTapOptions = {}): Promise<RequestTap> {
  const requests: TappedRequest[] = [];
  const resend: RequestTap['resend'] = async (request, options = {}) => {
    const res = await fetch(options.to ?? target, { method: 'POST', headers: { ...request.headers, ...options.headers }, body: request.body });
    return { status: res.status, text: await res.text() };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const captured = { headers: slackHeaders(req.headers), body: Buffer.concat(chunks).toString('utf8') };
      const delay = options.answerDelayMs?.(requests.length) ?? 0;
      requests.push(captured);
      resend(captured).then(
        async (answer) => {
          if (delay > 0) await new Promise((r) => setTimeout(r, delay));
          if (res.destroyed) return;
          res.writeHead(answer.status, answer.text.startsWith('{') ? { 'content-type': 'application/json' } : {});
          res.end(answer.text);
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    requests,
    resend,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
