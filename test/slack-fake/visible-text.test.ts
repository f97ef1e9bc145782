import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';

let fake: SlackFake;
beforeAll(async () => {
  // "Now" is 2026-11-20 09:00 UTC.
  fake = await startSlackFake({ clock: manualClock(Date.UTC(2026, 10, 20, 9, 0, 0)) });
});
afterAll(() => fake.close());

const due = Date.UTC(2026, 10, 21, 2, 30, 0) / 1000; // 02:30 UTC on the 21st

describe('visibleText: what a person reads', () => {
  it("renders <!date^...> in each reader's own time zone, with Slack's pretty words", () => {
    const message = { text: `Due <!date^${due}^{date_short_pretty} at {time}|Nov 21 at 02:30 UTC>` };
    expect(fake.visibleText(message, { viewer: 'bob' })).toBe('Due tomorrow at 2:30 AM'); // London
    expect(fake.visibleText(message, { viewer: 'carol' })).toBe('Due today at 9:30 PM'); // New York, still the 20th
    expect(fake.visibleText({ text: `<!date^${due + 3 * 86400}^{date_short_pretty}|x>` }, { viewer: 'bob' })).toBe('Nov 24, 2026');
    expect(fake.visibleText(message, { viewer: 'dan' })).toBe('Due tomorrow at 1:30 PM'); // Sydney
    expect(fake.visibleText({ text: `<!date^${due}^{date_num} {date_long}|x>` }, { viewer: 'dan' })).toBe('2026-11-21 Saturday, November 21st, 2026');
  });

  it('shows names for mentions and channels, link labels, and drops mrkdwn markers', () => {
    const text = '*Call GP* for <@U0CAROL> in <#C0CARE> - <https://care.example/a/1|open it> &amp; _soon_';
    expect(fake.visibleText({ text })).toBe('Call GP for @carol in #care-team - open it & soon');
  });

  it('reads blocks in order: header, section text and fields, context, buttons, input labels', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Call GP' } },
      { type: 'section', text: { type: 'mrkdwn', text: '*Assignee:* <@U0BOB>' }, fields: [{ type: 'mrkdwn', text: '*Urgency*\nHigh' }] },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Created by <@U0ALICE>' }] },
      { type: 'divider' },
      {
        type: 'actions',
        elements: [
          { type: 'button', text: { type: 'plain_text', text: 'Complete' } },
          { type: 'button', text: { type: 'plain_text', text: 'Snooze' } },
        ],
      },
      { type: 'input', label: { type: 'plain_text', text: 'Note' }, element: { type: 'plain_text_input' } },
    ];
    expect(fake.visibleText({ text: 'fallback', blocks })).toBe('Call GP\nAssignee: @bob\nUrgency\nHigh\nCreated by @alice\n[Complete] [Snooze]\nNote');
  });
});
