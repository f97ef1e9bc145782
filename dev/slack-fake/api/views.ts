import { formatBlockError } from '../block-kit/limits.js';
import { validateView } from '../block-kit/validate-view.js';
import { checkTrigger } from '../triggers.js';
import { findView, modalStack, openModal, publishHome, pushModal, updateView, type ViewInput } from '../view-ops.js';
import { ApiError, validationError } from './api-error.js';
import { optJson, optString, requireString, type Args } from './args.js';
import type { MethodHandler } from './context.js';

/**
 * The `view` argument, validated. Slack answers views.* with `invalid_arguments`
 * (not `invalid_blocks`) and the reasons in `response_metadata.messages`.
 */
function viewArg(args: Args, expected: 'modal' | 'home' | 'any'): ViewInput {
  const view = optJson(args, 'view', 'invalid_arguments');
  if (view === undefined) throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: view'] } });
  const errors = validateView(view, expected);
  if (errors.length > 0) throw validationError('invalid_arguments', errors.map(formatBlockError));
  return view as ViewInput;
}

const open: MethodHandler = (ctx, args) => {
  const trigger = checkTrigger(ctx.store, requireString(args, 'trigger_id', 'invalid_trigger_id'));
  const input = viewArg(args, 'modal');
  trigger.used = true;
  return { view: openModal(ctx.store, trigger.user, input) };
};

const push: MethodHandler = (ctx, args) => {
  const trigger = checkTrigger(ctx.store, requireString(args, 'trigger_id', 'invalid_trigger_id'));
  const input = viewArg(args, 'modal');
  if (modalStack(ctx.store, trigger.user).length === 0) {
    trigger.used = true;
    return { view: openModal(ctx.store, trigger.user, input) };
  }
  const view = pushModal(ctx.store, trigger.user, input);
  trigger.used = true;
  return { view };
};

const update: MethodHandler = (ctx, args) => {
  const viewId = optString(args, 'view_id');
  const externalId = optString(args, 'external_id');
  if (!viewId && !externalId)
    throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] either view_id or external_id is required'] } });
  const input = viewArg(args, 'any');
  const found = findView(ctx.store, viewId ? { viewId } : { externalId: externalId as string });
  if (!found) throw new ApiError('not_found');
  return { view: updateView(ctx.store, found, input, optString(args, 'hash')) };
};

const publish: MethodHandler = (ctx, args) => {
  const user = ctx.store.user(requireString(args, 'user_id', 'invalid_arguments'));
  if (!user || user.is_bot) throw new ApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] invalid user_id'] } });
  const input = viewArg(args, 'home');
  return { view: publishHome(ctx.store, user.id, input, optString(args, 'hash')) };
};

export const viewMethods: Record<string, MethodHandler> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
