import { validateBlocks } from '../../dev/slack-fake/block-kit/validate-blocks.js';
import { validateView } from '../../dev/slack-fake/block-kit/validate-view.js';
import { ONLY_ON, SLACK_LIMITS as L, type SlackSurface } from '../../src/slack/limits.js';

/**
 * Slack's contract for one rendered payload, checked offline: the limits in src/slack/limits.ts (blocks per
 * surface, text lengths, plain_text-only fields, option counts, ids), blocks only on their surfaces, unique
 * block_ids (and action_ids within a block, as Slack asks), no lone UTF-16 surrogate anywhere, and no `<`,
 * `>` or `&` in mrkdwn except the entities the app writes. The Slack fake's own validator runs too (its
 * structure rules). Answers a list of problems, each with a JSON pointer; empty is good.
 */
export type Payload = { surface: 'message'; text?: string; blocks: unknown[] } | { surface: 'modal' | 'home'; view: Record<string, unknown> };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `>` at the start of a line is a quote the app writes; elsewhere it must be `&gt;`. What the app may write between `<` and `>` in mrkdwn: mentions, channels, dates, links, user groups. */
const ENTITY =
  /<(?:@[UW][A-Z0-9]+|#C[A-Z0-9]+(?:\|[^<>]*)?|!date\^\d+\^[^|<>]+(?:\^[^|<>]+)?\|[^<>]*|!subteam\^[A-Z0-9]+(?:\|[^<>]*)?|(?:https?:\/\/|mailto:|slack:\/\/)[^\s<>|]+(?:\|[^<>]*)?)>/y;

export function mrkdwnProblems(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(text);
      if (!m) out.push(`unescaped or broken entity at ${i}: ${JSON.stringify(text.slice(i, i + 30))}`);
      else i += m[0].length - 1;
    } else if (ch === '>' && i > 0 && text[i - 1] !== '\n') out.push(`unescaped > at ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 1))}`);
    else if (ch === '&' && !/^&(?:amp|lt|gt);/.test(text.slice(i, i + 5))) out.push(`unescaped or cut & at ${i}: ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  return out;
}

export function contractProblems(payload: Payload): string[] {
  const out: string[] = [];
  const at = (pointer: string, message: string) => out.push(`${pointer}: ${message}`);
  const surface: SlackSurface = payload.surface;
  const blocks = payload.surface === 'message' ? payload.blocks : ((payload.view.blocks as unknown[] | undefined) ?? []);
  const base = payload.surface === 'message' ? '/blocks' : '/view/blocks';

  // Every string anywhere: well-formed UTF-16.
  const strings = (v: unknown, p: string): void => {
    if (typeof v === 'string') {
      if (LONE.test(v)) at(p, `lone surrogate in ${JSON.stringify(v.slice(-20))}`);
    } else if (Array.isArray(v)) for (const [i, x] of v.entries()) strings(x, `${p}/${i}`);
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) strings(x, `${p}/${k}`);
  };
  strings(payload.surface === 'message' ? { text: payload.text, blocks: payload.blocks } : payload.view, '');

  const max = (p: string, s: unknown, limit: number) => {
    if (typeof s === 'string' && s.length > limit) at(p, `${s.length} characters, over ${limit}`);
  };
  const text = (p: string, t: unknown, limit: number, plainOnly = false) => {
    if (!isObj(t)) return;
    if (plainOnly && t.type !== 'plain_text') at(`${p}/type`, `must be plain_text, is ${String(t.type)}`);
    max(`${p}/text`, t.text, limit);
    if (t.type === 'mrkdwn' && typeof t.text === 'string') for (const m of mrkdwnProblems(t.text)) at(`${p}/text`, m);
  };
  const confirm = (p: string, c: unknown) => {
    if (!isObj(c)) return;
    text(`${p}/title`, c.title, L.confirmTitle, true);
    text(`${p}/text`, c.text, L.confirmText, true);
    text(`${p}/confirm`, c.confirm, L.confirmButton, true);
    text(`${p}/deny`, c.deny, L.confirmButton, true);
  };
  const options = (p: string, list: unknown, count: number, plainOnly: boolean) => {
    if (!Array.isArray(list)) return;
    if (list.length > count) at(p, `${list.length} options, over ${count}`);
    list.forEach((o, i) => {
      if (!isObj(o)) return;
      text(`${p}/${i}/text`, o.text, L.optionText, plainOnly);
      max(`${p}/${i}/value`, o.value, L.optionValue);
    });
  };
  const element = (p: string, e: unknown) => {
    if (!isObj(e)) return;
    max(`${p}/action_id`, e.action_id, L.actionId);
    if (e.type === 'button') {
      text(`${p}/text`, e.text, L.buttonText, true);
      max(`${p}/value`, e.value, L.buttonValue);
      max(`${p}/url`, e.url, L.buttonUrl);
    }
    if (e.placeholder !== undefined) text(`${p}/placeholder`, e.placeholder, L.placeholder, true);
    const choice = e.type === 'checkboxes' || e.type === 'radio_buttons';
    options(`${p}/options`, e.options, choice ? L.checkboxOptions : L.selectOptions, !choice);
    if (isObj(e.initial_option)) text(`${p}/initial_option/text`, e.initial_option.text, L.optionText, !choice);
    confirm(`${p}/confirm`, e.confirm);
  };

  const limit = surface === 'message' ? L.messageBlocks : L.viewBlocks;
  if (blocks.length > limit) at(base, `${blocks.length} blocks, over ${limit} for a ${surface}`);
  const blockIds = new Set<string>();
  blocks.forEach((b, i) => {
    const p = `${base}/${i}`;
    if (!isObj(b)) return;
    const only = ONLY_ON[String(b.type)];
    if (only && !only.includes(surface)) at(`${p}/type`, `${String(b.type)} block not allowed in a ${surface}`);
    if (typeof b.block_id === 'string') {
      max(`${p}/block_id`, b.block_id, L.blockId);
      if (blockIds.has(b.block_id)) at(`${p}/block_id`, `duplicate block_id ${b.block_id}`);
      blockIds.add(b.block_id);
    }
    if (b.type === 'section') {
      text(`${p}/text`, b.text, L.sectionText);
      if (Array.isArray(b.fields)) {
        if (b.fields.length > L.sectionFields) at(`${p}/fields`, `${b.fields.length} fields, over ${L.sectionFields}`);
        for (const [j, f] of b.fields.entries()) text(`${p}/fields/${j}`, f, L.sectionFieldText);
      }
      element(`${p}/accessory`, b.accessory);
    }
    if (b.type === 'header') text(`${p}/text`, b.text, L.headerText, true);
    if (b.type === 'context' && Array.isArray(b.elements)) {
      if (b.elements.length > L.contextElements) at(`${p}/elements`, `${b.elements.length} elements, over ${L.contextElements}`);
      b.elements.forEach((e, j) => {
        if (isObj(e) && e.type !== 'image') text(`${p}/elements/${j}`, e, L.sectionText);
      });
    }
    if (b.type === 'actions' && Array.isArray(b.elements)) {
      if (b.elements.length > L.actionsElements) at(`${p}/elements`, `${b.elements.length} elements, over ${L.actionsElements}`);
      const ids = new Set<string>();
      b.elements.forEach((e, j) => {
        element(`${p}/elements/${j}`, e);
        const id = isObj(e) ? e.action_id : undefined;
        if (typeof id === 'string' && ids.has(id)) at(`${p}/elements/${j}/action_id`, `duplicate action_id ${id} in one block`);
        if (typeof id === 'string') ids.add(id);
      });
    }
    if (b.type === 'input') {
      text(`${p}/label`, b.label, L.inputLabel, true);
      text(`${p}/hint`, b.hint, L.inputHint, true);
      element(`${p}/element`, b.element);
    }
  });

  if (payload.surface === 'message') {
    max('/text', payload.text, L.messageText);
    for (const e of validateBlocks(payload.blocks, 'message', '/blocks')) at(e.pointer, `(fake) ${e.message}`);
  } else {
    const v = payload.view;
    if (v.type !== payload.surface) at('/view/type', `expected ${payload.surface}, is ${String(v.type)}`);
    if (payload.surface === 'modal') {
      text('/view/title', v.title, L.modalTitle, true);
      text('/view/submit', v.submit, L.modalSubmit, true);
      text('/view/close', v.close, L.modalClose, true);
    }
    max('/view/private_metadata', v.private_metadata, L.privateMetadata);
    max('/view/callback_id', v.callback_id, L.callbackId);
    for (const e of validateView(v, payload.surface)) at(e.pointer, `(fake) ${e.message}`);
  }
  return out;
}
