/**
 * One error policy for listeners: whatever goes wrong, the person sees a
 * sentence that says what happened and what to do (describeError), where they
 * acted; the log gets the error without payloads; the process carries on.
 */
import type { AllMiddlewareArgs, BlockAction, BlockElementAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { LogFields, Logger } from '../../logging/logger.js';
import { describeError, UserFacingError } from '../../services/errors.js';
import type { SlackDeps } from '../deps.js';
import { type Responder, safeRespond } from '../respond.js';

export type ButtonBody = BlockAction<ButtonAction>;
export type ButtonArgs = SlackActionMiddlewareArgs<ButtonBody> & AllMiddlewareArgs;
/** A click or a pick on any element (a button, a menu, …). */
export type ElementArgs<A extends BlockElementAction> = SlackActionMiddlewareArgs<BlockAction<A>> & AllMiddlewareArgs;

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

/** An error for the person who clicked, wherever they clicked: ephemeral where possible, else a DM. */
export async function tellClicker(deps: SlackDeps, body: BlockAction, respond: Responder | undefined, message: string): Promise<void> {
  const text = `:warning: ${message}`;
  if (body.container?.type !== 'view' && (await safeRespond(respond, { response_type: 'ephemeral', replace_original: false, text }, deps.logger))) return;
  await deps.slack.chat.postMessage({ channel: body.user.id, text }).catch((err) => deps.logger.warn('could not report an error', { error: err }));
}

/** A DM to a person (for surfaces with no response_url, e.g. a shortcut); never throws. */
export async function tellByDm(deps: SlackDeps, userId: string, message: string): Promise<void> {
  await deps.slack.chat
    .postMessage({ channel: userId, text: `:warning: ${message}` })
    .catch((err) => deps.logger.warn('could not report an error', { error: err }));
}

/** A button (or menu) listener: acks at once, runs the handler, and turns any error into a sentence for the clicker. */
export function buttonListener<A extends BlockElementAction = ButtonAction>(
  deps: SlackDeps,
  name: string,
  handler: (args: ElementArgs<A>) => Promise<void>,
): (args: ElementArgs<A>) => Promise<void> {
  return async (args) => {
    await args.ack();
    try {
      await handler(args);
    } catch (err) {
      logFailure(deps.logger, `${name} button failed`, err);
      await tellClicker(deps, args.body, args.respond, describeError(err));
    }
  };
}
