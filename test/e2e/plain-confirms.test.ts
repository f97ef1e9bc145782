/**
 * Issue 23, item 7: Slack's confirmation dialog shows its text as plain text, so
 * markup in it reads as stray stars and `<@U0OLIVER>`. Every dialog names the
 * action and the person in plain words: a linked person by their Slack name, an
 * unlinked one by their care name. Clocks: 2027-06-15 09:00 UTC (10:00 in London).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { careUserIdByEmail, command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/** The demo workspace, where Oliver's Slack name is not his care name ("Olly" in Slack, Oliver Bennett in the care system). */
function workspaceWithOlly() {
  const w = careWorkspace();
  return { ...w, users: w.users.map((u) => (u.id === 'U0OLIVER' ? { ...u, realName: 'Olly Bennett' } : u)) };
}

type Dialog = { title: { type: string; text: string }; text: { type: string; text: string } };

describe('confirmation dialogs on channel posts are plain text with names (issue 23, item 7)', () => {
  let h: Harness;
  let oliver: string;
  const alertOf = (actionId: string) =>
    h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), { timeoutMs: 10_000 });
  /** What Priya reads in the dialog of a button on the alert (she presses Cancel: nothing happens). */
  const dialogSeen = async (actionId: string, button: string) => {
    const post = await alertOf(actionId);
    const result = await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: button, confirm: 'cancel' });
    expect(result.cancelled).toBe(true);
    return h.fake.confirmations('priya').at(-1)!;
  };
  /** The dialog object as the app sent it to Slack. */
  const dialogSent = async (actionId: string, button: string): Promise<Dialog> => {
    const post = await alertOf(actionId);
    const blocks = JSON.parse(JSON.stringify(post.blocks)) as { elements?: { text?: { text: string }; confirm?: Dialog }[] }[];
    return blocks.flatMap((b) => b.elements ?? []).find((e) => e.text?.text === button)!.confirm!;
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' }, workspace: workspaceWithOlly() });
    oliver = await linkDirectly(h, 'oliver');
    await linkDirectly(h, 'priya');
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('Complete and Take it on an urgent alert name a linked assignee by their Slack name, with no markup, and Slack is sent plain_text', async () => {
    await h.setTime(new Date(h.now().getTime() + 5_000));
    const a = await webAppAction(h, { task: 'Check the bed rails in room 4', due: new Date('2027-06-15T15:00:00Z'), urgent: true, assigned_to: oliver });
    await poll(h);

    const complete = await dialogSeen(a._id, 'Complete');
    expect(complete.title).toBe(`Complete action #${a.action_no}?`);
    expect(complete.text).toBe(`Complete action #${a.action_no}, assigned to Olly Bennett? Everyone in this channel will see that you did.`);
    const take = await dialogSeen(a._id, 'Take it');
    expect(take.text).toBe(`Action #${a.action_no} is assigned to Olly Bennett. Assign it to yourself instead? They will be told.`);
    for (const button of ['Complete', 'Take it']) {
      const sent = await dialogSent(a._id, button);
      expect(sent.text.type).toBe('plain_text');
      expect(sent.text.text).not.toMatch(/[*<>]/);
    }
  });

  it('an assignee who is not linked to Slack is named by their care name', async () => {
    await h.setTime(new Date(h.now().getTime() + 5_000));
    const liam = await careUserIdByEmail(h, 'liam.oconnor@brightwatercare.example');
    const a = await webAppAction(h, { task: 'Service the hoist', due: new Date('2027-06-15T16:00:00Z'), urgent: true, assigned_to: liam });
    await poll(h);
    const dialog = await dialogSeen(a._id, 'Complete');
    expect(dialog.text).toBe(`Complete action #${a.action_no}, assigned to Liam O'Connor? Everyone in this channel will see that you did.`);
    expect((await h.control(`actions/${a._id}`)).completed).toBeNull();
  });
});
