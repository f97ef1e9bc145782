// The Slack-like chrome around Block Kit: sidebar, message list, thread (pure HTML strings).
import { colourClass, escapeHtml as esc, icon } from './html.js';
import { renderBlocks, renderMrkdwn } from './blocks.js';

const isTopLevel = (m) => !m.thread_ts || m.thread_ts === m.ts;
const byTs = (a, b) => Number(a.ts) - Number(b.ts);

/** The conversations a user sees: every channel, their DM with the app, their other DMs. */
export function conversationsFor(state, userId) {
  const appId = state.app?.bot_user_id;
  const mine = (state.ims ?? []).filter((d) => d.members.includes(userId));
  return {
    channels: state.channels ?? [],
    appIm: mine.find((d) => d.members.includes(appId)) ?? null,
    otherIms: mine.filter((d) => !d.members.includes(appId)),
  };
}

export function displayName(state, id) {
  if (id === state.app?.bot_user_id) return state.app.name;
  const u = (state.users ?? []).find((x) => x.id === id);
  return u ? u.real_name || u.name : id;
}

/** Title for a conversation id: "#name" for a public channel, the bare name for a private one, the other person for a DM. */
export function conversationTitle(state, userId, convId) {
  const ch = (state.channels ?? []).find((c) => c.id === convId);
  if (ch) return ch.is_private ? ch.name : `# ${ch.name}`;
  const im = (state.ims ?? []).find((d) => d.id === convId);
  if (im) return displayName(state, im.members.find((m) => m !== userId) ?? userId);
  return convId;
}

export function sidebarHtml(state, userId, current) {
  const { channels, appIm, otherIms } = conversationsFor(state, userId);
  const item = (id, label, extra = '') =>
    `<li><button type="button" class="nav-item${current === id ? ' active' : ''}" data-nav="${esc(id)}"${current === id ? ' aria-current="page"' : ''}>${label}${extra}</button></li>`;
  const chans = channels.map((c) => item(c.id, `<span class="nav-icon">${c.is_private ? icon('lock') : '#'}</span>${esc(c.name)}`));
  const dms = [
    ...(appIm ? [item(appIm.id, `<span class="nav-icon nav-app">⚕</span>${esc(state.app.name)}<span class="badge">APP</span>`)] : []),
    ...otherIms.map((d) => item(d.id, `<span class="nav-icon nav-dot"></span>${esc(displayName(state, d.members.find((m) => m !== userId) ?? userId))}`)),
  ];
  return (
    `<div class="nav-section"><h2>App</h2><ul>${item('home', `<span class="nav-icon">${icon('home')}</span>Home`, `<span class="nav-sub">${esc(state.app?.name ?? '')}</span>`)}</ul></div>` +
    `<div class="nav-section"><h2>Channels</h2><ul>${chans.join('')}</ul></div>` +
    `<div class="nav-section"><h2>Direct messages</h2><ul>${dms.join('') || '<li class="nav-empty">None</li>'}</ul></div>`
  );
}

function timeOf(ts, ctx, opts) {
  const d = new Date(Number(ts) * 1000);
  try {
    return new Intl.DateTimeFormat(ctx.locale ?? 'en-US', { timeZone: ctx.timeZone, ...opts }).format(d);
  } catch {
    return d.toISOString();
  }
}

/** One message as Slack shows it; `surface` attributes route its buttons back to the backend. */
export function messageHtml(m, state, convId, ctx, { inThread = false, replies = 0 } = {}) {
  const isApp = m.user === state.app?.bot_user_id || !!m.bot_id;
  const name = isApp ? (state.app?.name ?? 'App') : displayName(state, m.user);
  const body = Array.isArray(m.blocks) && m.blocks.length ? renderBlocks(m.blocks, ctx) : `<div class="msg-text">${renderMrkdwn(m.text, ctx)}</div>`;
  const eph = m.ephemeral ? `<div class="ephemeral-note">${icon('eye')} Only visible to you</div>` : '';
  const meta = m.metadata
    ? `<details class="msg-meta"><summary>metadata · ${esc(m.metadata.event_type)}</summary><pre>${esc(JSON.stringify(m.metadata.event_payload, null, 2))}</pre></details>`
    : '';
  const edited = m.edited ? '<span class="msg-edited">(edited)</span>' : '';
  const thread =
    !inThread && replies > 0
      ? `<button type="button" class="msg-replies" data-kind="open-thread" data-ts="${esc(m.ts)}">${replies} ${replies === 1 ? 'reply' : 'replies'}</button>`
      : '';
  const hover =
    !inThread && !m.ephemeral
      ? `<div class="msg-hover"><button type="button" class="icon-btn" data-kind="open-thread" data-ts="${esc(m.ts)}" title="Reply in thread" aria-label="Reply in thread">${icon('reply')}</button></div>`
      : '';
  return (
    `<article class="msg${m.ephemeral ? ' msg-ephemeral' : ''}" data-surface="message" data-channel-id="${esc(convId)}" data-ts="${esc(m.ts)}"${m.ephemeral ? ' data-ephemeral="1"' : ''}>` +
    `<div class="avatar ${isApp ? 'av-app' : colourClass(m.user)}" aria-hidden="true">${esc(isApp ? '⚕' : (name[0] ?? '?').toUpperCase())}</div>` +
    `<div class="msg-main"><div class="msg-head"><span class="msg-author">${esc(name)}</span>${isApp ? '<span class="badge">APP</span>' : ''}` +
    `<time class="msg-time" title="${esc(timeOf(m.ts, ctx, { dateStyle: 'full', timeStyle: 'short' }))}">${esc(timeOf(m.ts, ctx, { hour: 'numeric', minute: '2-digit' }))}</time>${edited}</div>` +
    `${eph}<div class="msg-body">${body}</div>${meta}${thread}</div>${hover}</article>`
  );
}

function withDays(list, render, ctx) {
  let lastDay = '';
  return list
    .map((m) => {
      const day = timeOf(m.ts, ctx, { weekday: 'long', month: 'long', day: 'numeric' });
      const divider = day !== lastDay ? `<div class="day-divider"><span>${esc(day)}</span></div>` : '';
      lastDay = day;
      return divider + render(m);
    })
    .join('');
}

/** The main pane: top-level messages plus this user's ephemeral ones, oldest first. */
export function messagesHtml(state, userId, convId, ctx) {
  const all = state.messages?.[convId] ?? [];
  const replyCount = (ts) => all.filter((r) => r.thread_ts === ts && r.ts !== ts).length;
  const eph = (state.ephemeral?.[userId]?.[convId] ?? []).filter(isTopLevel).map((m) => ({ ...m, ephemeral: true }));
  const list = [...all.filter(isTopLevel), ...eph].sort(byTs);
  if (!list.length) return `<div class="empty">No messages yet in ${esc(conversationTitle(state, userId, convId))}.</div>`;
  return withDays(list, (m) => messageHtml(m, state, convId, ctx, { replies: Math.max(m.reply_count ?? 0, replyCount(m.ts)) }), ctx);
}

/** The thread pane: the parent, its replies and this user's ephemeral replies. */
export function threadHtml(state, userId, convId, threadTs, ctx) {
  const all = state.messages?.[convId] ?? [];
  const parent = all.find((m) => m.ts === threadTs);
  if (!parent) return '<div class="empty">This message is gone.</div>';
  const replies = [
    ...all.filter((m) => m.thread_ts === threadTs && m.ts !== threadTs),
    ...(state.ephemeral?.[userId]?.[convId] ?? []).filter((m) => m.thread_ts === threadTs).map((m) => ({ ...m, ephemeral: true })),
  ].sort(byTs);
  const count = replies.filter((m) => !m.ephemeral).length;
  return (
    messageHtml(parent, state, convId, ctx, { inThread: true }) +
    `<div class="thread-count">${count} ${count === 1 ? 'reply' : 'replies'}</div>` +
    replies.map((m) => messageHtml(m, state, convId, ctx, { inThread: true })).join('')
  );
}
