import { publicMessage } from '../api/chat.js';
import type { FakeStore } from '../store.js';
import type { FakeChannel, FakeMessage, SlackUser, SlackView, StateValue, StateValues } from '../types.js';

/** Shapes of what Slack sends an app, built from the fake's state. */
type Obj = Record<string, unknown>;

export const VERIFICATION_TOKEN = 'fake-verification-token';

export function userObject(user: SlackUser): Obj {
  return { id: user.id, username: user.name, name: user.name, team_id: user.team_id };
}

export function teamObject(store: FakeStore): Obj {
  return { id: store.state.team.id, domain: store.state.team.domain };
}

export function channelObject(channel: FakeChannel): Obj {
  return { id: channel.id, name: channel.is_im ? 'directmessage' : channel.name };
}

export function actionTs(store: FakeStore): string {
  return (store.clock.now() / 1000).toFixed(6);
}

/** Fields every interactive payload carries. */
function common(store: FakeStore, user: SlackUser): Obj {
  return {
    user: userObject(user),
    api_app_id: store.state.bot.appId,
    token: VERIFICATION_TOKEN,
    team: teamObject(store),
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** The view as Slack includes it in payloads, with the current state values. */
export function viewPayload(view: SlackView, values: StateValues): Obj {
  return { ...structuredClone(view), state: { values } };
}

/** Slash command form fields, like Slack posts them. */
export function slashFields(
  store: FakeStore,
  user: SlackUser,
  channel: FakeChannel,
  command: string,
  text: string,
  responseUrl: string,
  triggerId: string,
): Record<string, string> {
  return {
    token: VERIFICATION_TOKEN,
    team_id: store.state.team.id,
    team_domain: store.state.team.domain,
    channel_id: channel.id,
    channel_name: channel.is_im ? 'directmessage' : channel.name,
    user_id: user.id,
    user_name: user.name,
    command,
    text,
    api_app_id: store.state.bot.appId,
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: triggerId,
  };
}

/** Where an interaction happened. */
export type Surface =
  | { kind: 'message'; channel: FakeChannel; message: FakeMessage; responseUrl: string }
  | { kind: 'ephemeral'; channel: FakeChannel; ts: string; responseUrl: string }
  | { kind: 'view'; view: SlackView; values: StateValues };

function surfaceFields(surface: Surface): Obj {
  if (surface.kind === 'view') {
    return { container: { type: 'view', view_id: surface.view.id }, view: viewPayload(surface.view, surface.values) };
  }
  if (surface.kind === 'ephemeral') {
    return {
      container: { type: 'message', message_ts: surface.ts, channel_id: surface.channel.id, is_ephemeral: true },
      channel: channelObject(surface.channel),
      response_url: surface.responseUrl,
    };
  }
  const m = surface.message;
  return {
    container: { type: 'message', message_ts: m.ts, channel_id: surface.channel.id, is_ephemeral: false, ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}) },
    channel: channelObject(surface.channel),
    message: publicMessage(m, false),
    state: { values: {} },
    response_url: surface.responseUrl,
  };
}

export function blockActionsPayload(store: FakeStore, user: SlackUser, surface: Surface, triggerId: string, action: Obj): Obj {
  return { type: 'block_actions', ...common(store, user), trigger_id: triggerId, ...surfaceFields(surface), actions: [action] };
}

/** One entry of `actions`: the element's identity plus what the person chose. */
export function actionEntry(store: FakeStore, block: Obj, element: Obj, chosen?: StateValue): Obj {
  const base: Obj = { action_id: element.action_id, block_id: block.block_id, type: element.type, action_ts: actionTs(store) };
  if (element.type === 'button') {
    return {
      ...base,
      text: element.text,
      ...(element.value !== undefined ? { value: element.value } : {}),
      ...(element.style ? { style: element.style } : {}),
    };
  }
  return { ...base, ...(chosen ?? {}), type: element.type, ...(element.placeholder ? { placeholder: element.placeholder } : {}) };
}

export function blockSuggestionPayload(store: FakeStore, user: SlackUser, surface: Surface, block: Obj, element: Obj, query: string): Obj {
  const fields = surfaceFields(surface);
  return { type: 'block_suggestion', ...common(store, user), ...fields, action_id: element.action_id, block_id: block.block_id, value: query };
}

export function viewSubmissionPayload(store: FakeStore, user: SlackUser, view: SlackView, values: StateValues, triggerId: string): Obj {
  return { type: 'view_submission', ...common(store, user), trigger_id: triggerId, view: viewPayload(view, values), response_urls: [] };
}

export function viewClosedPayload(store: FakeStore, user: SlackUser, view: SlackView, values: StateValues, isCleared: boolean): Obj {
  return { type: 'view_closed', ...common(store, user), view: viewPayload(view, values), is_cleared: isCleared };
}

export function shortcutPayload(store: FakeStore, user: SlackUser, callbackId: string, triggerId: string): Obj {
  return { type: 'shortcut', ...common(store, user), callback_id: callbackId, trigger_id: triggerId, action_ts: actionTs(store) };
}

export function messageActionPayload(
  store: FakeStore,
  user: SlackUser,
  callbackId: string,
  channel: FakeChannel,
  message: FakeMessage,
  triggerId: string,
  responseUrl: string,
): Obj {
  return {
    type: 'message_action',
    ...common(store, user),
    callback_id: callbackId,
    trigger_id: triggerId,
    action_ts: actionTs(store),
    channel: channelObject(channel),
    message_ts: message.ts,
    message: publicMessage(message, false),
    response_url: responseUrl,
  };
}

/** The Events API envelope around an event. */
export function eventEnvelope(store: FakeStore, event: Obj): Obj {
  const now = store.clock.now();
  return {
    token: VERIFICATION_TOKEN,
    team_id: store.state.team.id,
    api_app_id: store.state.bot.appId,
    event: { event_ts: (now / 1000).toFixed(6), ...event },
    type: 'event_callback',
    event_id: store.ids.next('Ev'),
    event_time: Math.floor(now / 1000),
    authorizations: [{ enterprise_id: null, team_id: store.state.team.id, user_id: store.state.bot.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: store.ids.secret(16),
  };
}
