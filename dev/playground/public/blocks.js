// Block Kit -> HTML strings (pure functions; node tests import this module directly).
//
// ctx: { users, channels, app, timeZone?, locale?, now? (ms), errors? {block_id: message},
//        values? (raw field values from formValues, kept across re-renders) }
import { emojiFor, escapeHtml as esc } from './html.js';
import { renderMrkdwn, renderPlainText, renderText, formatSlackDate } from './mrkdwn.js';
import { actionIdOf, blockIdOf, renderInputElement, renderInteractive, unsupported, chip, fieldName } from './elements.js';
import { collectViewState, formValues, inputFields, validateViewState } from './view-state.js';

export { renderMrkdwn, renderPlainText, renderText, formatSlackDate, collectViewState, formValues, validateViewState, chip, fieldName, blockIdOf, actionIdOf };

/** Render a list of blocks; unknown types show a visible placeholder. */
export function renderBlocks(blocks, ctx = {}) {
  if (!Array.isArray(blocks)) return '';
  return blocks.map((block, i) => renderBlock(block, i, ctx)).join('');
}

function renderBlock(block, index, ctx) {
  if (!block || typeof block !== 'object') return unsupported('block', typeof block);
  const blockId = blockIdOf(block, index);
  const wrap = (inner, extra = '') => `<div class="bk bk-${esc(block.type)}${extra}" data-block-id="${esc(blockId)}">${inner}</div>`;
  switch (block.type) {
    case 'section': {
      const text = block.text ? `<div class="bk-text-body">${renderText(block.text, ctx)}</div>` : '';
      const fields =
        Array.isArray(block.fields) && block.fields.length
          ? `<div class="bk-fields">${block.fields.map((f) => `<div class="bk-field-cell">${renderText(f, ctx)}</div>`).join('')}</div>`
          : '';
      const accessory = block.accessory ? `<div class="bk-accessory">${renderInteractive(block.accessory, ctx, blockId, 0)}</div>` : '';
      return wrap(`<div class="bk-section-main">${text}${fields}</div>${accessory}`);
    }
    case 'header':
      return wrap(`<h3 class="bk-header-text">${renderPlainText(block.text)}</h3>`);
    case 'divider':
      return wrap('<hr>');
    case 'context':
      return wrap((block.elements ?? []).map((el) => contextElement(el, ctx)).join(''));
    case 'actions':
      return wrap((block.elements ?? []).map((el, i) => renderInteractive(el, ctx, blockId, i)).join(''));
    case 'image': {
      const title = block.title ? `<figcaption>${renderPlainText(block.title)}</figcaption>` : '';
      return wrap(
        `<figure class="bk-figure">${renderInteractive({ ...block, type: 'image' }, ctx, blockId, 0)}${title}<span class="bk-alt">${esc(block.alt_text ?? '')}</span></figure>`,
      );
    }
    case 'input':
      return renderInputBlock(block, blockId, ctx);
    case 'rich_text':
      return wrap((block.elements ?? []).map((el) => richBlock(el, ctx)).join(''));
    default:
      return unsupported('block', block.type);
  }
}

function contextElement(el, ctx) {
  if (el?.type === 'image') return renderInteractive(el, ctx, '', 0).replace('bk-accessory-img', 'bk-context-img');
  if (el?.type === 'mrkdwn' || el?.type === 'plain_text') return `<span class="bk-context-text">${renderText(el, ctx)}</span>`;
  return unsupported('element', el?.type);
}

function renderInputBlock(block, blockId, ctx) {
  const labelId = `f-${blockId}`.replace(/[^\w-]/g, '_');
  const optional = block.optional ? ' <span class="bk-optional">(optional)</span>' : '';
  const error = ctx.errors?.[blockId];
  const hint = block.hint ? `<div class="bk-hint">${renderPlainText(block.hint)}</div>` : '';
  const err = error ? `<div class="bk-error" role="alert">${esc(error)}</div>` : '';
  return (
    `<div class="bk bk-input${error ? ' has-error' : ''}" data-block-id="${esc(blockId)}"${block.dispatch_action === true ? ' data-dispatch-action="1"' : ''}>` +
    `<label class="bk-label" for="${esc(labelId)}">${renderPlainText(block.label)}${optional}</label>` +
    `${renderInputElement(block.element, ctx, blockId, labelId)}${err}${hint}</div>`
  );
}

function richBlock(el, ctx) {
  const inline = (els) => (els ?? []).map((e) => richInline(e, ctx)).join('');
  switch (el?.type) {
    case 'rich_text_section':
      return `<div class="rt-section">${inline(el.elements)}</div>`;
    case 'rich_text_quote':
      return `<blockquote class="mk-quote">${inline(el.elements)}</blockquote>`;
    case 'rich_text_preformatted':
      return `<pre class="mk-pre">${inline(el.elements)}</pre>`;
    case 'rich_text_list': {
      const tag = el.style === 'ordered' ? 'ol' : 'ul';
      const indent = Number.isInteger(el.indent) ? ` rt-indent-${Math.min(el.indent, 4)}` : '';
      return `<${tag} class="rt-list${indent}">${(el.elements ?? []).map((s) => `<li>${inline(s.elements)}</li>`).join('')}</${tag}>`;
    }
    default:
      return unsupported('element', el?.type);
  }
}

function richInline(e, ctx) {
  const style = (html) => {
    const s = e.style ?? {};
    let out = html;
    if (s.code) out = `<code class="mk-code">${out}</code>`;
    if (s.bold) out = `<strong>${out}</strong>`;
    if (s.italic) out = `<em>${out}</em>`;
    if (s.strike) out = `<del>${out}</del>`;
    return out;
  };
  switch (e?.type) {
    case 'text':
      return style(esc(e.text ?? '').replace(/\n/g, '<br>'));
    case 'link': {
      const url = String(e.url ?? '');
      const label = esc(e.text ?? url);
      return /^(https?:\/\/|mailto:)/i.test(url)
        ? style(`<a class="mk-link" href="${esc(url)}" target="_blank" rel="noopener noreferrer">${label}</a>`)
        : style(label);
    }
    case 'user':
      return renderMrkdwn(`<@${String(e.user_id ?? '').replace(/[<>|]/g, '')}>`, ctx);
    case 'channel':
      return renderMrkdwn(`<#${String(e.channel_id ?? '').replace(/[<>|]/g, '')}>`, ctx);
    case 'usergroup':
      return `<span class="mk-mention">@group</span>`;
    case 'broadcast':
      return `<span class="mk-mention mk-special">@${esc(e.range ?? 'here')}</span>`;
    case 'emoji':
      return esc(
        e.unicode
          ? String.fromCodePoint(
              ...String(e.unicode)
                .split('-')
                .map((h) => parseInt(h, 16))
                .filter((n) => Number.isFinite(n)),
            )
          : emojiFor(e.name ?? ''),
      );
    case 'date': {
      const token = `<!date^${Number(e.timestamp)}^${String(e.format ?? '{date}').replace(/[<>|]/g, '')}|${String(e.fallback ?? '').replace(/[<>]/g, '')}>`;
      return renderMrkdwn(token, ctx);
    }
    default:
      return unsupported('element', e?.type);
  }
}

/**
 * A modal (as a <form>) or a Home tab. Inline errors come from `view.errors`
 * unless `ctx.errors` is given; `ctx.values` keeps what the user typed.
 */
export function renderView(view, ctx = {}) {
  if (!view || typeof view !== 'object') return '';
  const errors = ctx.errors ?? view.errors ?? {};
  const inner = renderBlocks(view.blocks, { ...ctx, errors });
  const id = esc(view.id ?? '');
  if (view.type === 'home') return `<div class="bk-view bk-home" data-surface="home" data-view-id="${id}">${inner}</div>`;
  const banner = view.general_error ? `<div class="modal-banner" role="alert">${esc(view.general_error)}</div>` : '';
  const submit = view.submit ? `<button type="submit" class="bk-btn bk-btn-primary">${renderPlainText(view.submit)}</button>` : '';
  const close = renderPlainText(view.close ?? { type: 'plain_text', text: view.submit || inputFields(view).length ? 'Cancel' : 'Close' });
  return (
    `<form class="bk-view bk-modal" data-surface="modal" data-view-id="${id}" novalidate>` +
    `<header class="modal-head"><h2 class="modal-title">${renderPlainText(view.title ?? '')}</h2>` +
    `<button type="button" class="modal-x" data-kind="close-modal" aria-label="Close">×</button></header>` +
    `${banner}<div class="modal-body">${inner}</div>` +
    `<footer class="modal-foot"><button type="button" class="bk-btn" data-kind="close-modal">${close}</button>${submit}</footer></form>`
  );
}

/** The element a block_id/action_id pair names in a list of blocks (for looking up options). */
export function findElement(blocks, blockId, actionId) {
  for (const [i, block] of (blocks ?? []).entries()) {
    if (blockIdOf(block, i) !== blockId) continue;
    const candidates = block.type === 'actions' ? (block.elements ?? []) : [block.accessory ?? block.element].filter(Boolean);
    return candidates.find((el, j) => actionIdOf(el, j) === actionId) ?? null;
  }
  return null;
}
