import { describe, expect, it } from 'vitest';
import { describeRetention, redactCompletedBefore, redactionKey } from '../../../src/services/evidence/retention.js';
import { redactedMessage } from '../../../src/slack/views/redacted.js';

const NOW = new Date('2026-04-10T12:00:00Z');
const DAY = 86_400_000;

describe('retention, the pure parts', () => {
  it('is due for completions at or before N days ago; 0 is now; off never', () => {
    expect(redactCompletedBefore(30, NOW)).toBe(NOW.getTime() - 30 * DAY);
    expect(redactCompletedBefore(0, NOW)).toBe(NOW.getTime());
    expect(redactCompletedBefore('off', NOW)).toBeNull();
  });

  it('says what a setting does in words an admin reads', () => {
    expect(describeRetention('off')).toBe('kept forever');
    expect(describeRetention(0)).toBe('edited down to a neutral line as soon as the action is completed');
    expect(describeRetention(1)).toBe('edited down to a neutral line 1 day after the action is completed');
    expect(describeRetention(30)).toBe('edited down to a neutral line 30 days after the action is completed');
  });

  it('keys one redaction per message, whatever row recorded it', () => {
    const row = { actionId: 'a1', recipient: 'user:T1/U1', slackChannel: 'D1', slackTs: '1.2' };
    expect(redactionKey(row)).toEqual({ kind: 'redact', actionId: 'a1', occurrence: 'D1/1.2', recipient: 'user:T1/U1' });
  });

  it('edits a message down to its number, with no buttons and no markup from the number', () => {
    expect(redactedMessage({ actionId: 'a1', actionNo: '301' })).toEqual({
      text: 'Action #301 — completed; details in the care system',
      blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: 'Action #301 — completed; details in the care system' }] }],
    });
    expect(redactedMessage({ actionId: 'a1', actionNo: '' }).text).toBe('Action Id a1 — completed; details in the care system');
    expect(redactedMessage({ actionId: 'a1', actionNo: '<!channel>' }).text).not.toContain('<!channel>');
  });
});
