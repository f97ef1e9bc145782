/** The pure parts of safe buttons on channel posts: which buttons, their dialogs, the "by whom" row, Undo's sealed value. */
import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { createSignedMetadata, metadataKey } from '../../src/slack/sealed/signed-metadata.js';
import { readUndoValue, undoValue } from '../../src/slack/sealed/undo-token.js';
import { actionCard, cardButtons } from '../../src/slack/views/action-card.js';
import { renderActionGroups } from '../../src/slack/views/action-list.js';
import { section } from '../../src/slack/views/blocks.js';
import { urgentAlert } from '../../src/slack/views/notices.js';
import { patchActionBlocks } from '../../src/slack/views/patch.js';

const now = new Date('2027-06-15T09:00:00Z');
const ctx = { now, timezone: 'Europe/London', showTask: true };
const action = (extra: Partial<ActionView> = {}): ActionView => ({
  id: 'a'.repeat(24),
  actionNo: '4',
  task: 'Give the 2pm insulin',
  due: new Date('2027-06-15T14:00:00Z'),
  urgent: true,
  completed: null,
  assignee: { slackUserId: 'U0OLIVER', slackName: 'Oliver Bennett' },
  ...extra,
});
type El = { action_id?: string; text?: { text: string }; confirm?: { title: { text: string }; text: { text: string } } };
const elements = (blocks: unknown[]): El[] =>
  blocks.flatMap((b) => {
    const block = b as { accessory?: El; elements?: El[]; type: string };
    return [...(block.accessory ? [block.accessory] : []), ...(block.type === 'actions' ? (block.elements ?? []) : [])];
  });
const labels = (blocks: unknown[]) => elements(blocks).map((e) => e.text?.text);
const ids = (blocks: unknown[]) => blocks.map((b) => (b as { block_id?: string }).block_id);

describe('buttons by surface', () => {
  it('a private surface (ephemeral, DM, Home) asks nothing', () => {
    expect(elements([cardButtons(action())]).some((e) => e.confirm)).toBe(false);
    expect(elements([cardButtons(action({ completed: now }))]).some((e) => e.confirm)).toBe(false);
  });

  it('a channel post where task text shows: Complete and Reopen ask first, naming the action and the assignee', () => {
    const open = elements([cardButtons(action(), { shared: true, showTask: true })]);
    expect(open.find((e) => e.action_id === 'care_complete')?.confirm).toMatchObject({ title: { text: 'Complete action #4?' } });
    expect(open.find((e) => e.action_id === 'care_complete')?.confirm?.text.text).toContain('assigned to Oliver Bennett?');
    const done = elements([cardButtons(action({ completed: now }), { shared: true, showTask: true })]);
    expect(done.find((e) => e.action_id === 'care_reopen')?.confirm?.title.text).toBe('Reopen action #4?');
  });

  it('a channel post where task text is hidden: View alone, open or complete, on cards and list lines', () => {
    expect(labels([cardButtons(action(), { shared: true, showTask: false })])).toEqual(['View']);
    expect(labels([cardButtons(action({ completed: now }), { shared: true, showTask: false })])).toEqual(['View']);
    const hiddenCtx = { ...ctx, showTask: false, shared: true };
    expect(labels(actionCard(action(), hiddenCtx))).toEqual(['View']);
    const list = renderActionGroups([{ label: 'Urgent', actions: [action()] }], hiddenCtx, { maxBlocks: 50, buttons: 'complete' });
    expect(labels(list.blocks)).toEqual(['View']);
    expect(elements(list.blocks)[0]).toMatchObject({ action_id: 'care_view', value: 'a'.repeat(24) });
  });

  it('an urgent alert in a channel offers Take it, asking first only when someone has the action', () => {
    const assigned = elements(urgentAlert(action(), { ...ctx, shared: true }).blocks);
    // The action's row ends with the "⋯" menu: a note with a Complete or a Take it (each button itself stays one
    // click); then the answers (issue 33): I'm on it (keeps the assignee), I can't.
    expect(assigned.map((e) => e.text?.text)).toEqual(['Complete', 'Take it', 'Edit', undefined, 'History', undefined, 'I’m on it', 'I can’t']);
    expect((assigned[5] as { options?: { text: { text: string } }[] }).options?.map((o) => o.text.text)).toEqual(['Complete with note…', 'Take it with note…']);
    expect(assigned[1]?.confirm?.text.text).toContain('assigned to Oliver Bennett.');
    const nobodys = elements(urgentAlert(action({ assignee: null }), { ...ctx, showTask: false, shared: true }).blocks);
    expect(nobodys.map((e) => [e.text?.text, Boolean(e.confirm)])).toEqual([
      ['View', false],
      ['Take it', false],
      ['I’m on it', false],
      ['I can’t', false],
    ]);
  });
});

describe('the "by whom" row', () => {
  const a = action();
  const shared = { ...ctx, shared: true };
  const post = (): types.AnyBlock[] => [section('Urgent action #4'), ...actionCard(a, shared), section('footer')];

  it('follows the action, replaces an earlier row, and stays when a patch brings none', () => {
    const done = patchActionBlocks(post(), { ...a, completed: now }, shared, { kind: 'complete', by: 'U0SOPHIE', undo: { value: 'U0SOPHIE:x', minutes: 5 } })!;
    expect(ids(done)).toEqual([undefined, `task_${a.id}`, `facts_${a.id}`, `card_${a.id}`, `by_${a.id}`, undefined]);
    expect(JSON.stringify(done)).toContain('Completed by <@U0SOPHIE> · Undo (for 5 minutes)');
    const undone = patchActionBlocks(done, a, shared, { kind: 'undo', by: 'U0SOPHIE' })!;
    expect(ids(undone).filter((id) => id === `by_${a.id}`)).toHaveLength(1);
    expect(JSON.stringify(undone)).toContain('Undone by <@U0SOPHIE>');
    expect(JSON.stringify(undone)).not.toContain('care_undo');
    const edited = patchActionBlocks(undone, a, shared)!;
    expect(JSON.stringify(edited)).toContain('Undone by <@U0SOPHIE>');
  });

  it('a message with no room for one more block gets the words in the line itself, without Undo', () => {
    const lines = renderActionGroups([{ label: 'Due', actions: [a] }], shared, { maxBlocks: 50, buttons: 'complete' }).blocks;
    const full = [...lines, ...Array.from({ length: 50 - lines.length }, (_, i) => section(`filler ${i}`))];
    const patched = patchActionBlocks(full, { ...a, completed: now }, shared, { kind: 'complete', by: 'U0SOPHIE', undo: { value: 'v', minutes: 5 } })!;
    expect(patched).toHaveLength(50);
    expect(JSON.stringify(patched)).toContain('Completed by <@U0SOPHIE>');
    expect(JSON.stringify(patched)).not.toContain('care_undo');
  });
});

describe("Undo's value", () => {
  let clock = now.getTime();
  const signed = createSignedMetadata({ key: metadataKey('secret'), now: () => new Date(clock) });
  const grant = { actionId: 'a'.repeat(24), kind: 'complete' as const, by: 'U0SOPHIE', expiresAt: now.getTime() + 5 * 60_000, after: '2027-06-15 09:00:00' };

  it('reads back what was issued, also after its window (to say it is too late)', () => {
    const value = undoValue(signed, 'T0CARE', grant);
    expect(value.length).toBeLessThanOrEqual(2000);
    expect(readUndoValue(signed, 'T0CARE', value)).toEqual(grant);
    clock += 10 * 60_000;
    expect(readUndoValue(signed, 'T0CARE', value)?.expiresAt).toBeLessThan(clock);
  });

  it('refuses another person, team, action or kind written in, and garbage', () => {
    const value = undoValue(signed, 'T0CARE', grant);
    expect(readUndoValue(signed, 'T0CARE', value.replace('U0SOPHIE:', 'U0PRIYA:'))).toBeNull();
    expect(readUndoValue(signed, 'T0OTHER', value)).toBeNull();
    const [, sealed] = value.split(':') as [string, string];
    const [v, body, mac] = sealed.split('.') as [string, string, string];
    const meta = JSON.parse(Buffer.from(body, 'base64url').toString()) as { m: { a: string; k: string } };
    meta.m.k = 'reopen';
    expect(readUndoValue(signed, 'T0CARE', `U0SOPHIE:${v}.${Buffer.from(JSON.stringify(meta)).toString('base64url')}.${mac}`)).toBeNull();
    for (const junk of [undefined, '', 'U0SOPHIE', ':x', 'nobody:v1.a.b']) expect(readUndoValue(signed, 'T0CARE', junk)).toBeNull();
  });
});
