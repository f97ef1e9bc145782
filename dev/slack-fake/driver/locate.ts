import { findButton, findByIds, findControl, findInput, interactiveElements, textOf, type Located } from '../find-blocks.js';
import type { SlackFake } from '../start-fake.js';
import type { Block, FakeChannel, SlackUser } from '../types.js';
import type { Surface } from './payloads.js';

/**
 * Where a person looks for something to click. Exactly one of channel / dm /
 * ephemeral / home / modal; `ts` narrows to one message.
 */
export interface Where {
  channel?: string;
  dm?: boolean;
  ephemeral?: boolean;
  home?: boolean;
  modal?: boolean;
  ts?: string;
}

export interface Found extends Located {
  surface: Surface;
}

interface Candidate {
  blocks: Block[] | undefined;
  surface: () => Surface;
}

function describe(where: Where): string {
  if (where.modal) return 'the open modal';
  if (where.home) return 'the Home tab';
  if (where.ephemeral) return `ephemeral messages${where.channel ? ` in ${where.channel}` : ''}`;
  if (where.dm) return 'the DM with the app';
  return `channel ${where.channel ?? '?'}`;
}

function messageCandidates(fake: SlackFake, user: SlackUser, channel: FakeChannel, ts?: string): Candidate[] {
  const all = (fake.store.state.messages[channel.id] ?? []).filter((m) => !ts || m.ts === ts);
  return [...all]
    .sort((a, b) => Number(b.ts) - Number(a.ts))
    .map((message) => ({
      blocks: message.blocks,
      surface: () => ({
        kind: 'message' as const,
        channel,
        message,
        responseUrl: fake.issueResponseUrl({
          kind: 'message',
          channel: channel.id,
          user: user.id,
          messageTs: message.ts,
          ephemeral: false,
          // A reply's answers stay in its thread; a thread's parent is clicked in the channel, where they appear.
          ...(message.thread_ts && message.thread_ts !== message.ts ? { threadTs: message.thread_ts } : {}),
        }),
      }),
    }));
}

function candidates(fake: SlackFake, user: SlackUser, where: Where): Candidate[] {
  const { store } = fake;
  if (where.modal) {
    const top = store.state.modals[user.id]?.at(-1);
    return top ? [{ blocks: top.view.blocks, surface: () => ({ kind: 'view', view: top.view, values: top.view.state.values }) }] : [];
  }
  if (where.home) {
    const home = store.state.homes[user.id];
    return home ? [{ blocks: home.blocks, surface: () => ({ kind: 'view', view: home, values: home.state.values }) }] : [];
  }
  if (where.ephemeral) {
    const channelId = where.channel ? store.requireChannel(where.channel).id : undefined;
    return store.state.ephemerals
      .filter((e) => e.user === user.id && !e.deleted && (!channelId || e.channel === channelId) && (!where.ts || e.ts === where.ts))
      .reverse()
      .map((e) => ({
        blocks: e.blocks,
        surface: () => ({
          kind: 'ephemeral' as const,
          channel: store.requireChannel(e.channel),
          ts: e.ts,
          responseUrl: fake.issueResponseUrl({ kind: 'message', channel: e.channel, user: user.id, messageTs: e.ts, ephemeral: true }),
        }),
      }));
  }
  if (where.dm) {
    const im = store.state.channels.find((c) => c.is_im && c.user === user.id);
    return im ? messageCandidates(fake, user, im, where.ts) : [];
  }
  if (where.channel) return messageCandidates(fake, user, store.requireChannel(where.channel), where.ts);
  throw new Error('Slack driver: say where to look: { channel } | { dm: true } | { ephemeral: true } | { home: true } | { modal: true }');
}

/**
 * A button by text; a control (select, overflow, picker) by name, also input
 * blocks when `inputs`; an input by label; any element by block_id + action_id.
 */
export type ElementQuery =
  | { kind: 'button'; text: string }
  | { kind: 'control'; name: string; inputs?: boolean }
  | { kind: 'input'; label: string }
  | { kind: 'ids'; blockId: string; actionId: string };

function match(blocks: Block[] | undefined, query: ElementQuery): Located | undefined {
  if (query.kind === 'button') return findButton(blocks, query.text);
  if (query.kind === 'input') return findInput(blocks, query.label);
  if (query.kind === 'ids') return findByIds(blocks, query.blockId, query.actionId);
  return findControl(blocks, query.name) ?? (query.inputs ? findInput(blocks, query.name) : undefined);
}

/** The newest place matching `where` that shows the element, or undefined. */
export function locate(fake: SlackFake, user: SlackUser, where: Where, query: ElementQuery): Found | undefined {
  for (const c of candidates(fake, user, where)) {
    const found = match(c.blocks, query);
    if (found) return { ...found, surface: c.surface() };
  }
  return undefined;
}

/** A readable "not found" message listing what the person could see instead. */
export function notFound(fake: SlackFake, user: SlackUser, where: Where, query: ElementQuery): Error {
  let seen: string[] = [];
  try {
    seen = candidates(fake, user, where)
      .slice(0, 5)
      .flatMap((c) => interactiveElements(c.blocks))
      .map((l) => textOf(l.element.text) ?? textOf(l.block.label) ?? textOf(l.element.placeholder) ?? String(l.element.action_id));
  } catch {
    seen = [];
  }
  const what =
    query.kind === 'button'
      ? `button "${query.text}"`
      : query.kind === 'input'
        ? `input "${query.label}"`
        : query.kind === 'ids'
          ? `element ${query.blockId}/${query.actionId}`
          : `control "${query.name}"`;
  return new Error(`Slack driver: no ${what} in ${describe(where)} for ${user.name} (seen: ${seen.join(', ') || 'nothing'})`);
}
