import { isObj, maxLength, textObject } from './checks.js';
import { LIMITS, type BlockError } from './limits.js';
import { validateBlocks } from './validate-blocks.js';

/**
 * Validates a `view` argument (views.open/push/update/publish): type, title,
 * submit/close (<= 24 chars), a submit when there are input blocks,
 * private_metadata (<= 3000), callback_id / external_id (<= 255) and its blocks (<= 100).
 */
export function validateView(view: unknown, expected: 'modal' | 'home' | 'any'): BlockError[] {
  const out: BlockError[] = [];
  if (!isObj(view)) return [{ message: 'must provide an object', pointer: '/view' }];
  if (view.type !== 'modal' && view.type !== 'home') {
    return [{ message: 'must be one of: modal, home', pointer: '/view/type' }];
  }
  if (expected !== 'any' && view.type !== expected) {
    return [{ message: `must be ${expected} for this method`, pointer: '/view/type' }];
  }
  if (view.type === 'modal') {
    textObject(out, view.title, '/view/title', { max: LIMITS.viewTitle, plainOnly: true });
    for (const key of ['submit', 'close'] as const) {
      if (view[key] !== undefined && view[key] !== null) textObject(out, view[key], `/view/${key}`, { max: LIMITS.viewButton, plainOnly: true });
    }
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === 'input');
    if (hasInput && (view.submit === undefined || view.submit === null)) {
      out.push({ message: 'must provide a submit property when the view contains input blocks', pointer: '/view/submit' });
    }
  }
  for (const [key, max] of [
    ['private_metadata', LIMITS.privateMetadata],
    ['callback_id', LIMITS.callbackId],
    ['external_id', LIMITS.externalId],
  ] as const) {
    const value = view[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') out.push({ message: 'must be a string', pointer: `/view/${key}` });
    else maxLength(out, value, max, `/view/${key}`);
  }
  out.push(...validateBlocks(view.blocks ?? [], view.type, '/view/blocks'));
  return out;
}
