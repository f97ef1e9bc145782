/** A Slack Web API error answer: HTTP 200 with `{ok: false, error}` unless `status` says otherwise (429, 5xx). */
export class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
    this.name = 'ApiError';
  }

  body(): Record<string, unknown> {
    return { ok: false, error: this.error, ...this.extra };
  }
}

/** `invalid_blocks` / `invalid_arguments` with Slack's `[ERROR] ... [json-pointer:...]` lines. */
export function validationError(error: string, messages: string[]): ApiError {
  return new ApiError(error, { errors: messages.map((m) => m.replace(/^\[ERROR\] /, '')), response_metadata: { messages } });
}
