/**
 * The Slack fake's state as the playground page draws it (plain JSON, a copy:
 * the page can never change the fake through it).
 */
import type { PlaygroundMessage, PlaygroundState, SlackBlock, SlackView as PageView } from '../playground/backend.js';
import type { FakeEphemeral, FakeMessage, FakeState, SlackView, ViewRecord } from '../slack-fake/index.js';

export interface SnapshotExtras {
  /** The app's display name in the page. */
  appName: string;
  clock: { now: string; time_zone?: string };
}

export function toPlaygroundState(state: Readonly<FakeState>, extras: SnapshotExtras): PlaygroundState {
  const bot = state.bot;
  const messages: PlaygroundState['messages'] = {};
  for (const [channel, list] of Object.entries(state.messages)) messages[channel] = list.map(toMessage);
  const ephemeral: PlaygroundState['ephemeral'] = {};
  for (const e of state.ephemerals) {
    if (e.deleted) continue;
    ((ephemeral[e.user] ??= {})[e.channel] ??= []).push(toEphemeral(e, bot.userId, bot.botId));
  }
  const home: PlaygroundState['home'] = {};
  for (const [user, view] of Object.entries(state.homes)) home[user] = toView(view);
  const modals: PlaygroundState['modals'] = {};
  for (const [user, stack] of Object.entries(state.modals)) if (stack.length) modals[user] = stack.map(toModal);
  return structuredClone({
    team: { id: state.team.id, name: state.team.name },
    app: { name: extras.appName, bot_user_id: bot.userId, bot_id: bot.botId },
    clock: extras.clock,
    users: state.users
      .filter((u) => !u.is_bot && !u.deleted)
      .map((u) => ({ id: u.id, name: u.name, real_name: u.real_name, is_admin: u.is_admin, ...(u.tz ? { tz: u.tz } : {}) })),
    channels: state.channels.filter((c) => !c.is_im && !c.is_mpim && !c.is_archived).map((c) => ({ id: c.id, name: c.name, is_private: c.is_private })),
    ims: state.channels.filter((c) => c.is_im).map((c) => ({ id: c.id, members: [...c.members] })),
    messages,
    ephemeral,
    home,
    modals,
  });
}

function toMessage(m: FakeMessage): PlaygroundMessage {
  return {
    ts: m.ts,
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    user: m.user,
    ...(m.bot_id ? { bot_id: m.bot_id } : {}),
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks as SlackBlock[] } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.reply_count ? { reply_count: m.reply_count } : {}),
    ...(m.edited ? { edited: m.edited } : {}),
  };
}

function toEphemeral(e: FakeEphemeral, botUserId: string, botId: string): PlaygroundMessage {
  return {
    ts: e.ts,
    ...(e.thread_ts ? { thread_ts: e.thread_ts } : {}),
    user: botUserId,
    bot_id: botId,
    text: e.text,
    ...(e.blocks ? { blocks: e.blocks as SlackBlock[] } : {}),
    ephemeral: true,
  };
}

function toView(v: SlackView): PageView {
  return {
    id: v.id,
    type: v.type,
    ...(v.callback_id ? { callback_id: v.callback_id } : {}),
    ...(v.external_id ? { external_id: v.external_id } : {}),
    ...(v.title ? { title: v.title } : {}),
    ...(v.type === 'modal' ? { submit: v.submit ?? null, close: v.close ?? null } : {}),
    blocks: v.blocks as SlackBlock[],
    ...(v.private_metadata ? { private_metadata: v.private_metadata } : {}),
    hash: v.hash,
  };
}

function toModal(r: ViewRecord): PageView {
  return {
    ...toView(r.view),
    ...(Object.keys(r.errors).length ? { errors: { ...r.errors } } : {}),
    ...(r.generalError ? { general_error: r.generalError } : {}),
  };
}
