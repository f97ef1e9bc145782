import { renderMrkdwn, type RenderContext } from './mrkdwn.js';
import type { Block } from './types.js';

/** Anything a person can look at: a message, an ephemeral, a view, or bare blocks. */
export type Readable = { text?: string; blocks?: Block[]; attachments?: Block[]; title?: unknown; files?: { name: string }[] } | Block[];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(obj: unknown, ctx: RenderContext): string {
  if (!isObj(obj) || typeof obj.text !== 'string') return '';
  return renderMrkdwn(obj.text, ctx, obj.type === 'plain_text');
}

function control(el: unknown, ctx: RenderContext): string {
  if (!isObj(el)) return '';
  if (el.type === 'button') return `[${text(el.text, ctx)}]`;
  if (typeof el.type === 'string' && el.type.endsWith('select')) {
    const chosen = isObj(el.initial_option) ? text(el.initial_option.text, ctx) : text(el.placeholder, ctx);
    return chosen ? `[${chosen} ▾]` : '';
  }
  return '';
}

function richText(el: unknown, ctx: RenderContext): string {
  if (!isObj(el)) return '';
  switch (el.type) {
    case 'text':
      return String(el.text ?? '');
    case 'link':
      return String(el.text ?? el.url ?? '');
    case 'user':
      return `@${ctx.userName(String(el.user_id)) ?? String(el.user_id)}`;
    case 'channel':
      return `#${ctx.channelName(String(el.channel_id)) ?? String(el.channel_id)}`;
    case 'emoji':
      return `:${String(el.name)}:`;
    case 'broadcast':
      return `@${String(el.range)}`;
    case 'rich_text_list':
      return (Array.isArray(el.elements) ? el.elements : []).map((e) => `• ${richText(e, ctx)}`).join('\n');
    default:
      return Array.isArray(el.elements) ? el.elements.map((e) => richText(e, ctx)).join('') : '';
  }
}

function blockLines(block: Block, ctx: RenderContext): string[] {
  switch (block.type) {
    case 'header':
      return [text(block.text, ctx)];
    case 'section': {
      const lines = [text(block.text, ctx), ...(Array.isArray(block.fields) ? block.fields.map((f) => text(f, ctx)) : [])];
      return [...lines, control(block.accessory, ctx)];
    }
    case 'context':
      return [
        (Array.isArray(block.elements) ? block.elements : [])
          .map((e) => text(e, ctx))
          .filter(Boolean)
          .join(' '),
      ];
    case 'actions':
      return [
        (Array.isArray(block.elements) ? block.elements : [])
          .map((e) => control(e, ctx))
          .filter(Boolean)
          .join(' '),
      ];
    case 'input':
      return [text(block.label, ctx), text(block.hint, ctx)];
    case 'rich_text':
      return (Array.isArray(block.elements) ? block.elements : []).map((e) => richText(e, ctx));
    case 'markdown':
      return [renderMrkdwn(String(block.text ?? ''), ctx)];
    default:
      return [];
  }
}

/**
 * The text a person reads: blocks (headers, sections, fields, context, button
 * labels in [brackets], input labels) or, without blocks, the message text;
 * mentions and dates rendered for the reader, mrkdwn markers dropped.
 */
export function visibleText(item: Readable, ctx: RenderContext): string {
  const lines: string[] = [];
  const blocks = Array.isArray(item) ? item : item.blocks;
  if (!Array.isArray(item) && item.title) lines.push(text(item.title, ctx));
  if (blocks && blocks.length > 0) for (const b of blocks) lines.push(...blockLines(b, ctx));
  else if (!Array.isArray(item) && item.text) lines.push(renderMrkdwn(item.text, ctx));
  if (!Array.isArray(item)) {
    for (const a of item.attachments ?? []) {
      if (Array.isArray(a.blocks)) for (const b of a.blocks as Block[]) lines.push(...blockLines(b, ctx));
      for (const key of ['pretext', 'title', 'text'] as const) if (typeof a[key] === 'string') lines.push(renderMrkdwn(a[key], ctx));
      if (Array.isArray(a.fields)) for (const f of a.fields as Obj[]) lines.push(`${String(f.title ?? '')} ${String(f.value ?? '')}`.trim());
    }
    // A shared file shows as its name.
    for (const f of item.files ?? []) lines.push(`[file: ${f.name}]`);
  }
  return lines.filter((l) => l.trim() !== '').join('\n');
}
