import { describe, expect, it } from 'vitest';
import { ConfigError, loadAppConfig, loadConfig } from '../src/config.js';

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
    expect(c.RETENTION_DAYS).toBe(30);
  });

  it('reads RETENTION_DAYS as days (0: at once) or off, and says what it takes otherwise', () => {
    expect(loadConfig({ ...good, RETENTION_DAYS: '0' }).RETENTION_DAYS).toBe(0);
    expect(loadConfig({ ...good, RETENTION_DAYS: ' 90 ' }).RETENTION_DAYS).toBe(90);
    expect(loadConfig({ ...good, RETENTION_DAYS: 'off' }).RETENTION_DAYS).toBe('off');
    for (const bad of ['-1', 'forever', '4000', '1.5']) {
      let err: unknown;
      try {
        loadConfig({ ...good, RETENTION_DAYS: bad });
      } catch (e) {
        err = e;
      }
      expect((err as ConfigError).problems, bad).toEqual([
        expect.stringMatching(/^RETENTION_DAYS must be a whole number of days from 0 to 3650 \(0: at once\), or off/),
      ]);
    }
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

  it('takes SLACK_TEAM_ID as a Slack team id (unset by default), and says so of anything else', () => {
    expect(loadConfig(good).SLACK_TEAM_ID).toBeUndefined();
    expect(loadConfig({ ...good, SLACK_TEAM_ID: 'T0CARE' }).SLACK_TEAM_ID).toBe('T0CARE');
    const err = (() => {
      try {
        loadConfig({ ...good, SLACK_TEAM_ID: 'care-team' });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err?.problems).toEqual(['SLACK_TEAM_ID must be a Slack team id (T followed by capitals and digits)']);
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

  describe('multi-workspace mode', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const multi = {
      SLACK_SIGNING_SECRET: 'sig',
      SLACK_CLIENT_ID: '123.456',
      SLACK_CLIENT_SECRET: 'client-secret-value',
      SLACK_STATE_SECRET: 'state-secret-at-least-16',
      ENCRYPTION_KEY: key,
    };
    const problems = (env: Record<string, string>) => {
      try {
        loadAppConfig(env);
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    };

    it('is chosen by the four OAuth variables without SLACK_BOT_TOKEN, and needs no CARE_* variables', () => {
      const c = loadAppConfig(multi);
      expect(c).toMatchObject({ mode: 'multi', SLACK_CLIENT_ID: '123.456', SLACK_STATE_SECRET: 'state-secret-at-least-16', ENCRYPTION_KEY: key, PORT: 3000 });
      expect(c.SLACK_BOT_TOKEN).toBeUndefined();
    });

    it('leaves single-workspace mode as it was (ENCRYPTION_KEY alone chooses no mode)', () => {
      expect(loadAppConfig(good)).toMatchObject({ mode: 'single', SLACK_BOT_TOKEN: 'xoxb-1', CARE_API_KEY: 'key' });
      expect(loadConfig({ ...good, ENCRYPTION_KEY: key })).toMatchObject({ mode: 'single', ENCRYPTION_KEY: key });
    });

    it('names each missing variable of a partial set, and never echoes the ones given', () => {
      const found = problems({ SLACK_SIGNING_SECRET: 'sig', SLACK_CLIENT_ID: '123.456', SLACK_CLIENT_SECRET: 'client-secret-value' });
      expect(found).toEqual([
        'SLACK_STATE_SECRET is required for multi-workspace mode (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET set; set all four, or none of the SLACK_CLIENT_/SLACK_STATE_ ones for one workspace)',
        'ENCRYPTION_KEY is required for multi-workspace mode (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET set; set all four, or none of the SLACK_CLIENT_/SLACK_STATE_ ones for one workspace)',
      ]);
      expect(found.join('\n')).not.toContain('client-secret-value');
      expect(problems({ ...multi, SLACK_CLIENT_ID: '' }).map((p) => p.split(' ')[0])).toEqual(['SLACK_CLIENT_ID']);
    });

    it('refuses SLACK_BOT_TOKEN beside the OAuth variables, and loadConfig (single-workspace start-up) refuses multi mode', () => {
      expect(problems({ ...multi, SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual([
        'SLACK_BOT_TOKEN must be unset in multi-workspace mode (each workspace gets its bot token by installing the app); or unset SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET for one workspace',
      ]);
      expect(() => loadConfig(multi)).toThrow(ConfigError);
    });

    it('refuses SLACK_TEAM_ID beside the OAuth variables: each workspace is known by its installation', () => {
      expect(problems({ ...multi, SLACK_TEAM_ID: 'T0CARE' })).toEqual([
        'SLACK_TEAM_ID must be unset in multi-workspace mode (each workspace is known by its installation)',
      ]);
    });

    it('refuses Socket Mode (SLACK_APP_TOKEN) beside the OAuth variables: many workspaces reach the app over HTTP', () => {
      expect(problems({ ...multi, SLACK_APP_TOKEN: 'xapp-1-A1-2-abc' })).toEqual([
        'SLACK_APP_TOKEN must be unset in multi-workspace mode: Socket Mode serves one workspace; many workspaces reach the app over HTTP (Request URL https://<your host>/slack/events)',
      ]);
    });

    it('takes CARE_API_HOSTS as the care API hosts admins may connect to, and names what is wrong with a bad list', () => {
      expect(loadAppConfig(multi).CARE_API_HOSTS).toBeUndefined();
      expect(loadAppConfig({ ...multi, CARE_API_HOSTS: ' api.carehq.co.uk , 127.0.0.1:4010,[::1]:8443 ' }).CARE_API_HOSTS).toEqual([
        { host: 'api.carehq.co.uk' },
        { host: '127.0.0.1', port: 4010 },
        { host: '[::1]', port: 8443 },
      ]);
      expect(problems({ ...multi, CARE_API_HOSTS: 'https://api.carehq.co.uk/v1' })).toEqual([
        'CARE_API_HOSTS must be a comma list of host names, each optionally host:port (e.g. api.carehq.co.uk,127.0.0.1:4010): "https://api.carehq.co.uk/v1" is not a host name: give host names only, without https:// or a path',
      ]);
      expect(problems({ ...multi, CARE_API_HOSTS: '127.0.0.1:99999' })).toEqual([
        'CARE_API_HOSTS must be a comma list of host names, each optionally host:port (e.g. api.carehq.co.uk,127.0.0.1:4010): "127.0.0.1:99999" has no valid port (1-65535)',
      ]);
      expect(problems({ ...multi, CARE_API_HOSTS: ' , ' })).toEqual([
        'CARE_API_HOSTS must list at least one host name (e.g. api.carehq.co.uk,127.0.0.1:4010), or be left empty',
      ]);
    });

    it('takes SLACK_MARKETPLACE_APPROVED as true or false (default false), and says so of anything else', () => {
      expect(loadAppConfig(multi).SLACK_MARKETPLACE_APPROVED).toBe(false);
      expect(loadAppConfig({ ...multi, SLACK_MARKETPLACE_APPROVED: 'true' }).SLACK_MARKETPLACE_APPROVED).toBe(true);
      expect(problems({ ...multi, SLACK_MARKETPLACE_APPROVED: 'yes' })).toEqual(['SLACK_MARKETPLACE_APPROVED must be true or false']);
    });

    it('refuses an unusable ENCRYPTION_KEY or a short state secret without echoing them', () => {
      const found = problems({ ...multi, ENCRYPTION_KEY: 'not-a-real-key-value', SLACK_STATE_SECRET: 'short-state' });
      expect(found).toEqual([
        'SLACK_STATE_SECRET must be at least 16 characters: it signs the OAuth state (e.g. openssl rand -hex 32)',
        expect.stringMatching(/^ENCRYPTION_KEY is not usable: The 1st key in ENCRYPTION_KEY is not 32 bytes/),
      ]);
      expect(found.join('\n')).not.toMatch(/not-a-real-key-value|short-state/);
    });
  });
});
