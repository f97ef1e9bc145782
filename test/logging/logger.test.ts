import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/logging/logger.js';

describe('logger', () => {
  it('never writes values under credential-like keys', () => {
    const log = memoryLogger();
    log.info('calling', { apiSecret: 'sek', headers: { 'X-CareHQ-Signature': 'abc' }, botToken: 'xoxb-1', path: '/v1/actions' });
    const line = log.lines.join('\n');
    expect(line).not.toContain('sek');
    expect(line).not.toContain('abc');
    expect(line).not.toContain('xoxb-1');
    expect(line).toContain('/v1/actions');
  });

  it('drops entries below its level and keeps child fields', () => {
    const log = memoryLogger('info');
    const child = log.child({ job: 'digest' });
    child.debug('hidden');
    child.warn('shown');
    expect(log.lines).toHaveLength(1);
    expect(JSON.parse(log.lines[0]!)).toMatchObject({ level: 'warn', msg: 'shown', job: 'digest' });
  });
});
