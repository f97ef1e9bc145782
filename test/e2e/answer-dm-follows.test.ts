/**
 * The assignee's DM about an answer ("@priya is on it", ledger kind `answer`) is a post about the action: when the
 * action is completed, reassigned or made not urgent, the DM says so and its buttons go (post-redraw.ts,
 * redraw-kinds.ts). Through the sandbox over HTTP, the Slack fake and a real SQLite store; the world clock
 * (2027-06-15 09:00 UTC, 10:00 in London) moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;

type Meta = { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
const ofAction = (kind: string, id: string) => (m: Meta) => deliveryKind(m) === kind && deliveryActionId(m) === id;

describe('the assignee’s DM about an answer follows its action', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = (minutes: number) => h.setTime(new Date(h.now().getTime() + minutes * MIN));
  const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
  /** Sophie's DM about the answer to this action, as she reads it now. */
  const answerDm = (id: string) => {
    const dms = h.fake.dms('sophie').filter(ofAction('answer', id));
    return dms.length === 1 ? h.fake.visibleText(dms[0]!, { viewer: 'sophie' }) : '';
  };
  const dmSays = (id: string, words: string, message: string) =>
    h.fake.waitFor(() => (answerDm(id).includes(words) ? answerDm(id) : undefined), { timeoutMs: 10_000, message });

  /** An urgent action assigned to Sophie, on which Priya says "I'm on it": Sophie is DMed once, with the card's buttons. */
  async function onItForSophie(task: string): Promise<{ id: string; no: string }> {
    await later(1);
    const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: care.sophie! });
    await poll(h);
    const post = await h.fake.waitFor(() => alert(a._id), { timeoutMs: 10_000, message: 'no urgent alert' });
    await later(1);
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'I’m on it' });
    expect((await h.driver.modal('priya').fill('Note', 'Going now').submit()).outcome).toBe('closed');
    const sent = await dmSays(a._id, 'is on it since', 'Sophie was never told Priya is on it');
    expect(sent).toContain('(it stays assigned to you)');
    expect(sent).toContain('[Complete]');
    expect(sent).not.toContain('Going now');
    // A minute later: what changes next is news to the DM.
    await later(1);
    return { id: a._id, no: a.action_no };
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await poll(h);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
  });
  afterAll(async () => h?.close());

  it('completed through Slack: the DM says by whom and when, and has no buttons', async () => {
    const a = await onItForSophie('Mrs Patel has not had her insulin');
    expect((await command(h, 'priya', `/care done ${a.no}`)).text).toContain('by @priya');
    const now = await dmSays(a.id, 'It was completed by @priya', 'the DM never said the action was completed');
    expect(now).toContain('nothing more to do');
    expect(now).not.toContain('(it stays assigned to you)');
    expect(now).not.toMatch(/\[(Complete|Reopen|Edit|History)\]/);
    // Still one DM (edited, not a second message), and what it told stays: Priya was on it.
    expect(now).toMatch(/@priya is on it since \d\d:\d\d/);
  });

  it('reassigned in the care system: the DM says it is with someone else now, and has no buttons', async () => {
    const a = await onItForSophie('Call the GP about the rash');
    await h.control(`actions/${a.id}`, { assigned_to: care.oliver }, 'PATCH');
    await poll(h);
    const now = await dmSays(a.id, 'It is with @oliver now, no longer to you', 'the DM never said it was reassigned');
    expect(now).not.toContain('(it stays assigned to you)');
    expect(now).not.toMatch(/\[(Complete|Edit|History)\]/);
  });

  it('made not urgent in the care system: the DM says so, and has no buttons', async () => {
    const a = await onItForSophie('Bring the spare hoist battery');
    await h.control(`actions/${a.id}`, { urgent: false }, 'PATCH');
    await poll(h);
    const now = await dmSays(a.id, 'It is no longer urgent', 'the DM never said it is no longer urgent');
    expect(now).not.toMatch(/\[(Complete|Edit|History)\]/);
    expect(h.fake.dms('sophie').filter(ofAction('answer', a.id))).toHaveLength(1);
  });
});
