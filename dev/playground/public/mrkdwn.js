// Slack mrkdwn -> safe HTML (pure, no DOM). Every character of user text is escaped;
// only the markup this module writes itself reaches the page as HTML.
import { decodeEntities, escapeHtml, replaceEmoji } from './html.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SLOT = /\uE000(\d+)\uE001/g;

/** Render a Block Kit text object (plain_text or mrkdwn). */
export function renderText(obj, ctx = {}) {
  if (obj == null) return '';
  if (typeof obj === 'string') return renderMrkdwn(obj, ctx);
  if (obj.type === 'mrkdwn') return renderMrkdwn(obj.text, ctx);
  return renderPlainText(obj);
}

/** plain_text: shown literally (no entity decoding), emoji codes unless `emoji: false`. */
export function renderPlainText(obj) {
  const text = typeof obj === 'string' ? obj : obj?.text;
  const html = escapeHtml(text ?? '').replace(/\n/g, '<br>');
  return obj?.emoji === false ? html : replaceEmoji(html);
}

/** Slack mrkdwn: *bold*, _italic_, ~strike~, `code`, ```pre```, > quotes, <links|and> <@mentions>, date tokens. */
export function renderMrkdwn(text, ctx = {}) {
  if (text == null) return '';
  const stash = [];
  const keep = (html) => `${OPEN}${stash.push(html) - 1}${CLOSE}`;
  let s = String(text).replace(/[\uE000\uE001]/g, '');
  // Code first: no formatting inside, but links and mentions still render.
  s = s.replace(/```([\s\S]*?)```/g, (_, body) => keep(`<pre class="mk-pre">${literal(body.replace(/^\n/, ''), ctx)}</pre>`));
  s = s.replace(/`([^`\n]+)`/g, (_, body) => keep(`<code class="mk-code">${literal(body, ctx)}</code>`));
  s = s.replace(/<([^<>\n]+)>/g, (_, inner) => keep(renderToken(inner, ctx)));
  s = replaceEmoji(escapeHtml(decodeEntities(s)));
  s = renderLines(s);
  for (let i = 0; i < 4 && s.includes(OPEN); i++) s = s.replace(SLOT, (_, n) => stash[Number(n)] ?? '');
  return s;
}

/** Text inside code: tokens render, the rest is escaped as is. */
function literal(body, ctx) {
  return body
    .split(/(<[^<>\n]+>)/g)
    .map((part, i) => (i % 2 === 1 ? renderToken(part.slice(1, -1), ctx) : escapeHtml(decodeEntities(part))))
    .join('')
    .replace(/\n/g, '<br>');
}

function renderLines(escaped) {
  const out = [];
  let quote = [];
  const flush = () => {
    if (quote.length) out.push(`<blockquote class="mk-quote">${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  for (const line of escaped.split('\n')) {
    const q = /^&gt; ?(.*)$/.exec(line);
    if (q) {
      quote.push(formatInline(q[1]));
      continue;
    }
    flush();
    out.push(`${formatInline(line)}<br>`);
  }
  flush();
  return out.join('').replace(/<br>$/, '');
}

function formatInline(line) {
  let s = line;
  for (const [mark, tag] of [
    ['*', 'strong'],
    ['_', 'em'],
    ['~', 'del'],
  ]) {
    const m = `\\${mark}`;
    const re = new RegExp(`(^|[^\\w${m}])${m}(?=[^\\s${m}])([^\\n]*?[^\\s${m}])${m}(?![\\w${m}])`, 'g');
    s = s.replace(re, `$1<${tag}>$2</${tag}>`);
  }
  return s;
}

function nameOfUser(id, ctx) {
  const u = (ctx.users ?? []).find((x) => x.id === id);
  if (u) return u.name;
  if (ctx.app && ctx.app.bot_user_id === id) return ctx.app.name;
  return null;
}

/** One `<...>` token: mention, channel, special mention, date or link. */
export function renderToken(inner, ctx = {}) {
  const bar = inner.indexOf('|');
  const head = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? null : decodeEntities(inner.slice(bar + 1));
  if (head.startsWith('@')) {
    const id = head.slice(1);
    const name = nameOfUser(id, ctx) ?? label ?? id;
    return `<span class="mk-mention" data-user-id="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  }
  if (head.startsWith('#')) {
    const id = head.slice(1);
    const ch = (ctx.channels ?? []).find((c) => c.id === id);
    return `<span class="mk-mention mk-channel">#${escapeHtml(ch?.name ?? label ?? id)}</span>`;
  }
  if (head.startsWith('!')) {
    const cmd = head.slice(1);
    if (cmd.startsWith('date^')) return renderDateToken(cmd, label, ctx);
    if (['channel', 'here', 'everyone'].includes(cmd)) return `<span class="mk-mention mk-special">@${cmd}</span>`;
    if (cmd.startsWith('subteam^')) return `<span class="mk-mention">${escapeHtml(label ?? '@group')}</span>`;
    return escapeHtml(label ?? `<${head}>`);
  }
  const url = decodeEntities(head);
  // Not a link Slack would make: show the token as the text it is.
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return escapeHtml(label ?? `<${url}>`);
  const shown = escapeHtml(label ?? url);
  return `<a class="mk-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${shown}</a>`;
}

function renderDateToken(cmd, fallback, ctx) {
  const [, unix, format = '{date}'] = cmd.split('^');
  const seconds = Number(unix);
  let shown = fallback ?? '';
  if (Number.isFinite(seconds)) {
    try {
      shown = formatSlackDate(seconds, format, ctx);
    } catch {
      // An unknown time zone or locale: keep the fallback.
    }
  }
  const iso = Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : '';
  return `<time class="mk-date" datetime="${escapeHtml(iso)}" title="${escapeHtml(fallback ?? '')}">${escapeHtml(shown)}</time>`;
}

/**
 * Slack's date token format in the viewer's zone (`ctx.timeZone`, default the
 * runtime's local zone): {date_num} {date} {date_short} {date_long}, the
 * `_pretty` variants (Today/Yesterday/Tomorrow), {time} {time_secs} {ago}.
 */
export function formatSlackDate(unixSeconds, format, ctx = {}) {
  const when = new Date(unixSeconds * 1000);
  const now = new Date(ctx.now ?? Date.now());
  const locale = ctx.locale ?? 'en-US';
  const fmt = (opts, d = when) => new Intl.DateTimeFormat(locale, { timeZone: ctx.timeZone, ...opts }).format(d);
  const dayKey = (d) => {
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone: ctx.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(d);
    const get = (t) => parts.find((p) => p.type === t)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  };
  const ordinalDay = () => {
    const n = Number(fmt({ day: 'numeric' }));
    const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
    return `${n}${suffix}`;
  };
  const date = () => `${fmt({ month: 'long' })} ${ordinalDay()}, ${fmt({ year: 'numeric' })}`;
  const dateShort = () => fmt({ month: 'short', day: 'numeric', year: 'numeric' });
  const dateLong = () => `${fmt({ weekday: 'long' })}, ${date()}`;
  const pretty = (otherwise) => {
    const key = dayKey(when);
    const day = 86_400_000;
    if (key === dayKey(now)) return 'Today';
    if (key === dayKey(new Date(now.getTime() - day))) return 'Yesterday';
    if (key === dayKey(new Date(now.getTime() + day))) return 'Tomorrow';
    return otherwise();
  };
  const tokens = {
    date_num: () => dayKey(when),
    date: date,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: () => pretty(date),
    date_short_pretty: () => pretty(dateShort),
    date_long_pretty: () => pretty(dateLong),
    time: () => fmt({ hour: 'numeric', minute: '2-digit' }),
    time_secs: () => fmt({ hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    ago: () => ago(now.getTime() - when.getTime()),
  };
  return format.replace(/\{(\w+)\}/g, (whole, name) => (tokens[name] ? tokens[name]() : whole));
}

function ago(ms) {
  const future = ms < 0;
  const s = Math.abs(ms) / 1000;
  const [n, unit] =
    s < 60 ? [0, 'now'] : s < 3600 ? [Math.round(s / 60), 'minute'] : s < 86400 ? [Math.round(s / 3600), 'hour'] : [Math.round(s / 86400), 'day'];
  if (unit === 'now') return 'just now';
  const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${phrase}` : `${phrase} ago`;
}
