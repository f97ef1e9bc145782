/**
 * Does a care account answer with these credentials, and which of the
 * permissions the app uses does its API key have? Asked when an admin
 * connects a workspace, before anything is saved. Reads only; the one probe
 * of the write permission changes nothing (see probeActionsWrite).
 */
import {
  ADDRESS_REFUSED_CODE,
  type CareClient,
  ForbiddenError,
  InvalidRequestError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import { careAddressHost } from './care-address.js';

export type CarePermissionKey = 'actions.read' | 'actions.write' | 'users.read' | 'groups.read' | 'locations.read' | 'literature.read';

export interface CarePermissionCheck {
  key: CarePermissionKey;
  ok: boolean;
  /** What will not work without it, in a carer's or manager's words. */
  consequence: string;
}

export interface ConnectionProblem {
  /** unreachable: nothing (or not the care API) answers at the address; credentials: the account Id, key or secret was refused. */
  kind: 'unreachable' | 'credentials' | 'other';
  /** What happened and what to check, for the admin. */
  sentence: string;
}

export interface ConnectionCheck {
  /** The credentials work (some permissions may still be missing: see `permissions`). */
  ok: boolean;
  problem?: ConnectionProblem;
  /** One entry per permission, in the order of PERMISSION_ORDER; empty when the credentials could not be checked. A key refused everything is not ok. */
  permissions: CarePermissionCheck[];
}

export interface CheckOptions {
  /** The address the client was built for: named in sentences (e.g. "nothing answers at api.example.com"). */
  address?: string;
  /** What addresses are allowed (care-hosts.ts), told when the client refused the address before connecting. */
  allowed?: string;
  /** Debug lines of the outcome (never a credential). */
  logger?: Logger;
}

export const PERMISSION_ORDER: readonly CarePermissionKey[] = [
  'actions.read',
  'actions.write',
  'users.read',
  'groups.read',
  'locations.read',
  'literature.read',
];

export const CONSEQUENCES: Record<CarePermissionKey, string> = {
  'actions.read':
    'Nobody will see actions in Slack: `/care mine`, `due` and `find`, the Home tab, channel digests and morning summaries stay empty, and completion notices stop.',
  'actions.write': 'Nobody can create, change, complete, reopen or snooze actions from Slack; people can only look.',
  'users.read':
    'People cannot be linked to their care account by their email: an admin links each one by their care user Id, and care users cannot be picked by name.',
  'groups.read': 'Notification groups cannot be picked on an action, and group members are not told in Slack when an action is completed.',
  'locations.read': '`/care locations` and digests for one location will not work, and actions will not show their location’s name.',
  'literature.read': '`/care literature` and sharing literature items from Slack will not work.',
};

export const PERMISSION_NAMES: Record<CarePermissionKey, string> = {
  'actions.read': 'Actions: read',
  'actions.write': 'Actions: create and update',
  'users.read': 'Users: read',
  'groups.read': 'Notification groups: read',
  'locations.read': 'Locations: read',
  'literature.read': 'Literature items: read',
};

/**
 * An action Id that cannot exist: valid in form (24 hex digits) but its first
 * 8 digits are its creation time, here 1970.
 */
export const IMPOSSIBLE_ACTION_ID = '000000000000000000000000';

const NOTHING_ALLOWED: ConnectionProblem = {
  kind: 'credentials',
  sentence:
    'The care system knows this API key but refused everything the app asked. Check the key’s permissions in the care system’s settings and, if the key is limited to some IP addresses, that this server’s is one of them.',
};

/** A problem that ends the check (nothing more can be learned). */
class CheckStopped extends Error {
  constructor(readonly problem: ConnectionProblem) {
    super(problem.sentence);
  }
}

function refused(hint: string | undefined): ConnectionProblem {
  const h = hint ?? '';
  if (/signature/i.test(h)) {
    return {
      kind: 'credentials',
      sentence:
        'The care system did not accept the API secret. Check that it is the secret of this API key: copy it again from the care system’s API key settings.',
    };
  }
  if (/clock|server time/i.test(h)) {
    return {
      kind: 'other',
      sentence: 'The care system says this server’s clock is wrong, so it refused the request. The app’s operator needs to fix the server’s clock.',
    };
  }
  if (/api.?key/i.test(h)) {
    return {
      kind: 'credentials',
      sentence: 'The care system does not know this API key for this account. Check the API key, and that it belongs to this account Id.',
    };
  }
  if (/account/i.test(h)) return { kind: 'credentials', sentence: 'The care system does not know this account Id. Check the account Id.' };
  return {
    kind: 'credentials',
    sentence:
      'The care system refused these credentials. Check the account Id, API key and API secret (and, if the key is limited to some IP addresses, that this server’s is one of them).',
  };
}

/**
 * What an error other than a 403 means for the connection. An address that could not be reached gets one
 * sentence whatever happened there (refused, timed out, reset), so the form tells nobody which ports are
 * open; an address the deployment does not allow was refused before connecting, and the sentence says what
 * is allowed.
 */
function problemOf(err: unknown, at: string, allowed: string | undefined): ConnectionProblem {
  if (err instanceof UnauthorizedError) return refused(err.hint);
  if (err instanceof NetworkError && err.code === ADDRESS_REFUSED_CODE) {
    return { kind: 'unreachable', sentence: `${at} is not an address this app connects to. ${allowed ?? ''}`.trim() };
  }
  if (err instanceof NetworkError && err.code === 'ENOTFOUND') {
    return { kind: 'unreachable', sentence: `There is no host called ${at}. Check the API address.` };
  }
  if (err instanceof TimeoutError || err instanceof NetworkError) {
    return { kind: 'unreachable', sentence: `Could not reach the care system at ${at}. Check the API address.` };
  }
  if (err instanceof NotFoundError || err instanceof MethodNotAllowedError || err instanceof ResponseValidationError) {
    return { kind: 'unreachable', sentence: `Something answers at ${at}, but not as the care API. Check the API address (it usually ends in /v1).` };
  }
  if (err instanceof RateLimitError) return { kind: 'other', sentence: 'The care system is busy with this API key (rate limit). Try again in a minute.' };
  if (err instanceof ServerError) {
    return { kind: 'other', sentence: `The care system had an error${err.status ? ` (HTTP ${err.status})` : ''}. Try again in a few minutes.` };
  }
  return { kind: 'other', sentence: 'The check failed unexpectedly. Try again; if it keeps failing, tell the app’s operator.' };
}

/** The address's host, for sentences, and what the deployment allows. */
interface Where {
  host: string;
  allowed: string | undefined;
}

/** How to read an answer other than success and 403. */
interface ProbeRules {
  /** This error still shows the permission works (e.g. 404 for a record that cannot exist). */
  allowedToo?: (err: unknown) => boolean;
  /** This error means the same as a 403 (e.g. 404 from an endpoint beyond the spec). */
  forbiddenToo?: (err: unknown) => boolean;
}

/** true = allowed, false = forbidden; any other failure stops the check. */
async function allowed(probe: () => Promise<unknown>, at: Where, rules: ProbeRules = {}): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (err) {
    if (err instanceof ForbiddenError || rules.forbiddenToo?.(err)) return false;
    if (rules.allowedToo?.(err)) return true;
    throw new CheckStopped(problemOf(err, at.host, at.allowed));
  }
}

/**
 * Whether the key may update actions, without changing any: a reopen of an
 * action that cannot exist. This relies on the API checking a key's
 * permission (403) before the action's existence (404), as it checks
 * credentials first: the spec's order of errors, and the sandbox's pipeline
 * (dev/sandbox/api-handler.ts: authenticate -> rate limit -> permission ->
 * handler). 404 (or 400) = allowed, 403 = not.
 *
 * Create is not probed: no request creates nothing for sure (a PUT the API
 * accepts makes an action), so a key is taken to create if it may update.
 */
function probeActionsWrite(care: CareClient, at: Where): Promise<boolean> {
  return allowed(() => care.actions.reopen(IMPOSSIBLE_ACTION_ID), at, {
    allowedToo: (err) => err instanceof NotFoundError || err instanceof InvalidRequestError,
  });
}

/**
 * The fewest calls that tell: one list of one action (does the account answer,
 * are the credentials right, may it read actions: a 403 there still proves the
 * credentials), then the other five probes at once.
 */
export async function checkCareConnection(care: CareClient, options: CheckOptions = {}): Promise<ConnectionCheck> {
  const at: Where = { host: options.address ? careAddressHost(options.address) : 'that address', allowed: options.allowed };
  const one = { per_page: 1, attributes: ['_id'] };
  try {
    const actionsRead = await allowed(() => care.actions.list(one), at);
    const [actionsWrite, usersRead, groupsRead, locationsRead, literatureRead] = await Promise.all([
      probeActionsWrite(care, at),
      // The users endpoint is beyond the spec: an API without it (404) lets the app do as little as a 403 does.
      allowed(() => care.users.list(one), at, { forbiddenToo: (err) => err instanceof NotFoundError }),
      allowed(() => care.notificationGroups.list(one), at),
      allowed(() => care.locations.list(one), at),
      allowed(() => care.literatureItems.list(one), at),
    ]);
    const ok: Record<CarePermissionKey, boolean> = {
      'actions.read': actionsRead,
      'actions.write': actionsWrite,
      'users.read': usersRead,
      'groups.read': groupsRead,
      'locations.read': locationsRead,
      'literature.read': literatureRead,
    };
    const permissions = PERMISSION_ORDER.map((key) => ({ key, ok: ok[key], consequence: CONSEQUENCES[key] }));
    options.logger?.debug('care connection checked', { missing: permissions.filter((p) => !p.ok).map((p) => p.key) });
    // Refused everything: a key with no permission at all, or (a 403 too, on some APIs) one limited to other IP addresses. Nothing would work.
    if (permissions.every((p) => !p.ok)) return { ok: false, problem: NOTHING_ALLOWED, permissions };
    return { ok: true, permissions };
  } catch (err) {
    if (!(err instanceof CheckStopped)) throw err;
    options.logger?.debug('care connection check failed', { kind: err.problem.kind });
    return { ok: false, problem: err.problem, permissions: [] };
  }
}

/** The check in a few lines of mrkdwn: what is wrong, or which permissions work and what the missing ones stop. */
export function connectionReport(check: ConnectionCheck): string {
  if (!check.ok) return `:x: ${check.problem?.sentence ?? 'The care system could not be checked.'}`;
  const missing = check.permissions.filter((p) => !p.ok);
  const working = check.permissions.filter((p) => p.ok);
  if (missing.length === 0) return ':white_check_mark: Connected. The API key has every permission the app uses.';
  const lines = [
    `:white_check_mark: Connected, but the API key lacks ${missing.length === 1 ? 'a permission' : `${missing.length} permissions`} the app uses.`,
    ...missing.map((p) => `:no_entry: *${PERMISSION_NAMES[p.key]}*: ${p.consequence}`),
  ];
  if (working.length > 0) lines.push(`:white_check_mark: Working: ${working.map((p) => PERMISSION_NAMES[p.key]).join(', ')}.`);
  lines.push('The care system’s account owner can grant these in the API key’s settings; then reconnect here.');
  return lines.join('\n');
}
