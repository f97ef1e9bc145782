// The type-ahead for external_select / multi_external_select in modals.
// Options come from the backend (Slack's block_suggestion); `min_query_length` is honoured.
import { chip } from './blocks.js';
import { escapeHtml as esc } from './html.js';

/** Wire type-ahead behaviour under `root` (event delegation). `suggest(query)` resolves to options. */
export function installExternalSelects(root, { suggest, onError }) {
  const timers = new WeakMap();
  const wrapperOf = (el) => el.closest?.('.bk-ext');
  const menuOf = (w) => w.querySelector('.bk-ext-menu');

  const showMenu = (w, html) => {
    const menu = menuOf(w);
    menu.innerHTML = html;
    menu.hidden = false;
  };
  const hideMenu = (w) => {
    menuOf(w).hidden = true;
  };

  const load = async (w, query) => {
    const min = Number(w.dataset.minQueryLength ?? 3);
    if (query.length < min) {
      showMenu(w, `<li role="option" aria-disabled="true" class="bk-ext-none">Type at least ${min} character${min === 1 ? '' : 's'}</li>`);
      return;
    }
    const seq = String(Number(w.dataset.seq ?? 0) + 1);
    w.dataset.seq = seq;
    showMenu(w, '<li role="option" aria-disabled="true" class="bk-ext-none">Searching…</li>');
    try {
      const options = await suggest({
        blockId: w.dataset.blockId,
        actionId: w.dataset.actionId,
        value: query,
        viewId: w.closest('[data-view-id]')?.dataset.viewId || undefined,
      });
      if (w.dataset.seq !== seq) return; // a newer query is on its way
      const items = options.map(
        (o, i) =>
          `<li role="option" class="bk-ext-item${i === 0 ? ' active' : ''}" data-option="${esc(JSON.stringify(o))}">${esc(o.text?.text ?? o.value)}</li>`,
      );
      showMenu(w, items.join('') || '<li role="option" aria-disabled="true" class="bk-ext-none">No matches</li>');
    } catch (err) {
      hideMenu(w);
      onError(err);
    }
  };

  const pick = (w, item) => {
    let option;
    try {
      option = JSON.parse(item.dataset.option);
    } catch {
      return;
    }
    const chosen = w.querySelector('.bk-ext-chosen');
    const name = w.dataset.name;
    if (w.dataset.multi === '1') {
      const already = [...chosen.querySelectorAll('input[type=hidden]')].some((i) => JSON.parse(i.value).value === option.value);
      if (!already) chosen.insertAdjacentHTML('beforeend', chip(option, name));
    } else {
      chosen.innerHTML = chip(option, name);
    }
    const q = w.querySelector('.bk-ext-query');
    q.value = '';
    hideMenu(w);
  };

  root.addEventListener('input', (ev) => {
    const w = wrapperOf(ev.target);
    if (!w || !ev.target.matches('.bk-ext-query')) return;
    clearTimeout(timers.get(w));
    timers.set(
      w,
      setTimeout(() => load(w, ev.target.value), 200),
    );
  });
  root.addEventListener('focusin', (ev) => {
    const w = wrapperOf(ev.target);
    if (w && ev.target.matches('.bk-ext-query')) load(w, ev.target.value);
  });
  root.addEventListener('focusout', (ev) => {
    const w = wrapperOf(ev.target);
    if (w && ev.target.matches('.bk-ext-query')) setTimeout(() => w.isConnected && hideMenu(w), 150);
  });
  root.addEventListener('mousedown', (ev) => {
    const item = ev.target.closest?.('.bk-ext-item');
    const w = item && wrapperOf(item);
    if (!w) return;
    ev.preventDefault();
    pick(w, item);
  });
  root.addEventListener('keydown', (ev) => {
    const w = wrapperOf(ev.target);
    if (!w || !ev.target.matches('.bk-ext-query')) return;
    const items = [...w.querySelectorAll('.bk-ext-item')];
    const at = items.findIndex((i) => i.classList.contains('active'));
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (!items.length) return;
      const next = (at + (ev.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      for (const [n, i] of items.entries()) i.classList.toggle('active', n === next);
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      const item = items[at] ?? items[0];
      if (item && !menuOf(w).hidden) pick(w, item);
    } else if (ev.key === 'Escape' && !menuOf(w).hidden) {
      ev.preventDefault();
      ev.stopPropagation();
      hideMenu(w);
    }
  });
}
