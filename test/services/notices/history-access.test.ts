/**
 * Whether the app may read history: all three optional history scopes granted, learned once from Slack;
 * and the words an admin is told of a message that may not have arrived (no task text, no resident).
 */
import { describe, expect, it } from 'vitest';
import { createHistoryAccess, grantsHistory } from '../../../src/services/notices/history-access.js';
import { recipientText, uncertainText } from '../../../src/services/notices/uncertain-notices.js';

const REQUIRED = ['commands', 'chat:write', 'users:read', 'users:read.email', 'im:write', 'channels:read', 'groups:read', 'files:write'];

describe('history access', () => {
  it('is granted only with all three history scopes', () => {
    expect(grantsHistory([...REQUIRED, 'im:history', 'channels:history', 'groups:history'])).toBe(true);
    expect(grantsHistory(REQUIRED)).toBe(false);
    expect(grantsHistory([...REQUIRED, 'im:history', 'channels:history'])).toBe(false);
  });

  it('asks Slack once, asks again after a failed ask, and reads as before when Slack does not say', async () => {
    let asks = 0;
    const answers: (() => Promise<string[] | undefined>)[] = [
      async () => {
        throw new Error('network');
      },
      async () => REQUIRED,
    ];
    const access = createHistoryAccess({
      grantedScopes: () => {
        asks += 1;
        return answers[asks - 1]!();
      },
    });
    await expect(access.readable()).rejects.toThrow('network');
    expect(await access.readable()).toBe(false);
    expect(await access.readable()).toBe(false);
    expect(asks).toBe(2);
    expect(await createHistoryAccess({ grantedScopes: async () => undefined }).readable()).toBe(true);
  });
});

describe("an admin's notice of an uncertain delivery", () => {
  it('names who it was for and the action, says it was not sent again, and carries no task text', () => {
    const text = uncertainText({ kind: 'completion', actionId: '301', recipient: 'user:T0CARE/U0SOPHIE' });
    expect(text).toContain('<@U0SOPHIE>');
    expect(text).toContain('care action Id 301');
    expect(text).toMatch(/may not have arrived/);
    expect(text).toMatch(/not sent again/);
    expect(recipientText('channel:T0CARE/C0TEAM')).toBe('<#C0TEAM>');
    expect(recipientText('email:T0CARE/0123456789abcdef')).toBe('a notification group address');
  });
});
