/**
 * Issue 33, "Who's on now": `/care oncall` (a private answer) and the Home tab
 * show the shift on now, its seniors, the managers' channel, and each open urgent
 * action the app alerted with who is on it, or "nobody yet" and how long it has
 * gone unanswered. A safeguarding action only for those told about safeguarding.
 * Clocks: 2027-06-15 09:00 UTC (10:00 in London: the Day shift).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
const TAG = '5f1a00000000000000003501';

describe('who’s on now: /care oncall and the Home tab (issue 33)', () => {
  let h: Harness;
  const made: Record<string, { id: string; no: string }> = {};

  async function urgent(task: string, extra: { user_tags?: string[] } = {}) {
    await h.setTime(new Date(h.now().getTime() + 5_000));
    const a = (await h.control('actions', { task, due: new Date(h.now().getTime() + 3 * 60 * MIN).toISOString(), urgent: true, ...extra })) as {
      _id: string;
      action_no: string;
    };
    return { id: a._id, no: String(a.action_no) };
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only --show-tasks', { channel: '#care-leads' });
    // Urgent before the app's first look: never alerted, so not on anyone's list.
    made.quiet = await urgent('Urgent since before the app');
    await poll(h);
    await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
    await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya>');
    await command(h, 'amelia', `/care settings safeguarding tags ${TAG}`);
    await command(h, 'amelia', '/care settings safeguarding officers <@U0OLIVER|oliver>');
    made.waiting = await urgent('Mrs Patel has not had her insulin');
    made.taken = await urgent('Mr Ahmed needs two carers to stand');
    made.done = await urgent('Call the GP about the rash');
    made.sg = await urgent('SG concern: bruising seen on an arm', { user_tags: [TAG] });
    await poll(h);
    // Sophie takes one from its alert; another is completed in the care system's web app.
    const alert = h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === made.taken!.id);
    if (!alert) throw new Error('no urgent alert for the action to take');
    await h.setTime(new Date(h.now().getTime() + 4 * MIN));
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert.ts, text: 'Take it' });
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.messages('#care-leads').find((m) => m.ts === alert.ts)!).includes('Taken by') ? true : undefined), {
      timeoutMs: 10_000,
      message: 'not taken',
    });
    await h.control(`actions/${made.done.id}/complete`, {});
    await poll(h);
    await h.setTime(new Date(h.now().getTime() + 20 * MIN));
  });
  afterAll(async () => h?.close());

  it('lists the shift on, its seniors, the managers’ channel and each open urgent action with who is on it, privately', async () => {
    const reply = await command(h, 'priya', '/care oncall');
    const text = reply.text;
    expect(text).toContain('On now: Day shift — 07:00 to 19:00');
    expect(text).toContain('Seniors on the Day shift: @priya');
    expect(text).toContain('Managers’ channel: #general');
    expect(text).toContain('Open urgent actions (2)');
    const line = (no: string) => text.split('\n').find((l) => l.includes(`#${no} `)) ?? '';
    expect(line(made.waiting!.no)).toMatch(/nobody yet, unanswered for 2\d minutes/);
    expect(line(made.taken!.no)).toMatch(/@sophie on it since/);
    // Completed, never alerted, and (for someone not told of safeguarding) safeguarding: not listed.
    for (const gone of [made.done!, made.quiet!, made.sg!]) expect(text).not.toContain(`#${gone.no} `);
    // The person's own private view: the task text shows, as in /care mine.
    expect(text).toContain('Mrs Patel has not had her insulin');
    expect(reply.message.text).not.toContain('insulin');
  });

  it('shows a safeguarding action only to those told about safeguarding', async () => {
    const text = (await command(h, 'oliver', '/care oncall')).text;
    expect(text).toContain('Open urgent actions (3)');
    expect(text).toContain(`#${made.sg!.no} `);
  });

  it('is on the Home tab too, nobody-yet first', async () => {
    await h.driver.openHome('sophie');
    const home = await h.fake.waitFor(
      () => {
        const v = h.fake.home('U0SOPHIE');
        const t = v ? h.fake.visibleText(v, { viewer: 'sophie' }) : '';
        return t.includes('Open urgent actions') ? t : undefined;
      },
      { timeoutMs: 10_000, message: 'no on-call section on the Home tab' },
    );
    expect(home).toContain('Seniors on the Day shift: @priya');
    expect(home.indexOf(`#${made.waiting!.no} `)).toBeLessThan(home.indexOf(`#${made.taken!.no} `));
    expect(home).toContain('nobody yet');
  });

  it('answers words after it with one sentence, and is in /care help', async () => {
    expect((await command(h, 'sophie', '/care oncall now')).text).toContain('/care oncall takes nothing after it');
    expect((await command(h, 'sophie', '/care help')).text).toContain('/care oncall');
  });
});
