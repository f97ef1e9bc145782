/**
 * The playground's backend in the demo: the page's acts become the Slack
 * driver's signed requests to the real app, and the page draws the Slack
 * fake's state. Simulated care-system events come from `simulate`.
 */
import {
  PlaygroundInputError,
  type ActionTarget,
  type PlaygroundBackend,
  type PlaygroundResult,
  type PlaygroundSimulator,
  type SlackOption,
  type ViewStateValues,
} from '../playground/backend.js';
import type { DriverResult, FakeChannel, SlackDriver, SlackFake, SlackUser, StateValue, SubmitResult, Where } from '../slack-fake/index.js';
import { TROUBLE_CONNECTING } from '../slack-fake/index.js';
import type { DemoClock } from './clock.js';
import { toPlaygroundState } from './snapshot.js';

export interface DemoBackendOptions {
  fake: SlackFake;
  driver: SlackDriver;
  clock: DemoClock;
  /** Shown with the clock in the page's top bar. */
  timeZone: string;
  appName: string;
  simulate: PlaygroundSimulator;
  /** Slash commands the app registered (default `/care`); others get Slack's "not a valid command". */
  commands?: readonly string[];
}

export interface DemoBackend extends PlaygroundBackend {
  /** Tell the page something changed that the fake does not know of (e.g. the clock moved). */
  notify(): void;
  /** Stop listening to the fake. */
  close(): void;
}

const ok = (message: string): PlaygroundResult => ({ ok: true, message });
const refused = (message: string): PlaygroundResult => ({ ok: false, message });
/** Slack escapes what people type before apps (and other people) see it. */
const escapeTyped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const bad = (message: string): never => {
  throw new PlaygroundInputError(message);
};

/** What Slack would say when the app's answer did not come. */
function unanswered(what: string, r: { acked: boolean; failure?: string | undefined; status?: number | undefined }): PlaygroundResult | undefined {
  if (r.acked) return undefined;
  if (r.failure === 'timeout') return refused(`${what} failed: the app did not answer within 3 seconds (Slack shows "operation_timeout").`);
  if (r.failure === 'network_error') return refused(`${what} failed: the app could not be reached.`);
  return refused(`${what} failed: the app answered HTTP ${r.status ?? '?'}.`);
}

export function createDemoBackend(options: DemoBackendOptions): DemoBackend {
  const { fake, driver, clock } = options;
  const commands = new Set(options.commands ?? ['/care']);
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  // Calls and acks are bookkeeping; everything else is something a person sees.
  const unsubscribe = fake.onChange((change) => {
    if (change.kind !== 'call' && change.kind !== 'ack') notify();
  });

  const person = (id: string): SlackUser => {
    const u = fake.user(id);
    if (!u || u.is_bot || u.deleted) bad(`No person ${id} in this workspace.`);
    return u!;
  };
  const conversation = (id: string): FakeChannel => fake.channel(id) ?? bad(`No conversation ${id}.`);
  /** Whether `user` may write in `channel` (Slack would not show them a private one they are not in). */
  const refusal = (user: SlackUser, channel: FakeChannel): PlaygroundResult | undefined => {
    if (channel.is_im && channel.user !== user.id) bad(`${channel.id} is not ${user.name}'s conversation.`);
    if (channel.is_archived) return refused(`#${channel.name} is archived.`);
    if (channel.is_private && !channel.is_im && !channel.members.includes(user.id))
      return refused(`${user.real_name} is not a member of ${channel.name} (a private channel).`);
    return undefined;
  };

  /** Where the driver looks for the element the page names; checks the message or view still exists. */
  const whereOf = (user: SlackUser, t: ActionTarget): Where => {
    if (t.where === 'message') {
      const channel = conversation(t.channelId ?? '');
      const ts = t.ts ?? bad('A message needs its ts.');
      if (t.isEphemeral) {
        if (!fake.store.findEphemeral(user.id, ts)) bad(`That ephemeral message is gone.`);
        return { ephemeral: true, channel: channel.id, ts };
      }
      if (!fake.store.findMessage(channel.id, ts)) bad(`No message ${ts} in ${channel.is_im ? 'this conversation' : `#${channel.name}`}.`);
      return { channel: channel.id, ts };
    }
    if (t.where === 'home') {
      const home = fake.state.homes[user.id];
      if (!home || (t.viewId && home.id !== t.viewId)) bad('That Home tab is no longer shown.');
      return { home: true };
    }
    topModal(user, t.viewId);
    return { modal: true };
  };

  const topModal = (user: SlackUser, viewId: string | undefined) => {
    const top = fake.state.modals[user.id]?.at(-1);
    if (!top || (viewId && top.view.id !== viewId))
      bad(viewId ? `The modal ${viewId} is not the one ${user.name} has open.` : `${user.name} has no modal open.`);
    return top!;
  };

  /** What the person entered on the page becomes the top view's state, as Slack keeps it. */
  const keepEntered = (user: SlackUser, values: ViewStateValues) => {
    const top = topModal(user, undefined);
    top.view.state.values = { ...top.view.state.values, ...(structuredClone(values) as typeof top.view.state.values) };
  };
  /** Driver errors about missing elements mean the page is behind the fake: a 400, not a crash. */
  const driving = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('Slack driver:')) bad(err.message.replace(/^Slack driver:\s*/, ''));
      throw err;
    }
  };

  const labelOf = (user: SlackUser, where: Where, t: ActionTarget): string => {
    const blocks = where.modal
      ? fake.state.modals[user.id]?.at(-1)?.view.blocks
      : where.home
        ? fake.state.homes[user.id]?.blocks
        : where.ephemeral
          ? fake.store.findEphemeral(user.id, where.ts ?? '')?.blocks
          : fake.store.findMessage(where.channel ?? '', where.ts ?? '')?.blocks;
    for (const b of blocks ?? []) {
      if (b.block_id !== t.blockId) continue;
      const els = [b.accessory, b.element, ...(Array.isArray(b.elements) ? b.elements : [])] as Array<
        { action_id?: string; text?: { text?: string } } | undefined
      >;
      const el = els.find((e) => e?.action_id === t.actionId);
      if (el?.text?.text) return el.text.text;
    }
    return t.actionId;
  };

  const answered = (what: string, r: DriverResult, message: string) => unanswered(what, r) ?? ok(message);

  const submitted = (r: SubmitResult): PlaygroundResult => {
    switch (r.outcome) {
      case 'closed':
      case 'cleared':
        return ok('Submitted');
      case 'updated':
      case 'pushed':
        return ok('Submitted; the app changed the form');
      case 'errors':
        return refused('The app found problems in the form: see the messages under the fields.');
      case 'client_errors':
        return refused('Please fill in the required fields.');
      default:
        return refused(`${TROUBLE_CONNECTING} (${r.problem ?? r.outcome})`);
    }
  };

  return {
    notify,
    close() {
      unsubscribe();
      listeners.clear();
    },
    async snapshot() {
      return toPlaygroundState(fake.state, { appName: options.appName, clock: { now: clock.now().toISOString(), time_zone: options.timeZone } });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async sendSlashCommand(userId, channelId, text) {
      const user = person(userId);
      const channel = conversation(channelId);
      const no = refusal(user, channel);
      if (no) return no;
      const command = text.trim().split(/\s+/)[0] ?? '';
      if (!commands.has(command)) return refused(`${command} is not a valid command. In this workspace the app has ${[...commands].join(', ')}.`);
      const r = await driving(() => driver.slash(user.id, text, { channel: channel.id }));
      return answered(command, r, `Sent ${command}`);
    },
    async postMessage(userId, channelId, text, threadTs) {
      const user = person(userId);
      const channel = conversation(channelId);
      const no = refusal(user, channel);
      if (no) return no;
      if (threadTs && !fake.store.findMessage(channel.id, threadTs)) bad(`No message ${threadTs} to reply to.`);
      driver.postAsUser(user.id, channel.id, escapeTyped(text), threadTs ? { threadTs } : {});
      return ok(threadTs ? 'Reply sent' : 'Message sent');
    },
    async clickButton(userId, click) {
      const user = person(userId);
      const where = whereOf(user, click);
      if (where.modal && click.values) keepEntered(user, click.values);
      const label = labelOf(user, where, click);
      const r = await driving(() => driver.dispatchOn(user.id, where, click.blockId, click.actionId));
      return answered(`“${label}”`, r, `Clicked “${label}”`);
    },
    async selectOption(userId, selection) {
      const user = person(userId);
      const where = whereOf(user, selection);
      if (where.modal && selection.values) keepEntered(user, selection.values);
      const r = await driving(() => driver.dispatchOn(user.id, where, selection.blockId, selection.actionId, selection.selected as StateValue));
      const s = selection.selected;
      const picked =
        'selected_option' in s
          ? s.selected_option.text.text
          : 'selected_date' in s
            ? s.selected_date
            : (fake.user(s.selected_user)?.real_name ?? s.selected_user);
      return answered('The choice', r, `Chose ${picked}`);
    },
    async submitModal(userId, values, viewId) {
      const user = person(userId);
      topModal(user, viewId);
      keepEntered(user, values);
      const r = await driving(() => driver.modal(user.id).submit());
      return submitted(r);
    },
    async closeModal(userId, viewId) {
      const user = person(userId);
      topModal(user, viewId);
      const r = await driving(() => driver.modal(user.id).close());
      return (r && unanswered('Closing', r)) ?? ok('Closed');
    },
    async suggestOptions(userId, query) {
      const user = person(userId);
      topModal(user, query.viewId);
      const options = await driving(() => driver.suggestOn(user.id, { modal: true }, query.blockId, query.actionId, query.value));
      return options as unknown as SlackOption[];
    },
    async openHome(userId) {
      const user = person(userId);
      const r = await driving(() => driver.openHome(user.id));
      return answered('Opening Home', r, 'Home opened');
    },
    simulate: options.simulate,
  };
}
