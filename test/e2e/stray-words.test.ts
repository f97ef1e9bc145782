/**
 * A typed sub-command with words after it gets that sub-command's own answer (issue 32, item 9): `/care forget
 * Val Visitor` says how to use forget, and no sub-command, whatever follows it, opens the New action form or says
 * "… is not a /care command". Only `/care new` (and words that are no sub-command) make a new action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_WORDS } from '../../src/slack/commands/parse.js';
import { type Harness, linkDirectly, startHarness } from './harness.js';

/** What the person sees first after typing the line: an answer through the command's response_url, or a modal. */
async function firstAnswer(h: Harness, user: string, line: string): Promise<{ kind: 'reply'; text: string } | { kind: 'modal'; callbackId: string }> {
  const sent = await h.driver.slash(user, line, { channel: '#care-team' });
  if (!sent.acked) throw new Error(`${line}: not acked`);
  return h.fake.waitFor(
    () => {
      const modal = h.fake.openModal(user);
      if (modal) return { kind: 'modal' as const, callbackId: String(modal.view.callback_id) };
      const posted = h.fake.state.responseUrls.find((r) => r.url === sent.responseUrl)?.lastPosted;
      if (!posted) return undefined;
      const message = h.fake.ephemerals(user).find((e) => e.ts === posted.ts && e.channel === posted.channel);
      return message ? { kind: 'reply' as const, text: h.fake.visibleText(message, { viewer: user }) } : undefined;
    },
    { timeoutMs: 15_000, message: `no answer to ${line}` },
  );
}

describe('sub-commands with stray words', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-03-10T10:00:00Z'), sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'amelia'); // an admin with a care account: the New action form would open for her
  });
  afterAll(async () => h?.close());

  it('`/care forget Val Visitor` gets forget’s own answer (pick one person with @), and no New action form', async () => {
    const answer = await firstAnswer(h, 'amelia', '/care forget Val Visitor');
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    expect(answer.kind).toBe('reply');
    const text = answer.kind === 'reply' ? answer.text : '';
    expect(text).toContain('Pick the person with @ from Slack’s list, one person: /care forget @person');
    expect(text).toContain('type /care new before them');
    expect(text).not.toContain('is not a /care command');
    expect((await firstAnswer(h, 'amelia', '/care export Val Visitor')).kind).toBe('reply');
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
  }, 60_000);

  it('no sub-command with words after it opens the New action form or is called "not a /care command"', async () => {
    const opened: string[] = [];
    const readAsNew: string[] = [];
    const formsBefore = h.fake.calls('views.open').length;
    for (const word of COMMAND_WORDS.filter((w) => w !== 'new')) {
      const line = `/care ${word} Val Visitor`;
      const answer = await firstAnswer(h, 'amelia', line);
      while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
      if (answer.kind === 'modal') opened.push(`${line} → ${answer.callbackId}`);
      else if (/not a \/care command|Read as \/care new/.test(answer.text)) readAsNew.push(`${line} → ${answer.text.slice(0, 80)}`);
    }
    expect(opened).toEqual([]);
    expect(readAsNew).toEqual([]);
    expect(h.fake.calls('views.open').length).toBe(formsBefore);
  }, 240_000);
});
