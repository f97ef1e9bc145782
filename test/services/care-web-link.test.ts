import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { careWebUrl } from '../../src/services/care-web-link.js';

const env = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_SIGNING_SECRET: 'sig',
  CARE_API_BASE_URL: 'http://127.0.0.1:4010/v1',
  CARE_ACCOUNT_ID: 'acc',
  CARE_API_KEY: 'key',
  CARE_API_SECRET: 'sec',
};
const ID = '65f0c0ffee0ddba11ab1e001';

function problemWith(value: string): string | undefined {
  try {
    loadConfig({ ...env, CARE_WEB_URL: value });
    return undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems.find((p) => p.startsWith('CARE_WEB_URL '));
  }
}

describe('CARE_WEB_URL: the care system page of an action', () => {
  it('is optional: no link without it', () => {
    expect(loadConfig(env).CARE_WEB_URL).toBeUndefined();
    expect(loadConfig({ ...env, CARE_WEB_URL: '  ' }).CARE_WEB_URL).toBeUndefined();
    expect(careWebUrl(undefined, { id: ID, actionNo: '12' })).toBeUndefined();
  });

  it('accepts an http(s) template with {id} or {no}', () => {
    expect(loadConfig({ ...env, CARE_WEB_URL: 'https://care.example/actions/{id}' }).CARE_WEB_URL).toBe('https://care.example/actions/{id}');
    expect(problemWith('http://care.local:8080/a?no={no}')).toBeUndefined();
  });

  it('names each problem on its own line', () => {
    expect(problemWith('https://care.example/actions')).toContain('must contain {id}');
    expect(problemWith('care.example/actions/{id}')).toContain('must be a URL');
    expect(problemWith('ftp://care.example/{id}')).toContain('https:// or http://');
  });

  it('fills in the Id and the action number, escaped; no link when the number is asked for and missing', () => {
    expect(careWebUrl('https://care.example/actions/{id}', { id: ID, actionNo: '12' })).toBe(`https://care.example/actions/${ID}`);
    expect(careWebUrl('https://care.example/a/{no}?id={id}', { id: ID, actionNo: 'A 7/2' })).toBe(`https://care.example/a/A%207%2F2?id=${ID}`);
    expect(careWebUrl('https://care.example/a/{no}', { id: ID, actionNo: null })).toBeUndefined();
  });
});
