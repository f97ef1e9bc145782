import { findInput } from '../find-blocks.js';
import type { OpenModal } from '../readers.js';
import type { SlackUser, StateValues, ViewRecord } from '../types.js';
import { closeModals, modalStack } from '../view-ops.js';
import { applySubmissionAck, type SubmitOutcome } from './apply-ack.js';
import type { DriverResult, ModalDriver } from './modal-driver.js';
import * as P from './payloads.js';
import type { AppAnswer } from './send.js';
import { isEmptyValue, submittedValues, type PersonInput } from './state-values.js';

/** Slack's own message under a required input left empty (the app never hears of it). */
export const REQUIRED_FIELD = 'Please complete this required field.';

export interface SubmitResult {
  outcome: SubmitOutcome;
  /** Why the answer was not usable (invalid_ack / not_acked). */
  problem?: string;
  /** Inline errors now shown, by block_id. */
  errors: Record<string, string>;
  /** The app's answer (absent for client_errors: nothing was sent). */
  answer?: AppAnswer;
}

/**
 * The modal a person has open. `fill` calls queue up (chainable) and run,
 * in order, on the next `filled()` / `submit()` / `close()` / `clickButton()`;
 * the first one waits for a modal to be open.
 */
export class ModalHandle {
  private queue: Array<() => Promise<void>> = [];

  constructor(
    private readonly driver: ModalDriver,
    private readonly user: SlackUser,
  ) {}

  /** Sets the input labelled `label` (or with that block_id/action_id) as a person would. */
  fill(label: string, value: PersonInput): this {
    this.queue.push(() => this.fillNow(label, value));
    return this;
  }

  async filled(): Promise<this> {
    await this.flush();
    return this;
  }

  async submit(): Promise<SubmitResult> {
    await this.flush();
    return this.submitNow();
  }

  /** The person closes the top view (Cancel); `view_closed` goes to the app when notify_on_close. */
  async close(): Promise<AppAnswer | undefined> {
    await this.flush();
    const top = await this.top();
    const store = this.driver.fake.store;
    const view = top.view;
    closeModals(store, this.user.id, false);
    if (!view.notify_on_close) return undefined;
    const payload = P.viewClosedPayload(store, this.user, view, submittedValues(view.blocks, view.state.values), false);
    return this.driver.sendPayload('view_closed', view.callback_id, this.user.id, payload);
  }

  async clickButton(text: string): Promise<DriverResult> {
    await this.flush();
    return this.driver.clickButton(this.user.id, { modal: true, text });
  }

  async selectOption(control: string, option: PersonInput): Promise<DriverResult> {
    await this.flush();
    return this.driver.selectOption(this.user.id, { modal: true, control, option });
  }

  /** What the person sees now (undefined when no modal is open). */
  get current(): OpenModal | undefined {
    return this.driver.fake.openModal(this.user.id);
  }

  /** The inline error under an input (by label or block_id). */
  errorFor(label: string): string | undefined {
    return this.driver.fake.inlineError(this.user.id, label);
  }

  private async flush(): Promise<void> {
    const steps = this.queue;
    this.queue = [];
    for (const step of steps) await step();
  }

  private async top(): Promise<ViewRecord> {
    const store = this.driver.fake.store;
    try {
      return await this.driver.fake.waitFor(() => modalStack(store, this.user.id).at(-1), { timeoutMs: this.driver.waitTimeoutMs });
    } catch {
      throw new Error(`Slack driver: ${this.user.name} has no modal open`);
    }
  }

  private async fillNow(label: string, value: PersonInput): Promise<void> {
    // A person waits for the form to appear (a "Loading…" view is replaced by it) before typing.
    const store = this.driver.fake.store;
    const shown = await this.driver.fake
      .waitFor(
        () => {
          const top = modalStack(store, this.user.id).at(-1);
          return top && findInput(top.view.blocks, label) ? top : undefined;
        },
        { timeoutMs: this.driver.waitTimeoutMs },
      )
      .catch(() => undefined);
    const record = shown ?? (await this.top());
    const located = findInput(record.view.blocks, label);
    if (!located) {
      const labels = record.view.blocks.filter((b) => b.type === 'input').map((b) => (b.label as { text?: string } | undefined)?.text);
      throw new Error(`Slack driver: no input "${label}" in modal "${record.view.title?.text ?? ''}" (inputs: ${labels.join(', ')})`);
    }
    const found = { ...located, surface: { kind: 'view' as const, view: record.view, values: record.view.state.values } };
    const chosen = await this.driver.valueFor(this.user, found, value, `input "${label}"`);
    this.driver.setViewValue(this.user, found, chosen);
    if (located.block.dispatch_action === true) await this.driver.selectOption(this.user.id, { modal: true, control: label, option: value });
  }

  /** Slack's own checks before sending: required inputs, min/max length. */
  private clientErrors(blocks: ViewRecord['view']['blocks'], values: StateValues): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const block of blocks) {
      if (block.type !== 'input') continue;
      const el = block.element as Record<string, unknown>;
      const blockId = block.block_id as string;
      const value = values[blockId]?.[String(el.action_id)];
      if (block.optional !== true && isEmptyValue(value)) errors[blockId] = REQUIRED_FIELD;
      const text = value?.value;
      if (typeof text === 'string' && text !== '') {
        if (typeof el.min_length === 'number' && text.length < el.min_length) errors[blockId] = `Please enter at least ${el.min_length} characters.`;
        if (typeof el.max_length === 'number' && text.length > el.max_length) errors[blockId] = `Please enter no more than ${el.max_length} characters.`;
      }
    }
    return errors;
  }

  private async submitNow(): Promise<SubmitResult> {
    const store = this.driver.fake.store;
    const record = await this.top();
    const view = record.view;
    const values = submittedValues(view.blocks, view.state.values);
    const clientErrors = this.clientErrors(view.blocks, values);
    record.errors = clientErrors;
    delete record.generalError;
    store.emit({ kind: 'view.updated', user: this.user.id, viewId: view.id });
    if (Object.keys(clientErrors).length > 0) return { outcome: 'client_errors', errors: clientErrors };
    const triggerId = this.driver.fake.issueTrigger(this.user.id, view.id);
    const payload = P.viewSubmissionPayload(store, this.user, view, values, triggerId);
    const answer = await this.driver.sendPayload('view_submission', view.callback_id, this.user.id, payload);
    const applied = applySubmissionAck(store, this.user.id, answer);
    const errors = applied.outcome === 'errors' ? { ...record.errors } : {};
    return { outcome: applied.outcome, ...(applied.problem ? { problem: applied.problem } : {}), errors, answer };
  }
}
