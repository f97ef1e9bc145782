/**
 * A Web API client's `fetch` that sends its workspace's current bot token
 * (bot-token.ts) instead of the one the client was built with, and meets a
 * `token_expired` answer (the app's clock behind Slack's) with a refresh and
 * one more try, so the caller never sees it. Slack refuses an expired token
 * before doing anything, so the second try cannot do anything twice.
 */
import type { FetchFunction } from '@slack/web-api';
import type { BotTokenSource } from './bot-token.js';

type Init = Parameters<FetchFunction>[1];

const isMethodCall = (url: Parameters<FetchFunction>[0]) =>
  /\/api\/[a-z]+(\.[a-zA-Z]+){1,3}$/.test(typeof url === 'string' ? url.split('?')[0]! : url.pathname);

const isAuthorization = (name: string) => name.toLowerCase() === 'authorization';

function bearerOf(init: Init): string | undefined {
  const value = Object.entries(init?.headers ?? {}).find(([name]) => isAuthorization(name))?.[1];
  return value && /^Bearer\s+/i.test(value) ? value.replace(/^Bearer\s+/i, '') : undefined;
}

function withBearer(init: Init, token: string): Init {
  const headers = Object.fromEntries(Object.entries(init?.headers ?? {}).filter(([name]) => !isAuthorization(name)));
  return { ...init, headers: { ...headers, Authorization: `Bearer ${token}` } };
}

const expiredAnswer = (text: string) => {
  if (!text.includes('token_expired')) return false;
  try {
    return (JSON.parse(text) as { error?: unknown }).error === 'token_expired';
  } catch {
    return false;
  }
};

/** `sourceOf` names the source for the token a call was made with (undefined: send the call as it is). */
export function rotatingFetch(base: FetchFunction, sourceOf: (token: string) => BotTokenSource | undefined): FetchFunction {
  return async (url, init) => {
    const sent = isMethodCall(url) ? bearerOf(init) : undefined;
    const source = sent ? sourceOf(sent) : undefined;
    if (!sent || !source) return base(url, init);
    const token = (await source.current()) ?? sent;
    const answer = await base(url, token === sent ? init : withBearer(init, token));
    if (answer.status !== 200) return answer;
    const text = await answer.text();
    const again = expiredAnswer(text) ? await source.expired(token) : null;
    if (again && again !== token) return base(url, withBearer(init, again));
    return new Response(text, { status: answer.status, statusText: answer.statusText, headers: [...answer.headers.entries()] });
  };
}
