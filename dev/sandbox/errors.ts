/** Field name -> list of validation messages, as in the API's `arg_errors`. */
export type ArgErrors = Record<string, string[]>;

/** An error answered with the API's error body `{"hint", "arg_errors"?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly hint: string,
    readonly argErrors?: ArgErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(hint);
    this.name = 'ApiError';
  }

  body(): string {
    return JSON.stringify(this.argErrors ? { hint: this.hint, arg_errors: this.argErrors } : { hint: this.hint });
  }
}

/** 400 with arg_errors; the hint names the offending parameters. */
export function invalid(argErrors: ArgErrors): ApiError {
  return new ApiError(400, `Invalid request: see arg_errors (${Object.keys(argErrors).join(', ')}).`, argErrors);
}

/** Collects arg_errors while validating, then throws them all at once. */
export class ArgErrorBag {
  readonly errors: ArgErrors = {};
  add(param: string, message: string): void {
    (this.errors[param] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw invalid(this.errors);
  }
}
