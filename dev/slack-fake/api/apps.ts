import type { MethodHandler } from './context.js';

/**
 * `apps.connections.open` (app-level token, `xapp-…`): a fresh single-use
 * `ws://` URL of the fake's Socket Mode endpoint.
 */
const connectionsOpen: MethodHandler = (ctx) => ({ url: ctx.socketMode.openUrl() });

export const appMethods: Record<string, MethodHandler> = { 'apps.connections.open': connectionsOpen };

/** Methods called with the app-level token; every other method takes the bot token. */
export const APP_TOKEN_METHODS = new Set(Object.keys(appMethods));
