/**
 * A small structured logger: one JSON line per entry, levels, and redaction of
 * anything that looks like a credential (redact.ts), in messages and fields, at every level. Passed in everywhere (never a global).
 */
import { redactValue, scrubText } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
/** Replace credentials (by key name and by shape, see redact.ts); Errors become {name, message}. */
export function redact(value: unknown, known: readonly string[] = []): unknown {
  return redactValue(value, known);
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to process.stderr. */
  write?: (line: string) => void;
  base?: LogFields;
  now?: () => Date;
  /** The deployment's own secrets (signing secret, client secret, care API key and secret, …): never written, wherever they appear. */
  secrets?: readonly (string | undefined)[];
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  // Too short a value would take ordinary words out of every line.
  const known = (options.secrets ?? []).filter((v): v is string => typeof v === 'string' && v.length >= 8);
  const make = (base: LogFields): Logger => {
    const emit = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
      if (ORDER[level] < min) return;
      const entry = { time: now().toISOString(), level, msg: scrubText(message, known), ...(redact({ ...base, ...fields }, known) as LogFields) };
      write(JSON.stringify(entry));
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make(options.base ?? {});
}

/** A logger that drops everything (tests that do not read logs). */
export const silentLogger: Logger = createLogger({ level: 'silent' });

/** A logger that keeps its lines in memory, for tests that check what is (not) logged. */
export function memoryLogger(level: LogLevel = 'debug'): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level, write: (l) => lines.push(l) }), { lines });
}
