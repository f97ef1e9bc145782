/**
 * One error policy for listeners: whatever goes wrong, the person sees a
 * sentence that says what happened and what to do (describeError), where they
 * acted; the log gets the error without payloads; the process carries on.
 *
 * Only this file and the modal helper (modal-flow.ts, beside it) put an error into
 * words. Listeners let errors reach a wrapper here (buttonListener,
 * withDmOnFailure) or the modal helper, or ask for the words for one surface
 * by name: under a form field (fieldError), in place of a Home tab section
 * (shownInstead), as a command's answer (answerFailure), in a message
 * (failureLine).
 */
import type { AllMiddlewareArgs, BlockAction, BlockElementAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { LogFields, Logger } from '../../logging/logger.js';
import { describeError, UserFacingError } from '../../services/errors.js';
import { CareUserTakenError } from '../../services/people/link-guard.js';
import type { SlackDeps } from '../deps.js';
import { type Responder, safeRespond } from '../respond.js';
import { errorBlocks } from '../views/help.js';
import { depsOf } from '../workspace-on-context.js';
import { cut } from '../cut.js';

export type ButtonBody = BlockAction<ButtonAction>;
export type ButtonArgs = SlackActionMiddlewareArgs<ButtonBody> & AllMiddlewareArgs;
/** A click or a pick on any element (a button, a menu, …). */
export type ElementArgs<A extends BlockElementAction> = SlackActionMiddlewareArgs<BlockAction<A>> & AllMiddlewareArgs;

/** What telling a person needs: a Slack client to post with, and the log. */
export type Teller = Pick<SlackDeps, 'slack' | 'logger'>;

/** Refusals that are a person's own doing (a wrong number, not linked, not an admin, a bad value): nothing for an operator to fix. */
const PERSONS_MISTAKES: ReadonlySet<UserFacingError['code']> = new Set(['not-linked', 'not-found', 'forbidden', 'invalid', 'not-admin']);

export function isPersonsMistake(err: unknown): err is UserFacingError {
  return err instanceof UserFacingError && (PERSONS_MISTAKES.has(err.code) || err.field !== undefined);
}

/**
 * Log a listener's failure: a person's mistake at `info` (the person was told; warnings are
 * for operators), anything else at `warn` with the error. The mistake's sentence is left out
 * (it may echo what was typed); its kind is enough.
 */
export function logFailure(logger: Logger, message: string, err: unknown, fields: LogFields = {}): void {
  if (isPersonsMistake(err)) logger.info(message, { ...fields, mistake: err.code });
  else logger.warn(message, { ...fields, error: err });
}

/** The failure in one line for a message, after what did not happen when that is given ("The action was not snoozed: …"). */
export function failureLine(err: unknown, lead?: string): string {
  return lead ? `${lead}: ${describeError(err)}` : describeError(err);
}

/** An error for the person who clicked, wherever they clicked: ephemeral where possible, else a DM. */
export async function tellClicker(deps: Teller, body: BlockAction, respond: Responder | undefined, message: string): Promise<void> {
  const text = `:warning: ${message}`;
  if (body.container?.type !== 'view' && (await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text }, deps.logger))) return;
  await deps.slack.chat.postMessage({ channel: body.user.id, text }).catch((err) => deps.logger.warn('could not report an error', { error: err }));
}

/** A DM to a person (for surfaces with no response_url, e.g. a shortcut); never throws. */
export async function tellByDm(deps: Teller, userId: string, message: string): Promise<void> {
  await deps.slack.chat
    .postMessage({ channel: userId, text: `:warning: ${message}` })
    .catch((err) => deps.logger.warn('could not report an error', { error: err }));
}

/**
 * A button (or menu) listener: acks at once, runs the handler with the deps of the request's workspace
 * (from Bolt's context, workspace-on-context.ts), and turns any error into a sentence for the clicker.
 */
export function buttonListener<A extends BlockElementAction = ButtonAction>(
  name: string,
  handler: (args: ElementArgs<A>, deps: SlackDeps) => Promise<void>,
): (args: ElementArgs<A>) => Promise<void> {
  return tellingButtonListener<A, SlackDeps>((args) => depsOf(args.context), name, handler);
}

/** `buttonListener` for a click served outside a ready workspace (the set-up's own buttons): told through `tellerOf(args)`. */
export function tellingButtonListener<A extends BlockElementAction, D extends Teller>(
  tellerOf: (args: ElementArgs<A>) => D,
  name: string,
  handler: (args: ElementArgs<A>, deps: D) => Promise<void>,
): (args: ElementArgs<A>) => Promise<void> {
  return async (args) => {
    await args.ack();
    const deps = tellerOf(args);
    try {
      await handler(args, deps);
    } catch (err) {
      logFailure(deps.logger, `${name} button failed`, err);
      await tellClicker(deps, args.body, args.respond, describeError(err));
    }
  };
}

/**
 * Work for a person who has no answer surface left (a message shortcut, a form already closed):
 * a failure is logged by the rules above and told in a DM, after `lead` ("I could not open the
 * form: …"). Never throws.
 */
export async function withDmOnFailure(deps: Teller, userId: string, what: { log: string; lead?: string }, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    logFailure(deps.logger, what.log, err);
    await tellByDm(deps, userId, failureLine(err, what.lead));
  }
}

/** A `/care` command that failed: logged by the rules, answered where it was typed (through the command's reply). */
export async function answerFailure(
  logger: Logger,
  reply: (message: { text: string; blocks?: unknown[] }) => Promise<void>,
  err: unknown,
  fields: LogFields = {},
): Promise<void> {
  const message = describeError(err);
  logFailure(logger, 'slash command failed', err, fields);
  await reply({ text: message, blocks: errorBlocks(message) });
}

/**
 * The words under a form field when a submission fails (a view_submission's inline error, at most
 * Slack's 150 characters); the failure is logged by the rules. `plain`: without code marks, and a
 * refusal's own plain wording where it has one (an inline error shows no formatting).
 */
export function fieldError(logger: Logger, log: string, err: unknown, options: { plain?: boolean } = {}): string {
  logFailure(logger, log, err);
  if (!options.plain) return cut(describeError(err), 150);
  return cut(err instanceof CareUserTakenError ? err.plain : describeError(err).replace(/`/g, ''), 150, { mrkdwn: false });
}

/** The sentence shown in place of what could not be read (a section of the Home tab); the failure is logged by the rules. */
export function shownInstead(logger: Logger, log: string, err: unknown, fields: LogFields = {}): string {
  logFailure(logger, log, err, fields);
  return describeError(err);
}
