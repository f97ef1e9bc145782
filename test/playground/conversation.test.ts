import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from '../../dev/playground/memory-backend.js';
import { conversationTitle, messagesHtml, sidebarHtml, threadHtml } from '../../dev/playground/public/conversation.js';

const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
const count = (html: string, needle: string) => html.split(needle).length - 1;

async function scene() {
  const backend = createMemoryBackend({ now: () => new Date(Date.UTC(2024, 2, 1, 9, 0)) });
  await backend.sendSlashCommand('U0ALICE', 'C0CARE', '/care list');
  const first = (await backend.snapshot()).messages.C0CARE![0]!;
  await backend.clickButton('U0BOB', { where: 'message', channelId: 'C0CARE', ts: first.ts, blockId: 'buttons', actionId: 'complete', value: 'a1' });
  const s = await backend.snapshot();
  const ctx = { users: s.users, channels: s.channels, app: s.app, timeZone: 'UTC', now: Date.UTC(2024, 2, 1, 9, 0) };
  return { s, ctx, first };
}

describe('conversation view', () => {
  it('marks ephemeral messages "Only visible to you", and only for their reader', async () => {
    const { s, ctx } = await scene();
    const alice = messagesHtml(s, 'U0ALICE', 'C0CARE', ctx);
    expect(count(alice, 'Only visible to you')).toBe(2);
    expect(count(alice, 'class="msg msg-ephemeral"')).toBe(2);
    expect(alice).toContain('data-ephemeral="1"');
    expect(textOf(alice)).toContain('You ran /care list');
    const bob = messagesHtml(s, 'U0BOB', 'C0CARE', ctx);
    expect(bob).not.toContain('Only visible to you');
  });

  it('shows bot messages from Block Kit with the app badge, a reply count and an expandable thread', async () => {
    const { s, ctx, first } = await scene();
    const html = messagesHtml(s, 'U0BOB', 'C0CARE', ctx);
    expect(html).toContain('<span class="msg-author">Care Actions</span><span class="badge">APP</span>');
    expect(html).toContain(`data-kind="open-thread" data-ts="${first.ts}">1 reply</button>`);
    expect(textOf(html)).toContain('#102 Order <script>alert(1)</script> & <!channel> supplies');
    expect(html).not.toMatch(/<script/);
    expect(textOf(html)).not.toContain('Bob Carer completed this.');
    const thread = threadHtml(s, 'U0BOB', 'C0CARE', first.ts, ctx);
    expect(textOf(thread)).toContain('1 reply');
    expect(textOf(thread)).toContain('@bob completed this.');
    expect(textOf(thread)).toContain('Completed by @bob');
  });

  it('lists channels, the DM with the app, other DMs and Home in the sidebar', async () => {
    const { s } = await scene();
    const alice = sidebarHtml(s, 'U0ALICE', 'C0CARE');
    expect(textOf(alice)).toBe('App Home Care Actions Channels # general # care-team care-leads Direct messages ⚕ Care Actions APP Bob Carer');
    expect(alice).toContain('class="nav-item active" data-nav="C0CARE" aria-current="page"');
    expect(textOf(sidebarHtml(s, 'U0CAROL', 'home'))).not.toContain('Bob Carer');
    expect(conversationTitle(s, 'U0ALICE', 'D0ALICEBOB')).toBe('Bob Carer');
    expect(conversationTitle(s, 'U0ALICE', 'C0LEADS')).toBe('care-leads');
  });
});
