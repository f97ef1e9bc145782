import type { Logger } from '../../../src/logging/logger.js';
import type { Faults } from '../faults.js';
import type { FakeSocketMode } from '../socket/socket-mode.js';
import type { FakeStore } from '../store.js';
import type { ResponseUrlOrigin } from '../types.js';
import type { Args } from './args.js';

/** What every Web API method handler can use. */
export interface ApiContext {
  store: FakeStore;
  faults: Faults;
  logger: Logger;
  /** Hands out a response_url served by this fake. */
  issueResponseUrl(origin: ResponseUrlOrigin): string;
  /** The upload_url (on this fake's own server) for an upload ticket (`<team>/<ticket>`). */
  uploadUrl(ticket: string): string;
  /** The Socket Mode endpoint (apps.connections.open hands out its URLs). */
  socketMode: FakeSocketMode;
}

/** A method handler: returns the fields of `{ok: true, ...}` or throws ApiError. */
export type MethodHandler = (ctx: ApiContext, args: Args) => Record<string, unknown> | Promise<Record<string, unknown>>;
