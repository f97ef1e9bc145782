/**
 * An in-memory PlaygroundBackend: a test double for the page and its server.
 * It plays a tiny care app (`/care new|list|help`, buttons, a modal, a Home
 * tab, digests) so every part of the page has something to show. The real
 * backend wraps the Slack fake and the real app.
 */
import {
  PlaygroundInputError,
  type ButtonClick,
  type OptionSelection,
  type PlaygroundBackend,
  type PlaygroundMessage,
  type PlaygroundResult,
  type PlaygroundState,
  type SlackBlock,
  type ViewStateValues,
} from './backend.js';
import {
  LOCATIONS,
  actionMessageBlocks,
  digestBlocks,
  escapeMrkdwn,
  homeView,
  listBlocks,
  locationOption,
  newActionModal,
  type MemoryAction,
} from './memory-backend-views.js';

export interface MemoryBackendOptions {
  now?: () => Date;
}

export interface MemoryBackend extends PlaygroundBackend {
  /** Every act the page asked for, in order (method name and arguments). */
  readonly calls: Array<{ method: string; args: unknown[] }>;
}

const APP = 'U0APP';
const ok = (message: string): PlaygroundResult => ({ ok: true, message });
const refused = (message: string): PlaygroundResult => ({ ok: false, message });

export function createMemoryBackend(options: MemoryBackendOptions = {}): MemoryBackend {
  const realNow = options.now ?? (() => new Date());
  let offsetMs = 0;
  let seq = 0;
  const now = () => new Date(realNow().getTime() + offsetMs);
  const listeners = new Set<() => void>();
  const calls: MemoryBackend['calls'] = [];
  const nowSec = () => Math.floor(now().getTime() / 1000);
  const actions: MemoryAction[] = [
    { id: 'a1', no: 101, title: 'Call GP about repeat prescription', due: nowSec() + 3600, urgent: false, completed: false, assignee: 'U0BOB' },
    { id: 'a2', no: 102, title: 'Order <script>alert(1)</script> & <!channel> supplies', due: nowSec() + 7200, urgent: true, completed: false },
  ];
  const state: Omit<PlaygroundState, 'clock'> = {
    team: { id: 'T0DEMO', name: 'Sunrise Care' },
    app: { name: 'Care Actions', bot_user_id: APP, bot_id: 'B0APP' },
    users: [
      { id: 'U0ALICE', name: 'alice', real_name: 'Alice Admin', is_admin: true, tz: 'Europe/London' },
      { id: 'U0BOB', name: 'bob', real_name: 'Bob Carer', is_admin: false, tz: 'Europe/London' },
      { id: 'U0CAROL', name: 'carol', real_name: 'Carol Nurse', is_admin: false, tz: 'America/New_York' },
    ],
    channels: [
      { id: 'C0GENERAL', name: 'general', is_private: false },
      { id: 'C0CARE', name: 'care-team', is_private: false },
      { id: 'C0LEADS', name: 'care-leads', is_private: true },
    ],
    ims: [
      { id: 'D0ALICE', members: ['U0ALICE', APP] },
      { id: 'D0BOB', members: ['U0BOB', APP] },
      { id: 'D0CAROL', members: ['U0CAROL', APP] },
      { id: 'D0ALICEBOB', members: ['U0ALICE', 'U0BOB'] },
    ],
    messages: {},
    ephemeral: {},
    home: {},
    modals: {},
  };

  const changed = () => {
    for (const l of [...listeners]) l();
  };
  const nextTs = () => `${nowSec()}.${String(++seq).padStart(6, '0')}`;
  const user = (id: string) => state.users.find((u) => u.id === id) ?? fail(`No user ${id} in this workspace.`);
  const conversation = (id: string) => {
    if (!state.channels.some((c) => c.id === id) && !state.ims.some((d) => d.id === id)) fail(`No conversation ${id}.`);
    return (state.messages[id] ??= []);
  };
  const imOf = (userId: string) => state.ims.find((d) => d.members.includes(userId) && d.members.includes(APP))?.id;
  const post = (channel: string, msg: Omit<PlaygroundMessage, 'ts'>) => {
    const m = { ts: nextTs(), ...msg };
    conversation(channel).push(m);
    if (m.thread_ts) {
      const parent = conversation(channel).find((p) => p.ts === m.thread_ts);
      if (parent) parent.reply_count = (parent.reply_count ?? 0) + 1;
    }
    return m;
  };
  const postBot = (channel: string, text: string, blocks?: SlackBlock[], threadTs?: string) =>
    post(channel, { user: APP, bot_id: 'B0APP', text, ...(blocks ? { blocks } : {}), ...(threadTs ? { thread_ts: threadTs } : {}) });
  const ephemeral = (userId: string, channel: string, text: string, blocks?: SlackBlock[]) => {
    const list = ((state.ephemeral[userId] ??= {})[channel] ??= []);
    list.push({ ts: nextTs(), user: APP, bot_id: 'B0APP', text, ...(blocks ? { blocks } : {}), ephemeral: true });
  };
  const stack = (userId: string) => (state.modals[userId] ??= []);
  const findAction = (key: string | number) => actions.find((a) => a.id === String(key) || a.no === Number(key));
  const publishHome = (userId: string) => {
    state.home[userId] = homeView(`VHOME${userId}`, actions);
  };
  const record = (method: string, ...args: unknown[]) => calls.push({ method, args });

  const blocksAt = (userId: string, t: ButtonClick | OptionSelection): SlackBlock[] => {
    if (t.where === 'message') {
      const list = t.isEphemeral ? state.ephemeral[userId]?.[t.channelId ?? ''] : state.messages[t.channelId ?? ''];
      const msg = list?.find((m) => m.ts === t.ts) ?? fail(`No message ${t.ts} in ${t.channelId}.`);
      return msg.blocks ?? [];
    }
    const view = t.where === 'home' ? state.home[userId] : stack(userId).at(-1);
    if (!view || (t.viewId && view.id !== t.viewId)) fail(`No ${t.where} view ${t.viewId ?? ''} is open for ${userId}.`);
    return view.blocks;
  };
  const hasElement = (blocks: SlackBlock[], blockId: string, actionId: string) =>
    blocks.some(
      (b, i) =>
        (b.block_id ?? `block-${i}`) === blockId &&
        [b.accessory, ...((b.elements as unknown[]) ?? [])].some((e, j) => {
          const el = e as { action_id?: string } | undefined;
          return !!el && (el.action_id ?? `action-${j}`) === actionId;
        }),
    );

  const complete = (a: MemoryAction, by: string | undefined) => {
    a.completed = true;
    for (const [channel, list] of Object.entries(state.messages)) {
      for (const m of list) {
        if (m.metadata?.event_payload.action_id !== a.id) continue;
        m.blocks = actionMessageBlocks(a, by);
        m.edited = { user: APP, ts: nextTs() };
        postBot(channel, by ? `<@${by}> completed this.` : 'Completed in the care web app.', undefined, m.ts);
      }
    }
    for (const id of Object.keys(state.home)) publishHome(id);
  };

  const backend: MemoryBackend = {
    calls,
    async snapshot() {
      return structuredClone({ ...state, clock: { now: now().toISOString(), time_zone: 'Europe/London' } });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async sendSlashCommand(userId, channelId, text) {
      record('sendSlashCommand', userId, channelId, text);
      user(userId);
      conversation(channelId);
      const [, command = '', rest = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim()) ?? [];
      if (command !== 'care') return refused(`/${command} is not a valid command.`);
      ephemeral(userId, channelId, `You ran \`/care ${escapeMrkdwn(rest)}\``);
      const [sub = '', ...words] = rest.split(/\s+/);
      if (sub === 'new') stack(userId).push(newActionModal(`VNEW${++seq}`, words.join(' '), channelId));
      else if (sub === 'list') ephemeral(userId, channelId, 'Open actions', listBlocks(actions));
      else ephemeral(userId, channelId, 'Try `/care new <title>`, `/care list` or the Home tab.');
      changed();
      return ok(`Sent ${text.trim().split(/\s+/).slice(0, 2).join(' ')}`);
    },
    async postMessage(userId, channelId, text, threadTs) {
      record('postMessage', userId, channelId, text, threadTs);
      user(userId);
      if (threadTs && !conversation(channelId).some((m) => m.ts === threadTs)) fail(`No message ${threadTs} to reply to.`);
      post(channelId, { user: userId, text: escapeMrkdwn(text), ...(threadTs ? { thread_ts: threadTs } : {}) });
      changed();
      return ok('Message sent');
    },
    async clickButton(userId, click) {
      record('clickButton', userId, click);
      user(userId);
      const blocks = blocksAt(userId, click);
      if (!hasElement(blocks, click.blockId, click.actionId)) fail(`No element ${click.blockId}/${click.actionId} there.`);
      const a = click.value ? findAction(click.value) : undefined;
      if (click.actionId === 'complete' && a) {
        if (a.completed) return refused(`#${a.no} is already completed.`);
        complete(a, userId);
      } else if (click.actionId === 'delete' && a) {
        const list = state.messages[click.channelId ?? ''];
        const i = list?.findIndex((m) => m.ts === click.ts) ?? -1;
        if (list && i >= 0) list.splice(i, 1);
      } else if (click.actionId === 'open_new_action') {
        stack(userId).push(newActionModal(`VNEW${++seq}`, '', imOf(userId) ?? 'C0GENERAL'));
      }
      changed();
      return ok(`Clicked ${click.actionId}`);
    },
    async selectOption(userId, selection) {
      record('selectOption', userId, selection);
      user(userId);
      if (!hasElement(blocksAt(userId, selection), selection.blockId, selection.actionId)) fail(`No element ${selection.blockId}/${selection.actionId} there.`);
      const s = selection.selected;
      const picked = 'selected_option' in s ? s.selected_option.value : 'selected_date' in s ? s.selected_date : s.selected_user;
      const [verb, id = ''] = picked.split(':');
      const a = findAction(id);
      if (verb === 'urgent' && a) a.urgent = true;
      if (selection.channelId) ephemeral(userId, selection.channelId, `You chose ${escapeMrkdwn(picked)}.`);
      changed();
      return ok(`Chose ${picked}`);
    },
    async submitModal(userId, values: ViewStateValues, viewId) {
      record('submitModal', userId, values, viewId);
      user(userId);
      const view = stack(userId).at(-1);
      if (!view || (viewId && view.id !== viewId)) fail(`No modal ${viewId ?? ''} is open for ${userId}.`);
      if (view.callback_id === 'new_action') {
        const title = values.title?.title_input?.value?.trim() ?? '';
        if (title.length < 3) {
          view.errors = { title: 'Give the action a title of at least 3 characters.' };
          changed();
          return refused('The form has errors.');
        }
        const a: MemoryAction = {
          id: `a${actions.length + 1}`,
          no: 101 + actions.length,
          title,
          due: values.due?.due_input?.selected_date_time ?? nowSec() + 86_400,
          urgent: values.flags?.flags_input?.selected_options?.some((o) => o.value === 'urgent') ?? false,
          completed: false,
          ...(values.assignee?.assignee_input?.selected_user ? { assignee: values.assignee.assignee_input.selected_user } : {}),
        };
        actions.push(a);
        const channel = (JSON.parse(view.private_metadata ?? '{}') as { channel?: string }).channel ?? imOf(userId) ?? 'C0GENERAL';
        const m = postBot(channel, `New action #${a.no}`, actionMessageBlocks(a));
        m.metadata = { event_type: 'care_action', event_payload: { action_id: a.id } };
      }
      stack(userId).pop();
      changed();
      return ok('Submitted');
    },
    async closeModal(userId, viewId) {
      record('closeModal', userId, viewId);
      user(userId);
      const view = stack(userId).at(-1);
      if (!view || (viewId && view.id !== viewId)) fail(`No modal ${viewId ?? ''} is open for ${userId}.`);
      stack(userId).pop();
      changed();
      return ok('Closed');
    },
    async suggestOptions(userId, query) {
      record('suggestOptions', userId, query);
      user(userId);
      const q = query.value.toLowerCase();
      return LOCATIONS.filter((l) => l.toLowerCase().includes(q)).map(locationOption);
    },
    async openHome(userId) {
      record('openHome', userId);
      user(userId);
      publishHome(userId);
      changed();
      return ok('Home opened');
    },
    simulate: {
      async completeActionInWebApp(key) {
        record('completeActionInWebApp', key);
        const a = findAction(key);
        if (!a) return refused(`No action ${key}.`);
        if (a.completed) return refused(`#${a.no} is already completed.`);
        complete(a, undefined);
        const im = a.assignee ? imOf(a.assignee) : undefined;
        if (im) postBot(im, `:white_check_mark: #${a.no} ${escapeMrkdwn(a.title)} was completed in the care web app.`);
        changed();
        return ok(`#${a.no} completed in the web app`);
      },
      async advanceClockToNextDigest() {
        record('advanceClockToNextDigest');
        const at = now();
        const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), 8));
        if (next <= at) next.setUTCDate(next.getUTCDate() + 1);
        offsetMs += next.getTime() - at.getTime();
        for (const u of state.users) {
          const im = imOf(u.id);
          if (im) postBot(im, 'Your morning digest', digestBlocks(actions));
        }
        changed();
        return ok(`Clock moved to ${next.toISOString().slice(0, 16).replace('T', ' ')} UTC; digests sent`);
      },
      async advanceClockToNextShift() {
        record('advanceClockToNextShift');
        // The default shifts (Day 07:00, Night 19:00), on a UTC clock: the memory backend has no zones.
        const at = now();
        const starts = [7, 19, 31].map((h) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), h)));
        const next = starts.find((d) => d > at)!;
        offsetMs += next.getTime() - at.getTime();
        changed();
        return ok(`Clock moved to ${next.toISOString().slice(0, 16).replace('T', ' ')} UTC: the ${next.getUTCHours() === 7 ? 'Day' : 'Night'} shift begins`);
      },
      async advanceClock15Minutes() {
        record('advanceClock15Minutes');
        offsetMs += 15 * 60_000;
        changed();
        return ok(`Clock moved to ${now().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
      },
      async markActionUrgent(key) {
        record('markActionUrgent', key);
        const a = findAction(key);
        if (!a) return refused(`No action ${key}.`);
        a.urgent = true;
        postBot('C0CARE', `:rotating_light: #${a.no} ${escapeMrkdwn(a.title)} is now urgent.`);
        changed();
        return ok(`#${a.no} marked urgent`);
      },
      async listSimulatableActions() {
        return actions.map((a) => ({ id: a.id, no: a.no, title: a.title, completed: a.completed, urgent: a.urgent }));
      },
    },
  };

  postBot('C0GENERAL', 'Welcome', [
    { type: 'header', text: { type: 'plain_text', text: 'Welcome to the playground' } },
    { type: 'section', text: { type: 'mrkdwn', text: 'Type `/care new Call GP` below, or open the *Home* tab.' } },
  ]);
  for (const a of actions) {
    const m = postBot('C0CARE', `Action #${a.no}`, actionMessageBlocks(a));
    m.metadata = { event_type: 'care_action', event_payload: { action_id: a.id } };
  }
  return backend;
}

function fail(message: string): never {
  throw new PlaygroundInputError(message);
}
