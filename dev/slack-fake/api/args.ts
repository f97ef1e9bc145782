import { ApiError } from './api-error.js';

/** Arguments of a Web API call, from a form body (all strings) or a JSON body (typed). */
export type Args = Record<string, unknown>;

export function optString(args: Args, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new ApiError('invalid_arguments', { response_metadata: { messages: [`[ERROR] ${key} must be a string`] } });
  return value;
}

export function requireString(args: Args, key: string, missingError = 'invalid_arguments'): string {
  const value = optString(args, key);
  if (value === undefined) {
    throw new ApiError(
      missingError,
      missingError === 'invalid_arguments' ? { response_metadata: { messages: [`[ERROR] missing required field: ${key}`] } } : {},
    );
  }
  return value;
}

export function optBool(args: Args, key: string): boolean | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  return value === 'true' || value === '1' || value === 1;
}

export function optNumber(args: Args, key: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new ApiError('invalid_arguments', { response_metadata: { messages: [`[ERROR] ${key} must be a number`] } });
  return n;
}

/** A JSON-valued argument: a JSON string in form bodies, a value in JSON bodies. */
export function optJson(args: Args, key: string, errorCode: string): unknown {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new ApiError(errorCode);
  }
}
