/**
 * The logger shape the care client accepts. Structural on purpose: src/care
 * imports nothing of the app, and any object with these four methods fits
 * (the app's own logger included).
 */
export interface CareLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ignore = (): void => undefined;

/** Drops everything: the default when no logger is given. */
export const noopLogger: CareLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
