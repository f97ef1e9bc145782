import type { FetchFunction } from '@slack/web-api';
import { Counter, Histogram, type Registry } from 'prom-client';
import { methodOfUrl, slackMethod, slackResult } from './labels.js';

/** What became of a call that got no usable answer. */
function failureOf(err: unknown): string {
  const name = (err as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error';
}

/** `ok` or Slack's error code, read from the start of the body (Slack puts `ok` first, then `error`). */
export function resultOfBody(body: string): string {
  const head = /^\s*\{\s*"ok"\s*:\s*(true|false)/.exec(body);
  if (head) return head[1] === 'true' ? 'ok' : slackResult(/"error"\s*:\s*"([^"\\]{1,60})"/.exec(body)?.[1]);
  try {
    const { ok, error } = JSON.parse(body) as { ok?: boolean; error?: string };
    return ok ? 'ok' : slackResult(error);
  } catch {
    return 'unreadable';
  }
}

/**
 * Slack Web API calls, seen at the `fetch` every WebClient of the app is given
 * (Bolt's, the listeners', the jobs' and the deliverer's, and the Socket Mode
 * connection opener): by method and result (`ok`, Slack's error code,
 * `ratelimited`, `http_<status>`, `timeout`, `network_error`), and every
 * `ratelimited` answer with the wait it asked for. Each HTTP request counts
 * once (a 200 when its body is read), so a call the client retries counts once per attempt.
 */
export function slackApiMetrics(registry: Registry, base: FetchFunction = globalThis.fetch as unknown as FetchFunction): FetchFunction {
  const registers = [registry];
  const calls = new Counter({
    name: 'care_slack_web_api_calls_total',
    help: 'Slack Web API requests by method and result: ok, the Slack error code, ratelimited, http_<status>, timeout or network_error.',
    labelNames: ['method', 'result'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'care_slack_web_api_call_duration_seconds',
    help: 'Time from sending a Slack Web API request to its answer (headers).',
    labelNames: ['method'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const rateLimited = new Counter({
    name: 'care_slack_web_api_ratelimited_total',
    help: 'Slack Web API answers 429 ratelimited, by method.',
    labelNames: ['method'] as const,
    registers,
  });
  const rateLimitWait = new Counter({
    name: 'care_slack_web_api_ratelimited_wait_seconds_total',
    help: 'Seconds Slack asked the app to wait (Retry-After) in its ratelimited answers, by method.',
    labelNames: ['method'] as const,
    registers,
  });

  return async (url, init) => {
    const method = methodOfUrl(url);
    const started = performance.now();
    let response: Awaited<ReturnType<FetchFunction>>;
    try {
      response = await base(url, init);
    } catch (err) {
      calls.inc({ method, result: failureOf(err) });
      throw err;
    }
    duration.observe({ method }, (performance.now() - started) / 1000);
    if (response.status === 429) {
      calls.inc({ method, result: 'ratelimited' });
      rateLimited.inc({ method });
      const after = Number(response.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) rateLimitWait.inc({ method }, after);
    } else if (response.status !== 200) {
      calls.inc({ method, result: slackResult(`http_${response.status}`) });
    } else {
      // Counted when the client reads the body (WebClient reads it as text): no copy of the stream, no second parse.
      const text = response.text.bind(response);
      response.text = async () => {
        let body: string;
        try {
          body = await text();
        } catch (err) {
          calls.inc({ method, result: failureOf(err) });
          throw err;
        }
        calls.inc({ method, result: resultOfBody(body) });
        return body;
      };
    }
    return response;
  };
}

/** What the app's own pacing did (slack/web-api/slack-pacer.ts): time calls waited for their slot, and calls not sent. */
export function slackPacerMetrics(registry: Registry): { waited(method: string, ms: number): void; deferred(method: string): void } {
  const registers = [registry];
  const waited = new Counter({
    name: 'care_slack_web_api_paced_wait_seconds_total',
    help: "Seconds Slack Web API calls waited for their slot under Slack's limits (the app's own pacing), by method.",
    labelNames: ['method'] as const,
    registers,
  });
  const deferred = new Counter({
    name: 'care_slack_web_api_deferred_total',
    help: 'Slack Web API calls not sent because their slot was further off than their caller could wait (handed back as ratelimited), by method.',
    labelNames: ['method'] as const,
    registers,
  });
  return {
    waited: (method, ms) => waited.inc({ method: slackMethod(method) }, ms / 1000),
    deferred: (method) => deferred.inc({ method: slackMethod(method) }),
  };
}
