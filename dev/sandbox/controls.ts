import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { ApiError } from './errors.js';
import { foreignRequest, type LocalAddress, mediaType } from '../local-http/local-only.js';
import type { SandboxAccount } from './account.js';
import type { AccountDirectory } from './accounts.js';
import { readBody, sendJson } from './http-util.js';
import { PERMISSIONS, type Permissions } from './keys.js';
import { autoCompleteAction, completeAction, createAction, createGeneratedAction, getAction, reopenAction, updateAction } from './resources/action-ops.js';
import { RESOURCE_NAMES, type Store } from './store.js';
import { editableFields, parseJson, toFormParams, webActionSchema } from './web-app.js';
import { formatDateTime } from './wire-time.js';

export interface ControlsDeps {
  accounts: AccountDirectory;
  /** Where the sandbox listens: the controls answer programs on this machine only. */
  local: LocalAddress;
}

const seedSchema = z.union([z.literal('demo'), z.literal('empty'), z.number().int().min(0)]);
const resetSchema = z.object({ seed: seedSchema.optional(), seedValue: z.number().int().optional() }).strict();
const clockSchema = z.object({ set: z.string().optional(), advanceMs: z.number().finite().optional() }).strict();
const faultsSchema = z
  .object({
    errorRate: z.number().min(0).max(1).optional(),
    errorStatus: z.number().int().min(500).max(599).optional(),
    latencyMs: z.number().min(0).max(60_000).optional(),
    force429: z.number().int().min(0).optional(),
    reset: z.boolean().optional(),
  })
  .strict();
/** The care system's own generated action: the web app's fields and the tag it marks such actions with. */
const generatedSchema = webActionSchema.extend({ tag: z.string().min(1).max(100) }).strict();
const permissionList = z.array(z.enum(PERMISSIONS as [string, ...string[]]));
const keySchema = z
  .object({
    apiKey: z.string().min(1),
    apiSecret: z.string().min(1),
    permissions: z.partialRecord(z.enum(['notification_groups', 'literature_items', ...RESOURCE_NAMES]), permissionList).optional(),
  })
  .strict();

function clockBody(store: Store): string {
  const now = store.clock.now();
  return JSON.stringify({ now: new Date(now).toISOString(), wire: formatDateTime(now), offsetMs: store.clock.offset });
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The body of a control must be JSON.');
  }
}

/** `GET /_sandbox/accounts`: every account's credentials, provider name and data counts. */
function accountsBody(accounts: AccountDirectory): string {
  return JSON.stringify({
    accounts: accounts.list.map((a) => ({ ...a.credentials, name: a.provider.name, counts: counts(a.store), requests: a.stats.snapshot().total })),
  });
}

/**
 * The account a control acts on and the rest of its path: `/_sandbox/accounts/<account Id>/...`
 * names one; `/_sandbox/...` acts on the first account. Undefined = the accounts list.
 */
function target(accounts: AccountDirectory, parts: string[]): { account: SandboxAccount; parts: string[] } | undefined {
  if (parts[0] !== 'accounts') return { account: accounts.first, parts };
  if (parts.length === 1) return undefined;
  const id = decodeURIComponent(parts[1] as string);
  const account = accounts.byId(id);
  if (!account) throw new ApiError(404, `No sandbox account with Id ${id}.`);
  return { account, parts: parts.slice(2) };
}

/**
 * `/_sandbox/...`: unauthenticated JSON test controls (reset, virtual clock,
 * faults, stats, keys) and the care system's own web app (action edits), for
 * the first account, or for any account under `/_sandbox/accounts/<account Id>/...`.
 * The virtual clock is shared by every account.
 * Programs on this machine only: a foreign Host or Origin is a 403, and a
 * change not sent as application/json (a web page's simple request) a 415.
 */
export async function handleControls(req: IncomingMessage, res: ServerResponse, deps: ControlsDeps, path: string): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    const foreign = foreignRequest(req, deps.local);
    if (foreign) throw new ApiError(403, foreign);
    if (method !== 'GET' && method !== 'HEAD' && mediaType(req) !== 'application/json') throw new ApiError(415, 'Send control requests as application/json.');
    const found = target(
      deps.accounts,
      path
        .split('/')
        .filter((p) => p !== '')
        .slice(1),
    );
    if (!found) {
      if (method !== 'GET') throw new ApiError(404, `No such sandbox control: ${method} ${path}`);
      sendJson(res, 200, accountsBody(deps.accounts));
      return;
    }
    const { account, parts } = found;
    const route = `${method} /${parts.map((p, i) => (i === 1 && parts[0] === 'actions' ? ':id' : p)).join('/')}`;
    const { store, cache } = account;
    let body: string;
    switch (route) {
      case 'POST /reset': {
        const input = parseJson(resetSchema, await jsonBody(req));
        account.reseed(input.seed, input.seedValue);
        body = JSON.stringify({ ok: true, counts: counts(store) });
        break;
      }
      case 'GET /clock':
        body = clockBody(store);
        break;
      case 'POST /clock': {
        const input = parseJson(clockSchema, await jsonBody(req));
        if (input.set !== undefined) {
          const ms = Date.parse(input.set);
          if (Number.isNaN(ms)) throw new ApiError(400, 'Invalid clock value.', { set: ['Not an ISO date/time.'] });
          store.clock.set(ms);
        }
        if (input.advanceMs !== undefined) store.clock.advance(input.advanceMs);
        body = clockBody(store);
        break;
      }
      case 'GET /faults':
        body = JSON.stringify(account.faults.settings);
        break;
      case 'POST /faults':
        body = JSON.stringify(account.faults.update(parseJson(faultsSchema, await jsonBody(req))));
        break;
      case 'GET /stats': {
        const memory = process.memoryUsage();
        body = JSON.stringify({ ...account.stats.snapshot(), process: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed } });
        break;
      }
      case 'POST /stats/reset':
        account.stats.reset();
        body = JSON.stringify(account.stats.snapshot());
        break;
      case 'POST /keys': {
        const input = parseJson(keySchema, await jsonBody(req));
        account.keys.set({ apiKey: input.apiKey, apiSecret: input.apiSecret, permissions: input.permissions as Permissions | undefined });
        body = JSON.stringify({ ok: true, apiKey: input.apiKey });
        break;
      }
      case 'POST /actions': {
        const input = parseJson(webActionSchema, await jsonBody(req));
        body = cache.full(createAction(store, toFormParams(input)));
        break;
      }
      case 'POST /generated-actions': {
        const { tag, ...input } = parseJson(generatedSchema, await jsonBody(req));
        body = cache.full(createGeneratedAction(store, toFormParams(input), tag));
        break;
      }
      case 'GET /actions/:id':
        body = cache.full(getAction(store, parts[1] as string));
        break;
      case 'PATCH /actions/:id': {
        const existing = getAction(store, parts[1] as string);
        const input = parseJson(webActionSchema, await jsonBody(req));
        if (input.care_enquiry !== undefined || input.service_user !== undefined) {
          throw new ApiError(400, 'The subject of an action cannot be changed.', { care_enquiry: ['Cannot be changed.'] });
        }
        body = cache.full(updateAction(store, existing._id, toFormParams({ ...editableFields(existing), ...input })));
        break;
      }
      case 'POST /actions/:id/complete':
        body = cache.full(completeAction(store, parts[1] as string));
        break;
      case 'POST /actions/:id/auto-complete':
        body = cache.full(autoCompleteAction(store, parts[1] as string));
        break;
      case 'POST /actions/:id/reopen':
        body = cache.full(reopenAction(store, parts[1] as string));
        break;
      default:
        throw new ApiError(404, `No such sandbox control: ${method} ${path}`);
    }
    sendJson(res, 200, body);
  } catch (err) {
    if (err instanceof ApiError) sendJson(res, err.status, err.body());
    else {
      sendJson(res, 500, JSON.stringify({ hint: 'Internal sandbox error.' }));
      throw err;
    }
  }
}

function counts(store: Store): Record<string, number> {
  return {
    actions: store.actions.size,
    users: store.users.size,
    notificationGroups: store.notificationGroups.size,
    locations: store.locations.size,
    literatureItems: store.literatureItems.size,
  };
}
