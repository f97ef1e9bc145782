import { ApiError } from './api/api-error.js';
import { assignIds } from './block-kit/assign-ids.js';
import { LIMITS } from './block-kit/limits.js';
import type { FakeStore } from './store.js';
import type { Block, SlackView, StateValues, TextObject, ViewRecord } from './types.js';

/** What the app sends as `view` (already validated). */
export type ViewInput = Record<string, unknown>;

export type FoundView = { surface: 'modal'; user: string; record: ViewRecord; index: number } | { surface: 'home'; user: string; view: SlackView };

function newHash(store: FakeStore): string {
  return `${Math.floor(store.clock.now() / 1000)}.${store.ids.secret(8)}`;
}

/** Keeps what the person typed in inputs whose block_id and action_id survive an update (as Slack does). */
function keepValues(old: StateValues, blocks: Block[]): StateValues {
  const kept: StateValues = {};
  for (const block of blocks) {
    const blockId = block.block_id as string;
    const element = (block.element ?? block.accessory) as Record<string, unknown> | undefined;
    const actionId = element?.action_id as string | undefined;
    const value = actionId ? old[blockId]?.[actionId] : undefined;
    if (actionId && value) kept[blockId] = { [actionId]: value };
  }
  return kept;
}

/** Slack's view object from the app's `view` argument. */
export function buildView(store: FakeStore, input: ViewInput, previous?: SlackView): SlackView {
  const { team, bot } = store.state;
  const blocks = assignIds((input.blocks ?? []) as Block[], () => store.ids.shortId());
  const type = input.type as 'modal' | 'home';
  const view: SlackView = {
    id: previous?.id ?? store.ids.next('V'),
    team_id: team.id,
    type,
    blocks,
    private_metadata: (input.private_metadata as string | undefined) ?? '',
    callback_id: (input.callback_id as string | undefined) ?? '',
    state: { values: previous ? keepValues(previous.state.values, blocks) : {} },
    hash: newHash(store),
    clear_on_close: Boolean(input.clear_on_close),
    notify_on_close: Boolean(input.notify_on_close),
    root_view_id: previous?.root_view_id ?? null,
    previous_view_id: previous?.previous_view_id ?? null,
    app_id: bot.appId,
    app_installed_team_id: team.id,
    external_id: (input.external_id as string | undefined) ?? '',
    bot_id: bot.botId,
  };
  if (type === 'modal') {
    view.title = input.title as TextObject;
    view.submit = (input.submit as TextObject | undefined) ?? null;
    view.close = (input.close as TextObject | undefined) ?? null;
  }
  return view;
}

export function modalStack(store: FakeStore, user: string): ViewRecord[] {
  return store.state.modals[user] ?? [];
}

export function openModal(store: FakeStore, user: string, input: ViewInput): SlackView {
  const view = buildView(store, input);
  view.root_view_id = view.id;
  store.state.modals[user] = [{ view, errors: {} }];
  store.emit({ kind: 'view.opened', user, viewId: view.id });
  return view;
}

export function pushModal(store: FakeStore, user: string, input: ViewInput): SlackView {
  const stack = modalStack(store, user);
  if (stack.length >= LIMITS.viewStack) throw new ApiError('push_limit_reached');
  const below = stack[stack.length - 1]?.view;
  const view = buildView(store, input);
  view.root_view_id = below?.root_view_id ?? view.id;
  view.previous_view_id = below?.id ?? null;
  store.state.modals[user] = [...stack, { view, errors: {} }];
  store.emit({ kind: 'view.pushed', user, viewId: view.id });
  return view;
}

export function findView(store: FakeStore, by: { viewId?: string; externalId?: string }): FoundView | undefined {
  const matches = (v: SlackView) => (by.viewId ? v.id === by.viewId : v.external_id !== '' && v.external_id === by.externalId);
  for (const [user, stack] of Object.entries(store.state.modals)) {
    const index = stack.findIndex((r) => matches(r.view));
    const record = stack[index];
    if (record) return { surface: 'modal', user, record, index };
  }
  for (const [user, view] of Object.entries(store.state.homes)) if (matches(view)) return { surface: 'home', user, view };
  return undefined;
}

/** views.update: replaces a shown view in place (same id, new hash); `hash` guards against races. */
export function updateView(store: FakeStore, found: FoundView, input: ViewInput, hash?: string): SlackView {
  const current = found.surface === 'modal' ? found.record.view : found.view;
  if (hash !== undefined && hash !== current.hash) throw new ApiError('hash_conflict');
  if (input.type !== current.type)
    throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] cannot change the type of a view [json-pointer:/view/type]'] } });
  const view = buildView(store, input, current);
  if (found.surface === 'modal') {
    found.record.view = view;
    found.record.errors = {};
    delete found.record.generalError;
  } else store.state.homes[found.user] = view;
  store.emit({ kind: found.surface === 'modal' ? 'view.updated' : 'home.published', user: found.user, viewId: view.id });
  return view;
}

export function publishHome(store: FakeStore, user: string, input: ViewInput, hash?: string): SlackView {
  const current = store.state.homes[user];
  if (hash !== undefined && current && hash !== current.hash) throw new ApiError('hash_conflict');
  const view = buildView(store, input, current);
  store.state.homes[user] = view;
  store.emit({ kind: 'home.published', user, viewId: view.id });
  return view;
}

/** Closes the top modal (or all of them); returns the closed views, top first. */
export function closeModals(store: FakeStore, user: string, all: boolean): SlackView[] {
  const stack = modalStack(store, user);
  const closed = all ? stack.splice(0).reverse() : stack.splice(-1);
  store.state.modals[user] = stack;
  if (stack.length === 0) delete store.state.modals[user];
  for (const r of closed) store.emit({ kind: 'view.closed', user, viewId: r.view.id });
  return closed.map((r) => r.view);
}
