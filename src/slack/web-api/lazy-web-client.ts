/**
 * A Slack WebClient made on its first use. Each WebClient binds a function for every Web API method when it is
 * made (some 280, tens of kilobytes); a workspace holds three (answers, jobs, the deliverer's posts), and an idle
 * one (nobody asks, nothing to post) may use none of them for as long as an instance holds it. Everything else
 * about the client is the real one's: every property is read from it, made the first time one is asked for.
 */
import type { WebClient } from '@slack/web-api';

export function lazyWebClient(make: () => WebClient): WebClient {
  let real: WebClient | undefined;
  const client = () => {
    real ??= make();
    return real;
  };
  return new Proxy({} as WebClient, {
    get: (_, prop) => Reflect.get(client(), prop),
    set: (_, prop, value) => Reflect.set(client(), prop, value),
    has: (_, prop) => Reflect.has(client(), prop),
    ownKeys: () => Reflect.ownKeys(client()),
    getOwnPropertyDescriptor: (_, prop) => {
      const d = Reflect.getOwnPropertyDescriptor(client(), prop);
      // A proxy may not report a property missing from its target as non-configurable.
      return d ? { ...d, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(client()),
  });
}
