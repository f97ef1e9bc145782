import { describe, expect, it } from 'vitest';
import { createLogger, type Logger, memoryLogger } from '../../src/logging/logger.js';

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

describe('what never reaches a log line, at any level', () => {
  const CODE = '01795614619.71679595849607.b4fc2bdcae365804375939f93c6cba7b675652fbb6b50c624e52f64c1902d417';
  const lineOf = (write: (log: Logger) => void, secrets: string[] = []) => {
    const lines: string[] = [];
    write(createLogger({ level: 'debug', write: (l) => lines.push(l), secrets }));
    return lines.join('\n');
  };

  it('takes credentials out of message text: a form body, a JSON body, a query string, headers, tokens and signatures', () => {
    const line = lineOf((log) => {
      log.debug(`http request body: {"code":"${CODE}","client_id":"111.222","client_secret":"cs-1234567"}`);
      log.debug('http request body: grant_type=refresh_token&refresh_token=xoxe-1-abc&client_secret=cs-2345678');
      log.debug(`GET /slack/oauth_redirect?code=${CODE}&state=s`);
      log.debug('headers: {"Authorization":"Bearer xoxb-1-2-abc","X-CareHQ-APIKey":"key-123456","X-CareHQ-Signature":"deadbeef"}');
      log.debug('sent with Authorization: Basic dXNlcjpwYXNz and x-slack-signature v0=a3f0c1d2e3f4a5b6c7d8e9f0a1b2c3d4');
      log.warn('token xoxb-111-222-abcdef was refused; app token xapp-1-A1-2-abc');
      log.error('could not reach https://admin:pa55word@db.example/x');
    });
    for (const secret of [CODE, 'cs-1234567', 'cs-2345678', 'xoxe-1-abc', 'xoxb-1-2-abc', 'key-123456', 'deadbeef', 'dXNlcjpwYXNz', 'a3f0c1d2e3f4']) {
      expect(line).not.toContain(secret);
    }
    expect(line).not.toMatch(/xox[a-z]-|xapp-1|pa55word/);
    expect(line).toContain('111.222'); // what is not a credential stays
    expect(line).toContain('state=s');
  });

  it('takes out a one-time code under a `code` field, but keeps error codes', () => {
    const line = lineOf((log) => {
      log.debug('exchange', { query: { code: CODE }, error: { code: 'ECONNREFUSED' } });
      log.warn('slack failed', { code: 'slack_webapi_platform_error', status: 500 });
    });
    expect(line).not.toContain(CODE);
    expect(line).toContain('ECONNREFUSED');
    expect(line).toContain('slack_webapi_platform_error');
  });

  it('never writes the deployment’s own secrets, wherever they turn up (a nested string, an error message)', () => {
    const line = lineOf(
      (log) => {
        log.info('starting', { nested: { list: ['the signing secret is sig-secret-value'] } });
        log.error('failed', { error: new Error('care api refused care-secret-value') });
      },
      ['sig-secret-value', 'care-secret-value'],
    );
    expect(line).not.toContain('sig-secret-value');
    expect(line).not.toContain('care-secret-value');
    expect(line).toContain('[redacted]');
  });
});
