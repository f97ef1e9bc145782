import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import { redactValue } from '../../logging/redact.js';
import type { Logger } from '../../logging/logger.js';

/**
 * Bolt's logger interface over ours (so Bolt's lines are JSON, redacted and
 * levelled like ours). Bolt and its Web API client log objects (request
 * bodies, headers, results) at debug: each is redacted by key before it is
 * turned into text, and the text is scrubbed again by our logger.
 */
export function boltLogger(logger: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const text = (msg: unknown[]) =>
    msg
      .map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(redactValue(m))))
      .join(' ')
      .slice(0, 2000);
  return {
    debug: (...msg) => logger.debug(text(msg), { source: 'bolt' }),
    info: (...msg) => logger.info(text(msg), { source: 'bolt' }),
    warn: (...msg) => logger.warn(text(msg), { source: 'bolt' }),
    error: (...msg) => logger.error(text(msg), { source: 'bolt' }),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
