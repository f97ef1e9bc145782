// The playground page: renders the backend's state and turns clicks into backend acts.
// Location hash: #user=<user id>&c=<conversation id | home>[&t=<thread ts>]
import { api } from './api.js';
import { collectViewState, findElement, formValues, renderView, validateViewState } from './blocks.js';
import { askToConfirm } from './confirm-dialog.js';
import { conversationTitle, conversationsFor, messagesHtml, sidebarHtml, threadHtml } from './conversation.js';
import { installExternalSelects } from './ext-select.js';
import { act, toast } from './feedback.js';
import { escapeHtml as esc, icon } from './html.js';
import { installSimulatePanel } from './simulate-panel.js';

const $ = (id) => document.getElementById(id);

function createApp() {
  const ui = { state: null, userId: null, nav: null, threadTs: null, shownNav: null, html: {}, loading: false, dirty: false, modal: { key: null, view: null } };

  // ---- state ----------------------------------------------------------------
  async function load() {
    if (ui.loading) {
      ui.dirty = true;
      return;
    }
    ui.loading = true;
    try {
      ui.state = await api.state();
      render();
    } catch (err) {
      toast(`Could not load the state: ${err.message}`, 'error');
    } finally {
      ui.loading = false;
      if (ui.dirty) {
        ui.dirty = false;
        load();
      }
    }
  }

  const me = () => ui.state?.users.find((u) => u.id === ui.userId);
  const ctx = () => ({
    users: ui.state.users,
    channels: ui.state.channels,
    app: ui.state.app,
    timeZone: me()?.tz,
    now: ui.state.clock ? Date.parse(ui.state.clock.now) : Date.now(),
  });

  function ensureSelection() {
    const s = ui.state;
    if (!s.users.some((u) => u.id === ui.userId)) ui.userId = s.users[0]?.id ?? null;
    const { channels, appIm, otherIms } = conversationsFor(s, ui.userId);
    const ids = ['home', ...channels.map((c) => c.id), ...(appIm ? [appIm.id] : []), ...otherIms.map((d) => d.id)];
    if (!ids.includes(ui.nav)) ui.nav = appIm?.id ?? channels[0]?.id ?? 'home';
    if (ui.nav === 'home' || !(s.messages[ui.nav] ?? []).some((m) => m.ts === ui.threadTs)) ui.threadTs = null;
  }

  function readHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    ui.userId = p.get('user') ?? ui.userId;
    ui.nav = p.get('c') ?? ui.nav;
    ui.threadTs = p.get('t');
  }

  function writeHash() {
    const p = new URLSearchParams({ user: ui.userId ?? '', c: ui.nav ?? '' });
    if (ui.threadTs) p.set('t', ui.threadTs);
    const hash = `#${p}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  // ---- rendering ------------------------------------------------------------
  /** Replace an element's HTML only when it changed (keeps focus, scroll and open menus otherwise). */
  function setHtml(id, html) {
    if (ui.html[id] === html) return false;
    ui.html[id] = html;
    $(id).innerHTML = html;
    return true;
  }

  function render() {
    const s = ui.state;
    if (!s) return;
    ensureSelection();
    document.title = `${s.team.name} · Slack playground`;
    $('team-name').textContent = s.team.name;
    setHtml('clock', s.clock ? `${icon('clock')} ${esc(formatClock(s.clock.now))}` : '');
    setHtml(
      'user-select',
      s.users.map((u) => `<option value="${esc(u.id)}">${esc(u.real_name || u.name)} (@${esc(u.name)})${u.is_admin ? ' · admin' : ''}</option>`).join(''),
    );
    $('user-select').value = ui.userId;
    // At a phone's width the conversations are one scrolling row: the open one is scrolled into sight, never cut off.
    if (setHtml('sidebar', sidebarHtml(s, ui.userId, ui.nav)))
      $('sidebar').querySelector('.nav-item.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    renderMain();
    renderThread();
    renderModal();
    writeHash();
  }

  function formatClock(iso) {
    const tz = me()?.tz;
    try {
      const shown = new Intl.DateTimeFormat('en-GB', {
        timeZone: tz,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso));
      return `${shown}${tz ? ` (${tz})` : ''}`;
    } catch {
      return iso;
    }
  }

  function renderMain() {
    const s = ui.state;
    const body = $('conv-body');
    const atBottom = body.scrollHeight - body.scrollTop - body.clientHeight < 80;
    const navChanged = ui.shownNav !== `${ui.userId}/${ui.nav}`;
    ui.shownNav = `${ui.userId}/${ui.nav}`;
    if (ui.nav === 'home') {
      setHtml('conv-head', `<h1>${icon('home')} Home</h1><span class="conv-sub">${esc(s.app.name)}</span>`);
      const view = s.home[ui.userId];
      setHtml('conv-body', view ? renderView(view, ctx()) : '<div class="empty">The app has not published a Home tab for you yet.</div>');
      $('composer').hidden = true;
      if (navChanged) body.scrollTop = 0;
      return;
    }
    const title = conversationTitle(s, ui.userId, ui.nav);
    const locked = s.channels.some((c) => c.id === ui.nav && c.is_private);
    setHtml('conv-head', `<h1>${locked ? icon('lock') : ''}${esc(title)}</h1>`);
    $('composer').hidden = false;
    $('composer-input').placeholder = `Message ${title}`;
    if (setHtml('conv-body', messagesHtml(s, ui.userId, ui.nav, ctx())) && (navChanged || atBottom)) body.scrollTop = body.scrollHeight;
  }

  function renderThread() {
    const open = !!ui.threadTs && ui.nav !== 'home';
    $('thread').hidden = !open;
    $('app').classList.toggle('with-thread', open);
    if (open) setHtml('thread-body', threadHtml(ui.state, ui.userId, ui.nav, ui.threadTs, ctx()));
  }

  function renderModal({ errors, force = false } = {}) {
    const view = ui.state.modals[ui.userId]?.at(-1) ?? null;
    const key = view ? `${ui.userId}\n${JSON.stringify(view)}` : null;
    if (key === ui.modal.key && !force) return;
    const root = $('modal-root');
    if (!view) {
      const wasIn = root.contains(document.activeElement) || document.activeElement === document.body;
      root.hidden = true;
      root.innerHTML = '';
      // The keyboard goes back to where it was before the modal opened (WCAG 2.4.3), not to the top of the page.
      const back = ui.modal.returnTo?.isConnected ? ui.modal.returnTo : $('composer-input');
      ui.modal = { key: null, view: null };
      if (wasIn) back?.focus();
      return;
    }
    const form = root.querySelector('form.bk-modal');
    const same = form && ui.modal.view?.id === view.id && ui.modal.userId === ui.userId;
    const values = same ? formValues(form, ui.modal.view) : undefined;
    const focused = same ? (document.activeElement?.getAttribute('name') ?? document.activeElement?.id) : null;
    const depth = ui.state.modals[ui.userId].length;
    root.innerHTML = `<div class="modal-backdrop"></div><div class="modal-frame" role="dialog" aria-modal="true" aria-label="${esc(view.title?.text ?? 'Modal')}">${depth > 1 ? `<div class="modal-depth">View ${depth} of ${depth}</div>` : ''}${renderView(view, { ...ctx(), values, ...(errors ? { errors } : {}) })}</div>`;
    root.hidden = false;
    const returnTo = ui.modal.view ? ui.modal.returnTo : document.activeElement;
    ui.modal = { key, view, userId: ui.userId, returnTo };
    const again = focused && [...root.querySelectorAll('[name], [id]')].find((el) => el.getAttribute('name') === focused || el.id === focused);
    const first = same ? null : root.querySelector('.modal-body input, .modal-body textarea, .modal-body select');
    (again || first)?.focus();
  }

  // ---- acts -----------------------------------------------------------------
  function navigate(nav) {
    ui.nav = nav;
    ui.threadTs = null;
    render();
    if (nav === 'home') act(() => api.openHome(ui.userId), null, { quietOk: true });
  }

  function targetOf(el, surface) {
    const where = surface.dataset.surface;
    const t = { where, blockId: el.dataset.blockId, actionId: el.dataset.actionId };
    if (where === 'message') {
      t.channelId = surface.dataset.channelId;
      t.ts = surface.dataset.ts;
      if (surface.dataset.ephemeral) t.isEphemeral = true;
    } else if (surface.dataset.viewId) {
      t.viewId = surface.dataset.viewId;
    }
    return t;
  }

  function blocksOf(surface) {
    const s = ui.state;
    const where = surface.dataset.surface;
    if (where === 'home') return s.home[ui.userId]?.blocks ?? [];
    if (where === 'modal') return s.modals[ui.userId]?.at(-1)?.blocks ?? [];
    const list = surface.dataset.ephemeral ? s.ephemeral[ui.userId]?.[surface.dataset.channelId] : s.messages[surface.dataset.channelId];
    return list?.find((m) => m.ts === surface.dataset.ts)?.blocks ?? [];
  }

  /** In a modal, what the person has entered so far goes with a click, as Slack sends the view's state. */
  function withModalValues(target, surface) {
    const form = surface.matches('form.bk-modal') ? surface : null;
    if (form && ui.modal.view) target.values = collectViewState(form, ui.modal.view);
    return target;
  }

  /** Asks with the element's own confirmation dialog (Slack asks before it sends the click). */
  function confirmed(el, surface) {
    const def = findElement(blocksOf(surface), el.dataset.blockId, el.dataset.actionId);
    return askToConfirm(def?.confirm ?? el.dataset.confirm, ctx());
  }

  async function onButton(el) {
    const surface = el.closest('[data-surface]');
    if (!surface) return;
    // Only a button that asks waits: one that does not is sent (and disabled) at once, as before.
    if (el.dataset.confirm && !(await confirmed(el, surface))) return;
    const target = withModalValues(targetOf(el, surface), surface);
    if (el.dataset.value !== undefined) target.value = el.dataset.value;
    if (el.dataset.url) toast(`This button links to ${el.dataset.url} (not opened in the playground).`);
    act(() => api.clickButton(ui.userId, target), el);
  }

  async function onSelect(el) {
    const surface = el.closest('[data-surface]');
    const kind = el.dataset.kind;
    // Inside an input block a choice is only sent when the block asks for it (dispatch_action).
    const input = el.closest('.bk-input');
    if (!surface || (input && !input.dataset.dispatchAction) || !el.value) return;
    let selected;
    if (kind === 'static_select' || kind === 'overflow') {
      const def = findElement(blocksOf(surface), el.dataset.blockId, el.dataset.actionId);
      const options = [...(def?.options ?? []), ...(def?.option_groups ?? []).flatMap((g) => g.options ?? [])];
      const option = options.find((o) => o.value === el.value) ?? {
        text: { type: 'plain_text', text: el.selectedOptions[0]?.textContent ?? el.value },
        value: el.value,
      };
      selected = { type: kind, selected_option: option };
    } else if (kind === 'users_select') {
      selected = { type: kind, selected_user: el.value };
    } else if (kind === 'datepicker') {
      selected = { type: kind, selected_date: el.value };
    } else {
      return;
    }
    if (el.dataset.confirm && !(await confirmed(el, surface))) {
      // Cancelled: the menu shows what it showed before the choice.
      const def = findElement(blocksOf(surface), el.dataset.blockId, el.dataset.actionId);
      el.value = (kind === 'datepicker' ? def?.initial_date : def?.initial_option?.value) ?? '';
      return;
    }
    const target = withModalValues(targetOf(el, surface), surface);
    if (kind === 'overflow') el.value = '';
    act(() => api.selectOption(ui.userId, { ...target, selected }), el);
  }

  async function submitModal(form) {
    const view = ui.modal.view;
    if (!view) return;
    const values = collectViewState(form, view);
    const errors = validateViewState(view, values);
    if (Object.keys(errors).length) return renderModal({ errors, force: true });
    await act(() => api.submitModal(ui.userId, values, view.id), form.querySelector('button[type=submit]'), { quietOk: true });
    renderModal({ force: true });
  }

  function closeModal() {
    const view = ui.modal.view;
    if (view) act(() => api.closeModal(ui.userId, view.id), null, { quietOk: true });
  }

  async function send(input, threadTs) {
    const text = input.value.trim();
    if (!text || ui.nav === 'home') return;
    const slash = text.startsWith('/');
    // As Slack does: the composer empties at once, so the next line can be typed while this one is answered; a
    // line that failed comes back only into an empty composer (never over what was typed since).
    const typed = input.value;
    input.value = '';
    autosize(input);
    const result = await act(() => (slash ? api.slashCommand(ui.userId, ui.nav, text) : api.postMessage(ui.userId, ui.nav, text, threadTs)), null, {
      quietOk: true,
    });
    if (!result && !input.value) {
      input.value = typed;
      autosize(input);
    }
  }

  function autosize(t) {
    t.style.height = 'auto';
    t.style.height = `${Math.min(t.scrollHeight, 160)}px`;
  }

  // ---- events ---------------------------------------------------------------
  function install() {
    document.addEventListener('click', (ev) => {
      const t = ev.target.closest('[data-nav], button[data-kind]');
      if (!t) return;
      if (t.dataset.nav) return navigate(t.dataset.nav);
      if (t.dataset.kind === 'button') return onButton(t);
      if (t.dataset.kind === 'close-modal') return closeModal();
      if (t.dataset.kind === 'chip-remove') return t.closest('.bk-chip')?.remove();
      if (t.dataset.kind === 'open-thread') {
        ui.threadTs = t.dataset.ts;
        render();
        $('thread-input').focus();
      }
    });
    document.addEventListener('change', (ev) => {
      if (ev.target.matches?.('select[data-kind], input[data-kind]')) onSelect(ev.target);
    });
    document.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const form = ev.target;
      if (form.id === 'composer') send($('composer-input'));
      else if (form.id === 'thread-composer') send($('thread-input'), ui.threadTs);
      else if (form.matches('form.bk-modal')) submitModal(form);
    });
    for (const id of ['composer-input', 'thread-input']) {
      const t = $(id);
      t.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
          ev.preventDefault();
          t.form.requestSubmit();
        }
      });
      t.addEventListener('input', () => autosize(t));
    }
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && !ev.defaultPrevented && ui.modal.view) closeModal();
    });
    $('user-select').addEventListener('change', (ev) => {
      ui.userId = ev.target.value;
      ui.threadTs = null;
      render();
      if (ui.nav === 'home') act(() => api.openHome(ui.userId), null, { quietOk: true });
    });
    $('thread-close').addEventListener('click', () => {
      ui.threadTs = null;
      render();
    });
    ui.simulate = installSimulatePanel();
    window.addEventListener('hashchange', () => {
      readHash();
      render();
    });
    installExternalSelects($('modal-root'), {
      suggest: (query) => api.suggestOptions(ui.userId, query),
      onError: (err) => toast(err.message, 'error'),
    });
  }

  function connect() {
    const events = new EventSource('/api/events');
    events.addEventListener('change', () => {
      load();
      ui.simulate.changed();
    });
    events.addEventListener('open', () => {
      $('live').classList.add('on');
      load();
    });
    events.addEventListener('error', () => $('live').classList.remove('on'));
  }

  return {
    async start() {
      readHash();
      install();
      await load();
      if (ui.nav === 'home') act(() => api.openHome(ui.userId), null, { quietOk: true });
      connect();
    },
  };
}

createApp().start();
