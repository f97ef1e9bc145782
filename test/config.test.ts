import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const good = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_SIGNING_SECRET: 'sig',
  CARE_API_BASE_URL: 'http://127.0.0.1:4010/v1',
  CARE_ACCOUNT_ID: 'acc',
  CARE_API_KEY: 'key',
  CARE_API_SECRET: 'sec',
};

describe('configuration from env', () => {
  it('fills the documented defaults', () => {
    const c = loadConfig(good);
    expect(c).toMatchObject({ PORT: 3000, APP_TIMEZONE: 'Europe/London', DATA_DIR: './data', LOG_LEVEL: 'info', ADMIN_SLACK_USER_IDS: [] });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('names every missing or invalid variable on its own line, without echoing secrets', () => {
    let err: unknown;
    try {
      loadConfig({ SLACK_BOT_TOKEN: 'nope-secret-value', APP_TIMEZONE: 'Mars/Olympus', PORT: 'x', DATABASE_URL: 'mysql://h' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'CARE_API_BASE_URL',
      'CARE_ACCOUNT_ID',
      'CARE_API_KEY',
      'CARE_API_SECRET',
      'APP_TIMEZONE',
      'PORT',
      'DATABASE_URL',
    ]) {
      expect(problems.some((p) => p.startsWith(`${name} `))).toBe(true);
    }
    expect((err as Error).message).not.toContain('nope-secret-value');
  });

  it('splits the admin list', () => {
    expect(loadConfig({ ...good, ADMIN_SLACK_USER_IDS: 'U1, U2' }).ADMIN_SLACK_USER_IDS).toEqual(['U1', 'U2']);
  });

  it('reads the metrics port and token, and refuses a port shared with PORT or a short token without echoing it', () => {
    expect(loadConfig({ ...good, METRICS_PORT: '', METRICS_TOKEN: '' })).toMatchObject({ METRICS_PORT: undefined, METRICS_TOKEN: undefined });
    expect(loadConfig({ ...good, METRICS_PORT: '9464', METRICS_TOKEN: 'a-long-enough-token' })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_TOKEN: 'a-long-enough-token',
    });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...good, ...env });
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ METRICS_PORT: '3000' })).toEqual(['METRICS_PORT must differ from PORT (leave it empty to serve /metrics on PORT)']);
    expect(problems({ METRICS_PORT: 'nine' })).toEqual(['METRICS_PORT must be a port number']);
    const short = problems({ METRICS_TOKEN: 'tiny-secret' });
    expect(short).toEqual(['METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 32)']);
    expect(short.join('\n')).not.toContain('tiny-secret');
  });
});
