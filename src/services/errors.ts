import {
  CareApiError,
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
} from '../care/index.js';
import type { ActionField } from './action-model.js';

/**
 * An error whose message is already a sentence for the person in Slack.
 * `field` names the form field it belongs to, when it is about one (a form
 * shows it beside that field instead of as a message).
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
  constructor(
    message: string,
    readonly code: 'not-linked' | 'not-found' | 'forbidden' | 'invalid' | 'busy' | 'not-admin' | 'other' = 'other',
    readonly field?: ActionField,
  ) {
    super(message);
  }
}

const RESOURCE_WORDS: Record<string, string> = {
  actions: 'action',
  users: 'care user',
  locations: 'location',
  'literature-items': 'literature item',
  'notification-groups': 'notification group',
};

function resourceOf(path: string): string {
  const seg = path.replace(/^\/?v1\//, '').split('/')[0] ?? '';
  return RESOURCE_WORDS[seg] ?? 'record';
}

function verbOf(method: string, path: string): string {
  if (path.endsWith('/complete')) return 'complete actions';
  if (path.endsWith('/reopen')) return 'reopen actions';
  const what = `${resourceOf(path)}s`;
  if (method === 'PUT') return `create ${what}`;
  if (method === 'PATCH') return `change ${what}`;
  return `read ${what}`;
}

/** A plain sentence for any error, never a stack trace; care API errors by status. */
export function describeError(err: unknown): string {
  if (err instanceof UserFacingError) return err.message;
  if (err instanceof NotFoundError) return `No such ${resourceOf(err.path)} in the care system. Check the number or Id.`;
  if (err instanceof ForbiddenError) return `The care system's API key may not ${verbOf(err.method, err.path)}. Ask your care system admin to grant it.`;
  if (err instanceof UnauthorizedError) return 'The care system refused our credentials. An admin needs to check the app’s API key and secret.';
  if (err instanceof InvalidRequestError) {
    const details = Object.entries(err.argErrors)
      .map(([k, v]) => `${k}: ${v.join(' ')}`)
      .join('; ');
    return `The care system did not accept that${details ? ` (${details.slice(0, 300)})` : err.hint ? ` (${err.hint.slice(0, 200)})` : ''}.`;
  }
  if (err instanceof RateLimitError || err instanceof ServerError || err instanceof TimeoutError || err instanceof NetworkError) {
    return 'The care system is busy or unreachable right now. Try again in a minute.';
  }
  if (err instanceof MethodNotAllowedError || err instanceof ResponseValidationError || err instanceof CareApiError) {
    return 'The care system answered in a way this app does not understand. Please tell your admin.';
  }
  return 'Something went wrong on our side. Please try again; if it keeps happening, tell your admin.';
}
