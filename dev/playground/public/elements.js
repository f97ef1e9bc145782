// Block Kit elements -> HTML (pure, no DOM). Interactive elements carry
// data-kind / data-block-id / data-action-id so app.js can route events; input
// elements carry form names so `new FormData(form)` yields their values.
import { escapeHtml as esc } from './html.js';
import { renderPlainText, renderText } from './mrkdwn.js';

/** The id Slack would use when the app gave none (stable per position). */
export const blockIdOf = (block, index) => (typeof block?.block_id === 'string' && block.block_id ? block.block_id : `block-${index}`);
export const actionIdOf = (el, index) => (typeof el?.action_id === 'string' && el.action_id ? el.action_id : `action-${index}`);

/** The form field name of an input element. */
export const fieldName = (blockId, actionId) => JSON.stringify([blockId, actionId]);

export function unsupported(kind, type) {
  return `<div class="bk-unsupported" title="Not rendered by the playground">Unsupported ${kind}: ${esc(type ?? '(none)')}</div>`;
}

const routing = (el, blockId, actionId) => `data-kind="${esc(el.type)}" data-block-id="${esc(blockId)}" data-action-id="${esc(actionId)}"`;

const optionList = (el) => [...(el.options ?? []), ...(el.option_groups ?? []).flatMap((g) => g.options ?? [])];

function optionTags(el, selected) {
  const tag = (o) => `<option value="${esc(o.value)}"${selected.includes(o.value) ? ' selected' : ''}>${esc(o.text?.text ?? o.value)}</option>`;
  if (Array.isArray(el.option_groups)) {
    return el.option_groups.map((g) => `<optgroup label="${esc(g.label?.text ?? '')}">${(g.options ?? []).map(tag).join('')}</optgroup>`).join('');
  }
  return (el.options ?? []).map(tag).join('');
}

function imageHtml(el, cls) {
  const url = typeof el.image_url === 'string' ? el.image_url : '';
  const alt = esc(el.alt_text ?? '');
  // Only local images load: the page never reaches beyond loopback.
  if (/^(data:image\/|https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/)/i.test(url)) return `<img class="${cls}" src="${esc(url)}" alt="${alt}">`;
  return `<span class="${cls} bk-img-ph" role="img" aria-label="${alt}" title="${alt}">🖼</span>`;
}

function confirmAttr(el) {
  const c = el.confirm;
  if (!c || typeof c !== 'object') return '';
  const text = [c.title?.text, c.text?.text].filter(Boolean).join('\n\n');
  return ` data-confirm="${esc(text || 'Are you sure?')}"`;
}

/** An element outside input blocks (actions block, section accessory). */
export function renderInteractive(el, ctx, blockId, index) {
  if (!el || typeof el !== 'object') return unsupported('element', typeof el);
  const actionId = actionIdOf(el, index);
  switch (el.type) {
    case 'button': {
      const style = el.style === 'primary' || el.style === 'danger' ? ` bk-btn-${el.style}` : '';
      const value = el.value !== undefined ? ` data-value="${esc(el.value)}"` : '';
      const url = typeof el.url === 'string' ? ` data-url="${esc(el.url)}"` : '';
      return `<button type="button" class="bk-btn${style}" ${routing(el, blockId, actionId)}${value}${url}${confirmAttr(el)}>${renderPlainText(el.text)}</button>`;
    }
    case 'static_select': {
      const initial = el.initial_option?.value;
      const ph = `<option value=""${initial === undefined ? ' selected' : ''} disabled>${esc(el.placeholder?.text ?? 'Select an item')}</option>`;
      // Outside an input block there is no <label>: the placeholder Slack shows is the menu's name.
      return `<select class="bk-select" aria-label="${esc(el.placeholder?.text ?? 'Select an item')}" ${routing(el, blockId, actionId)}${confirmAttr(el)}>${ph}${optionTags(el, initial === undefined ? [] : [initial])}</select>`;
    }
    case 'overflow':
      return `<select class="bk-overflow" aria-label="More actions" ${routing(el, blockId, actionId)}${confirmAttr(el)}><option value="" selected disabled>⋯</option>${optionTags(el, [])}</select>`;
    case 'datepicker':
      return `<input type="date" class="bk-date" ${routing(el, blockId, actionId)} value="${esc(el.initial_date ?? '')}"${confirmAttr(el)}>`;
    case 'users_select': {
      const initial = el.initial_user ?? '';
      const users = (ctx.users ?? []).map((u) => `<option value="${esc(u.id)}"${u.id === initial ? ' selected' : ''}>${esc(u.real_name || u.name)}</option>`);
      return `<select class="bk-select" aria-label="${esc(el.placeholder?.text ?? 'Select a person')}" ${routing(el, blockId, actionId)}><option value=""${initial ? '' : ' selected'} disabled>${esc(el.placeholder?.text ?? 'Select a person')}</option>${users.join('')}</select>`;
    }
    case 'image':
      return imageHtml(el, 'bk-accessory-img');
    default:
      return unsupported('element', el.type);
  }
}

/** Values for a field: what the user typed (ctx.values) wins over the element's initial value. */
function current(ctx, blockId, actionId, initial) {
  const kept = ctx.values?.[blockId]?.[actionId];
  return Array.isArray(kept) ? kept : initial;
}

const pad = (n) => String(n).padStart(2, '0');
/** Unix seconds -> the `datetime-local` value in the runtime's local zone. */
export function toLocalDateTime(unix) {
  const d = new Date(Number(unix) * 1000);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An element inside an input block (modals). */
export function renderInputElement(el, ctx, blockId, labelId) {
  if (!el || typeof el !== 'object') return unsupported('element', typeof el);
  const actionId = actionIdOf(el, 0);
  const name = esc(fieldName(blockId, actionId));
  const common = `name="${name}" id="${esc(labelId)}" ${routing(el, blockId, actionId)}`;
  const ph = el.placeholder?.text ? ` placeholder="${esc(el.placeholder.text)}"` : '';
  const one = (initial) => current(ctx, blockId, actionId, initial === undefined || initial === null ? [] : [String(initial)])[0] ?? '';
  const many = (initial) => current(ctx, blockId, actionId, (initial ?? []).map(String));
  switch (el.type) {
    case 'plain_text_input': {
      const len = `${el.max_length ? ` maxlength="${Number(el.max_length)}"` : ''}${el.min_length ? ` minlength="${Number(el.min_length)}"` : ''}`;
      if (el.multiline) return `<textarea class="bk-textarea" rows="4" ${common}${ph}${len}>${esc(one(el.initial_value))}</textarea>`;
      return `<input type="text" class="bk-text" ${common}${ph}${len} value="${esc(one(el.initial_value))}">`;
    }
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input': {
      const type = { email_text_input: 'email', url_text_input: 'url', number_input: 'number' }[el.type];
      const num =
        el.type === 'number_input'
          ? ` step="${el.is_decimal_allowed ? 'any' : '1'}"${el.min_value !== undefined ? ` min="${esc(el.min_value)}"` : ''}${el.max_value !== undefined ? ` max="${esc(el.max_value)}"` : ''}`
          : '';
      return `<input type="${type}" class="bk-text" ${common}${ph}${num} value="${esc(one(el.initial_value))}">`;
    }
    case 'datepicker':
      return `<input type="date" class="bk-date" ${common} value="${esc(one(el.initial_date))}">`;
    case 'timepicker': {
      const tz = el.timezone ? `<span class="bk-tz">${esc(el.timezone)}</span>` : '';
      return `<span class="bk-inline"><input type="time" class="bk-time" ${common} value="${esc(one(el.initial_time))}">${tz}</span>`;
    }
    case 'datetimepicker': {
      const initial = el.initial_date_time !== undefined ? toLocalDateTime(el.initial_date_time) : undefined;
      return `<input type="datetime-local" class="bk-datetime" ${common} value="${esc(one(initial))}">`;
    }
    case 'static_select':
    case 'multi_static_select': {
      const multi = el.type === 'multi_static_select';
      const chosen = multi ? many(el.initial_options?.map((o) => o.value)) : [one(el.initial_option?.value)];
      const placeholder = multi ? '' : `<option value="">${esc(el.placeholder?.text ?? 'Select an item')}</option>`;
      return `<select class="bk-select"${multi ? ' multiple size="5"' : ''} ${common}>${placeholder}${optionTags(el, chosen)}</select>`;
    }
    case 'users_select':
    case 'multi_users_select':
    case 'channels_select':
    case 'multi_channels_select':
    case 'conversations_select':
    case 'multi_conversations_select':
      return pickerSelect(el, ctx, common, one, many);
    case 'external_select':
    case 'multi_external_select':
      return externalSelect(el, ctx, blockId, actionId, labelId, ph);
    case 'checkboxes':
    case 'radio_buttons': {
      const box = el.type === 'checkboxes' ? 'checkbox' : 'radio';
      const chosen = box === 'checkbox' ? many(el.initial_options?.map((o) => o.value)) : [one(el.initial_option?.value)];
      const items = (el.options ?? []).map((o) => {
        const desc = o.description ? `<span class="bk-choice-desc">${renderText(o.description, ctx)}</span>` : '';
        const on = chosen.includes(o.value) ? ' checked' : '';
        return `<label class="bk-choice"><input type="${box}" name="${name}" value="${esc(o.value)}"${on} ${routing(el, blockId, actionId)}><span>${renderText(o.text, ctx)}${desc}</span></label>`;
      });
      return `<div class="bk-choices" id="${esc(labelId)}" role="group">${items.join('')}</div>`;
    }
    default:
      return unsupported('element', el.type);
  }
}

function pickerSelect(el, ctx, common, one, many) {
  const multi = el.type.startsWith('multi_');
  const base = el.type.replace(/^multi_/, '').replace(/_select$/, '');
  const pool =
    base === 'users'
      ? (ctx.users ?? []).map((u) => ({ id: u.id, label: u.real_name || u.name }))
      : (ctx.channels ?? []).map((c) => ({ id: c.id, label: c.is_private ? `${c.name} (private)` : `# ${c.name}` }));
  const initial = multi ? el[`initial_${base}`] : el[`initial_${base.replace(/s$/, '')}`];
  const chosen = multi ? many(initial) : [one(initial)];
  const opts = pool.map((p) => `<option value="${esc(p.id)}"${chosen.includes(p.id) ? ' selected' : ''}>${esc(p.label)}</option>`);
  const placeholder = multi ? '' : `<option value="">${esc(el.placeholder?.text ?? (base === 'users' ? 'Select a person' : 'Select a channel'))}</option>`;
  return `<select class="bk-select"${multi ? ' multiple size="4"' : ''} ${common}>${placeholder}${opts.join('')}</select>`;
}

/** A type-ahead: app.js asks the backend for options; chosen ones live in hidden inputs. */
function externalSelect(el, ctx, blockId, actionId, labelId, ph) {
  const multi = el.type === 'multi_external_select';
  const name = fieldName(blockId, actionId);
  let chosen = multi ? (el.initial_options ?? []) : el.initial_option ? [el.initial_option] : [];
  const kept = ctx.values?.[blockId]?.[actionId];
  if (Array.isArray(kept)) chosen = kept.map(parseOption).filter(Boolean);
  const minQuery = Number.isInteger(el.min_query_length) ? el.min_query_length : 3;
  return (
    `<div class="bk-ext" ${routing(el, blockId, actionId)} data-multi="${multi ? '1' : '0'}" data-min-query-length="${minQuery}" data-name="${esc(name)}">` +
    `<div class="bk-ext-chosen">${chosen.map((o) => chip(o, name)).join('')}</div>` +
    `<input type="search" class="bk-ext-query" id="${esc(labelId)}" autocomplete="off"${ph || ' placeholder="Type to search"'} aria-autocomplete="list">` +
    `<ul class="bk-ext-menu" role="listbox" aria-label="Suggestions" hidden></ul></div>`
  );
}

/** One chosen option of an external select (also used by app.js when the user picks one). */
export function chip(option, name) {
  return (
    `<span class="bk-chip">${esc(option.text?.text ?? option.value)}<button type="button" class="bk-chip-x" data-kind="chip-remove" aria-label="Remove">×</button>` +
    `<input type="hidden" name="${esc(name)}" value="${esc(JSON.stringify(option))}"></span>`
  );
}

export function parseOption(raw) {
  try {
    const o = JSON.parse(raw);
    return o && typeof o === 'object' && typeof o.value === 'string' ? o : null;
  } catch {
    return null;
  }
}

export { optionList };
