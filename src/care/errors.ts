/**
 * The care client's error hierarchy. Every error names the method and the
 * path (never the query string), the HTTP status when there was one and the
 * server's hint; none ever carries a credential, a signature or parameters.
 */
export type ArgErrors = Record<string, string[]>;

export interface CareErrorInit {
  method: string;
  /** Request path without host or query string, e.g. `/v1/actions/<id>`. */
  path: string;
  status?: number | undefined;
  hint?: string | undefined;
  cause?: unknown;
}

export class CareApiError extends Error {
  override name = 'CareApiError';
  readonly status: number | undefined;
  readonly hint: string | undefined;
  readonly method: string;
  readonly path: string;

  constructor(summary: string, init: CareErrorInit) {
    const status = init.status === undefined ? '' : ` ${init.status}`;
    const hint = init.hint ? `: ${init.hint}` : '';
    super(`${init.method} ${init.path} failed:${status} ${summary}${hint}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.hint = init.hint;
    this.method = init.method;
    this.path = init.path;
  }

  /** What JSON.stringify shows: safe fields only (the cause is left out). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, status: this.status, hint: this.hint, method: this.method, path: this.path };
  }
}

/** 400: the request is invalid; `argErrors` maps parameter names to messages. */
export class InvalidRequestError extends CareApiError {
  override name = 'InvalidRequestError';
  readonly argErrors: ArgErrors;
  constructor(init: CareErrorInit & { argErrors?: ArgErrors | undefined }) {
    super('invalid request', init);
    this.argErrors = init.argErrors ?? {};
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), argErrors: this.argErrors };
  }
}

export class UnauthorizedError extends CareApiError {
  override name = 'UnauthorizedError';
  constructor(init: CareErrorInit) {
    super('unauthorized', init);
  }
}

export class ForbiddenError extends CareApiError {
  override name = 'ForbiddenError';
  constructor(init: CareErrorInit) {
    super('forbidden', init);
  }
}

export class NotFoundError extends CareApiError {
  override name = 'NotFoundError';
  constructor(init: CareErrorInit) {
    super('not found', init);
  }
}

export class MethodNotAllowedError extends CareApiError {
  override name = 'MethodNotAllowedError';
  constructor(init: CareErrorInit) {
    super('method not allowed', init);
  }
}

/** 429 after the retries were spent; `resetAt` is the server's reset time (epoch ms) when it sent one. */
export class RateLimitError extends CareApiError {
  override name = 'RateLimitError';
  readonly resetAt: number | undefined;
  constructor(init: CareErrorInit & { resetAt?: number | undefined }) {
    super('rate limit exceeded', init);
    this.resetAt = init.resetAt;
  }
}

/** 5xx, or any other unexpected status. */
export class ServerError extends CareApiError {
  override name = 'ServerError';
  constructor(init: CareErrorInit) {
    super('server error', init);
  }
}

/** The request failed below HTTP (refused, reset, dropped). `code` is the socket error code. */
export class NetworkError extends CareApiError {
  override name = 'NetworkError';
  readonly code: string | undefined;
  constructor(init: CareErrorInit & { code?: string | undefined }) {
    super(`network error${init.code ? ` (${init.code})` : ''}`, init);
    this.code = init.code;
  }
}

/** No complete answer within `timeoutMs`. */
export class TimeoutError extends CareApiError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(init: CareErrorInit & { timeoutMs: number }) {
    super(`no answer within ${init.timeoutMs} ms`, init);
    this.timeoutMs = init.timeoutMs;
  }
}

export interface ValidationIssue {
  /** Dotted path into the response body, e.g. `items.3.due`. */
  path: string;
  message: string;
}

/** A success response whose body does not have the expected shape. */
export class ResponseValidationError extends CareApiError {
  override name = 'ResponseValidationError';
  readonly issues: ValidationIssue[];
  constructor(init: CareErrorInit & { issues: ValidationIssue[] }) {
    const shown = init.issues.slice(0, 3).map((i) => `${i.path || '(body)'}: ${i.message}`);
    const more = init.issues.length > 3 ? ` (+${init.issues.length - 3} more)` : '';
    super(`unexpected response body at ${shown.join('; ')}${more}`, init);
    this.issues = init.issues;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** The error body the API sends: `{hint, arg_errors}`; anything else gives `{}`. */
export function parseErrorBody(body: string): { hint?: string; argErrors?: ArgErrors } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {};
  }
  if (!json || typeof json !== 'object') return {};
  const record = json as Record<string, unknown>;
  const out: { hint?: string; argErrors?: ArgErrors } = {};
  if (typeof record.hint === 'string') out.hint = record.hint;
  const args = record.arg_errors;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    out.argErrors = {};
    for (const [key, value] of Object.entries(args)) {
      const list = Array.isArray(value) ? value : [value];
      out.argErrors[key] = list.map(String);
    }
  }
  return out;
}

export interface HttpErrorInput {
  method: string;
  path: string;
  status: number;
  body: string;
  resetAt?: number | undefined;
}

/** The one factory: picks the error class from the status. A non-JSON body gives an error without hint. */
export function errorFromResponse(input: HttpErrorInput): CareApiError {
  const { hint, argErrors } = parseErrorBody(input.body);
  const init: CareErrorInit = { method: input.method, path: input.path, status: input.status, hint };
  switch (input.status) {
    case 400:
      return new InvalidRequestError({ ...init, argErrors });
    case 401:
      return new UnauthorizedError(init);
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 405:
      return new MethodNotAllowedError(init);
    case 429:
      return new RateLimitError({ ...init, resetAt: input.resetAt });
    default:
      return new ServerError(init);
  }
}
