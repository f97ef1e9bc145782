import type { SlackFake } from '../start-fake.js';
import type { DriverRequestKind, FakeMessage, SlackUser, StateValue } from '../types.js';
import { applyCommandAck } from './apply-ack.js';
import { installApp, type InstallResult } from './install.js';
import { textOf } from '../find-blocks.js';
import { locate, notFound, type ElementQuery, type Found, type Where } from './locate.js';
import { ModalHandle } from './modal-handle.js';
import type { DriverResult, ModalDriver } from './modal-driver.js';
import * as P from './payloads.js';
import { FORM, type JSON_TYPE, recordAnswer, sendSigned, type AppAnswer } from './send.js';
import { optionsOf, personStateValue, type PersonInput, type Resolver } from './state-values.js';
import { type Delivery, httpTransport, socketTransport, type Transport } from './transport.js';

interface DriverCommonOptions {
  fake: SlackFake;
  /** The workspace whose people this driver acts as (default: the fake's first workspace). */
  teamId?: string;
  /** Slack gives up on an ack after 3000 ms. */
  ackTimeoutMs?: number;
  /** How long a "person" waits for something to appear (a modal, a button); default 2000 ms. */
  waitTimeoutMs?: number;
  /** Wall clock for X-Slack-Request-Timestamp (default Date.now; the app checks it against its own). */
  now?: () => number;
}

/**
 * How Slack reaches the app: `http` (default) POSTs signed requests to its
 * Request URL; `socket` sends envelopes over the Socket Mode connections the
 * app opened to the fake (the app runs with `appToken: fake.appToken`).
 */
export type SlackDriverOptions = DriverCommonOptions &
  (
    | {
        transport?: 'http';
        /** The app's request URL, e.g. http://127.0.0.1:PORT/slack/events. */
        eventsUrl: string;
        signingSecret: string;
      }
    | { transport: 'socket' }
  );

/** The app's answer plus what the interaction carried. */
export type { DriverResult } from './modal-driver.js';

type Obj = Record<string, unknown>;

/** What a person presses in a confirmation dialog. */
export type ConfirmAnswer = 'accept' | 'cancel';

/** Acts like people in Slack: requests to the app (signed HTTP or Socket Mode envelopes), as Slack would send them. */
export class SlackDriver implements ModalDriver {
  readonly fake: SlackFake;
  readonly resolver: Resolver;
  readonly transport: Transport;
  private readonly options: Required<Omit<DriverCommonOptions, 'teamId' | 'fake'>> & { http?: { eventsUrl: string; signingSecret: string } };

  private readonly created: SlackDriverOptions;

  constructor(options: SlackDriverOptions) {
    this.created = options;
    this.fake = options.teamId ? options.fake.workspace(options.teamId) : options.fake;
    const common = { ackTimeoutMs: options.ackTimeoutMs ?? 3000, waitTimeoutMs: options.waitTimeoutMs ?? 2000, now: options.now ?? Date.now };
    if (options.transport === 'socket') {
      this.options = common;
      this.transport = socketTransport(this.fake, common.ackTimeoutMs);
    } else {
      this.options = { ...common, http: { eventsUrl: options.eventsUrl, signingSecret: options.signingSecret } };
      this.transport = httpTransport({ ...this.options.http!, ackTimeoutMs: common.ackTimeoutMs, now: common.now });
    }
    const store = this.fake.store;
    this.resolver = { userId: (ref) => store.requireUser(ref).id, channelId: (ref) => store.requireChannel(ref).id };
  }

  /** The same driver acting as people of another workspace (same app, same transport): payloads carry that team. */
  forTeam(teamId: string): SlackDriver {
    return new SlackDriver({ ...this.created, teamId });
  }

  /**
   * A person of `teamId` installs the app through its install page (`installUrl`, e.g. the app's
   * `/slack/install`): see `installApp` in install.ts. `deny: true` clicks Cancel instead of Allow.
   */
  installApp(teamId: string, userRef: string, options: { installUrl: string; deny?: boolean }): Promise<InstallResult> {
    return installApp(this.fake, teamId, userRef, options);
  }

  /**
   * The app is uninstalled from `teamId` (default this driver's): its bot tokens are revoked in the fake
   * (`token_revoked` from now on), then the app is told, as Slack does, with a `tokens_revoked` event
   * and an `app_uninstalled` event carrying that team id. Returns the app's two answers.
   */
  async uninstall(teamId: string = this.fake.teamId): Promise<DriverResult[]> {
    const team = this.forTeam(teamId);
    this.fake.uninstall(teamId);
    const revoked = await team.sendEvent({ type: 'tokens_revoked', tokens: { oauth: [], bot: [team.fake.botUserId] } }, { user: team.fake.botUserId });
    const uninstalled = await team.sendEvent({ type: 'app_uninstalled' }, { user: team.fake.botUserId });
    return [revoked, uninstalled];
  }

  get waitTimeoutMs(): number {
    return this.options.waitTimeoutMs;
  }

  user(ref: string): SlackUser {
    return this.fake.store.requireUser(ref);
  }

  /** A signed POST of a raw body (tests of the app's signature checks can pass their own signature/timestamp). HTTP only. */
  async rawRequest(
    rawBody: string,
    options: { contentType?: typeof FORM | typeof JSON_TYPE; signature?: string; timestampSec?: number; headers?: Record<string, string> } = {},
  ): Promise<AppAnswer> {
    const http = this.options.http;
    if (!http) throw new Error('Slack driver: rawRequest is for the HTTP transport (Socket Mode requests are not signed)');
    return sendSigned({
      eventsUrl: http.eventsUrl,
      signingSecret: http.signingSecret,
      timestampSec: options.timestampSec ?? Math.floor(this.options.now() / 1000),
      ackTimeoutMs: this.options.ackTimeoutMs,
      contentType: options.contentType ?? FORM,
      rawBody,
      ...(options.signature ? { signature: options.signature } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
  }

  private async send(kind: DriverRequestKind, name: string, user: string, delivery: Delivery): Promise<AppAnswer> {
    const answer = await this.transport.deliver(delivery);
    recordAnswer(this.fake.store, kind, name, user, answer);
    return answer;
  }

  /** An interactive payload (form-encoded as `payload=<json>` over HTTP, an `interactive` envelope over a socket). */
  async sendPayload(kind: DriverRequestKind, name: string, user: string, payload: Obj): Promise<AppAnswer> {
    return this.send(kind, name, user, { type: 'interactive', payload });
  }

  /**
   * `/care new Call GP` typed by `user` in `channel` (default #general) or, with
   * `dm: true`, in their DM with the app; applies an ack body like Slack.
   */
  async slash(userRef: string, line: string, options: { channel?: string; dm?: boolean } = {}): Promise<DriverResult> {
    const user = this.user(userRef);
    const store = this.fake.store;
    const channel = options.dm
      ? store.imWith(user.id)
      : options.channel
        ? store.requireChannel(options.channel)
        : (store.channel('general') ?? store.state.channels[0]);
    if (!channel) throw new Error('Slack driver: the workspace has no channel');
    const match = /^(\/\S+)\s*([\s\S]*)$/.exec(line.trim());
    if (!match?.[1]) throw new Error(`Slack driver: "${line}" is not a slash command`);
    const [command, text] = [match[1], match[2] ?? ''];
    const responseUrl = this.fake.issueResponseUrl({ kind: 'command', channel: channel.id, user: user.id, command });
    const triggerId = this.fake.issueTrigger(user.id);
    const fields = P.slashFields(store, user, channel, command, text, responseUrl, triggerId);
    const answer = await this.send('slash_command', command, user.id, { type: 'slash_commands', payload: fields });
    applyCommandAck(store, user, channel, answer);
    return { ...answer, triggerId, responseUrl };
  }

  /** Waits (like a person) until the element shows up where they look. */
  async find(user: SlackUser, where: Where, query: ElementQuery): Promise<Found> {
    try {
      return await this.fake.waitFor(() => locate(this.fake, user, where, query), { timeoutMs: this.options.waitTimeoutMs });
    } catch {
      throw notFound(this.fake, user, where, query);
    }
  }

  /**
   * Clicks a button found by its text (or action_id) on the newest message/view that shows it.
   *
   * A button with a `confirm` dialog makes Slack ask first: the test says what the person
   * presses (`confirm: 'accept'` sends the click, `'cancel'` sends nothing), and the dialog is
   * recorded (`fake.confirmations()`). Clicking such a button without saying, or saying for a
   * button that asks nothing, throws: a test cannot pass over a dialog unawares.
   */
  async clickButton(userRef: string, target: Where & { text: string; confirm?: ConfirmAnswer }): Promise<DriverResult> {
    const user = this.user(userRef);
    const found = await this.find(user, target, { kind: 'button', text: target.text });
    if (!this.confirmed(user, found, target.text, target.confirm)) return { text: '', latencyMs: 0, acked: true, cancelled: true };
    return this.dispatchAction(user, found);
  }

  /** Shows the element's confirmation dialog, if it has one, and records the answer: whether the action goes ahead. */
  private confirmed(user: SlackUser, found: Found, name: string, answer: ConfirmAnswer | undefined): boolean {
    const dialog = found.element.confirm as { title?: unknown; text?: unknown; confirm?: unknown; deny?: unknown } | undefined;
    if (!dialog) {
      if (answer) throw new Error(`Slack driver: "${name}" shows no confirmation dialog (the test expected one)`);
      return true;
    }
    const title = textOf(dialog.title) ?? '';
    if (!answer) throw new Error(`Slack driver: "${name}" asks "${title}" first: pass confirm: 'accept' or 'cancel'`);
    this.fake.store.recordConfirmation({
      user: user.id,
      actionId: String(found.element.action_id ?? ''),
      title,
      text: textOf(dialog.text) ?? '',
      confirmLabel: textOf(dialog.confirm) ?? '',
      denyLabel: textOf(dialog.deny) ?? '',
      answer: answer === 'accept' ? 'confirm' : 'deny',
      at: this.fake.clock.now(),
    });
    return answer === 'accept';
  }

  /**
   * Picks option(s) in a select / overflow / radio / checkboxes / date picker found by
   * action_id, placeholder or the section text beside it (in a modal also by input label).
   */
  async selectOption(userRef: string, target: Where & { control: string; option: PersonInput }): Promise<DriverResult> {
    const user = this.user(userRef);
    const found = await this.find(user, target, { kind: 'control', name: target.control, inputs: Boolean(target.modal || target.home) });
    const value = await this.valueFor(user, found, target.option, target.control);
    if (found.surface.kind === 'view') this.setViewValue(user, found, value);
    if (found.block.type === 'input' && found.block.dispatch_action !== true) return { text: '', latencyMs: 0, acked: true };
    return this.dispatchAction(user, found, value);
  }

  /**
   * Uses the element with this block_id and action_id where the person looks
   * (`ts` names the message): a button is clicked; for a select, overflow,
   * picker, radio or checkboxes `chosen` is the value in Slack's shape (e.g.
   * `{type: 'static_select', selected_option}`). In a view the value is kept in
   * its state; an input block without `dispatch_action` sends nothing, as in Slack.
   * Throws when the element is not there (no waiting: the person sees it now).
   */
  async dispatchOn(userRef: string, where: Where, blockId: string, actionId: string, chosen?: StateValue): Promise<DriverResult> {
    const user = this.user(userRef);
    const query = { kind: 'ids' as const, blockId, actionId };
    const found = locate(this.fake, user, where, query);
    if (!found) throw notFound(this.fake, user, where, query);
    if (chosen && found.surface.kind === 'view') this.setViewValue(user, found, chosen);
    if (found.block.type === 'input' && found.block.dispatch_action !== true) return { text: '', latencyMs: 0, acked: true };
    return this.dispatchAction(user, found, chosen);
  }

  /** The options an external select (by block_id and action_id) shows after the person typed `query`. */
  async suggestOn(userRef: string, where: Where, blockId: string, actionId: string, query: string): Promise<Obj[]> {
    const user = this.user(userRef);
    const ids = { kind: 'ids' as const, blockId, actionId };
    const found = locate(this.fake, user, where, ids);
    if (!found) throw notFound(this.fake, user, where, ids);
    if (found.element.type !== 'external_select' && found.element.type !== 'multi_external_select')
      throw new Error(`Slack driver: ${blockId}/${actionId} is a ${String(found.element.type)}, not an external select`);
    return this.suggest(user, found, query);
  }

  /** The state value for a person's choice; external selects ask the app for options first. */
  async valueFor(user: SlackUser, found: Found, input: PersonInput, where: string): Promise<StateValue> {
    const el = found.element;
    if (el.type === 'external_select' || el.type === 'multi_external_select') {
      const queries = Array.isArray(input) ? input : [String(input)];
      const options: Obj[] = [];
      for (const q of queries) options.push(...(await this.suggest(user, found, q)));
      return personStateValue(el, input, this.resolver, where, options);
    }
    return personStateValue(el, input, this.resolver, where, el.type === 'overflow' ? optionsOf(el) : undefined);
  }

  /** Sends block_suggestion (the person typing `query`) and returns the options the app answered. */
  async suggest(user: SlackUser, found: Found, query: string): Promise<Obj[]> {
    const payload = P.blockSuggestionPayload(this.fake.store, user, found.surface, found.block, found.element, query);
    const answer = await this.sendPayload('block_suggestion', String(found.element.action_id), user.id, payload);
    const body = (answer.json ?? {}) as Obj;
    if (Array.isArray(body.option_groups)) return optionsOf(body);
    return Array.isArray(body.options) ? (body.options as Obj[]) : [];
  }

  setViewValue(user: SlackUser, found: Found, value: StateValue): void {
    if (found.surface.kind !== 'view') return;
    const values = found.surface.view.state.values;
    const blockId = found.block.block_id as string;
    values[blockId] = { ...(values[blockId] ?? {}), [String(found.element.action_id)]: value };
    this.fake.store.emit({ kind: 'view.state', user: user.id, viewId: found.surface.view.id });
  }

  private async dispatchAction(user: SlackUser, found: Found, chosen?: StateValue): Promise<DriverResult> {
    const store = this.fake.store;
    const viewId = found.surface.kind === 'view' ? found.surface.view.id : undefined;
    const triggerId = this.fake.issueTrigger(user.id, viewId);
    const action = P.actionEntry(store, found.block, found.element, chosen);
    const payload = P.blockActionsPayload(store, user, found.surface, triggerId, action);
    const answer = await this.sendPayload('block_actions', String(found.element.action_id), user.id, payload);
    const responseUrl = found.surface.kind === 'view' ? undefined : found.surface.responseUrl;
    return { ...answer, triggerId, ...(responseUrl ? { responseUrl } : {}) };
  }

  /** The modal `user` has open (waits for it on first use): fill, submit, close. */
  modal(userRef: string): ModalHandle {
    return new ModalHandle(this, this.user(userRef));
  }

  /** The person opens the app's Home tab: an `app_home_opened` event (`retries`: as in sendEvent). */
  async openHome(userRef: string, options: { retries?: number } = {}): Promise<DriverResult> {
    const user = this.user(userRef);
    const store = this.fake.store;
    const im = store.imWith(user.id);
    const home = store.state.homes[user.id];
    const event = { type: 'app_home_opened', user: user.id, channel: im.id, tab: 'home', ...(home ? { view: P.viewPayload(home, home.state.values) } : {}) };
    return this.sendEvent(event, { user: user.id, ...options });
  }

  /**
   * Any Events API event, wrapped in an `event_callback` envelope. Like Slack,
   * an event the app did not ack is sent again (same event_id) up to `retries`
   * times with X-Slack-Retry-Num / X-Slack-Retry-Reason (default 0 here; Slack does 3).
   * Over a socket the retry is `retry_attempt` / `retry_reason` in the envelope, and each
   * try waits up to the ack timeout for an open connection (an app reconnecting).
   */
  async sendEvent(event: Obj, options: { user?: string; retries?: number } = {}): Promise<DriverResult> {
    const payload = P.eventEnvelope(this.fake.store, event);
    const user = options.user ?? String(event.user ?? '');
    let answer = await this.send('event_callback', String(event.type), user, { type: 'events_api', payload });
    for (let attempt = 1; !answer.acked && attempt <= (options.retries ?? 0); attempt++) {
      const reason = answer.failure === 'timeout' ? 'http_timeout' : answer.failure === 'http_error' ? 'http_error' : 'connection_failed';
      answer = await this.send('event_callback', String(event.type), user, { type: 'events_api', payload, retry: { attempt, reason } });
    }
    return answer;
  }

  /** A message a person writes in a channel, or in a thread with `threadTs` (stored in the fake; the app is not told). */
  postAsUser(userRef: string, channelRef: string, text: string, options: { threadTs?: string } = {}): FakeMessage {
    const user = this.user(userRef);
    const store = this.fake.store;
    const channel = store.requireChannel(channelRef);
    if (options.threadTs && !store.findMessage(channel.id, options.threadTs))
      throw new Error(`Slack driver: no message ${options.threadTs} in ${channelRef} to reply to`);
    const message: FakeMessage = {
      type: 'message',
      ts: store.newTs(),
      channel: channel.id,
      user: user.id,
      team: store.state.team.id,
      text,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      via: 'chat.postMessage',
    };
    store.addMessage(message);
    return structuredClone(message);
  }

  /** The person runs a message shortcut on a message. */
  async messageShortcut(userRef: string, callbackId: string, message: { channel: string; ts: string }): Promise<DriverResult> {
    const user = this.user(userRef);
    const store = this.fake.store;
    const channel = store.requireChannel(message.channel);
    const stored = store.findMessage(channel.id, message.ts);
    if (!stored) throw new Error(`Slack driver: no message ${message.ts} in ${message.channel}`);
    const triggerId = this.fake.issueTrigger(user.id);
    const responseUrl = this.fake.issueResponseUrl({
      kind: 'shortcut',
      channel: channel.id,
      user: user.id,
      ...(stored.thread_ts ? { threadTs: stored.thread_ts } : {}),
    });
    const payload = P.messageActionPayload(store, user, callbackId, channel, stored, triggerId, responseUrl);
    return { ...(await this.sendPayload('message_action', callbackId, user.id, payload)), triggerId, responseUrl };
  }

  /** The person runs a global shortcut (from the shortcuts menu). */
  async globalShortcut(userRef: string, callbackId: string): Promise<DriverResult> {
    const user = this.user(userRef);
    const triggerId = this.fake.issueTrigger(user.id);
    return { ...(await this.sendPayload('shortcut', callbackId, user.id, P.shortcutPayload(this.fake.store, user, callbackId, triggerId))), triggerId };
  }
}

export function createSlackDriver(options: SlackDriverOptions): SlackDriver {
  return new SlackDriver(options);
}
