// Slack's confirmation dialog (the `confirm` object of a button or menu), drawn in the page
// as Slack draws it: its title, its text, and its own Cancel / Confirm words (not the
// browser's OK / Cancel box, which shows neither and cannot be seen in a screenshot).
import { escapeHtml as esc } from './html.js';
import { renderPlainText, renderText } from './mrkdwn.js';

const plain = (text) => ({ type: 'plain_text', text });

/**
 * Ask with `spec` (a Block Kit confirmation dialog object; a plain string is taken as its text).
 * Resolves true when the person confirms, false when they cancel (button, Escape or the backdrop).
 */
export function askToConfirm(spec, ctx = {}) {
  const c = spec && typeof spec === 'object' ? spec : { text: plain(String(spec ?? '')) };
  const yesStyle = c.style === 'danger' ? 'bk-btn-danger-solid' : 'bk-btn-primary';
  const root = document.createElement('div');
  root.className = 'confirm-root';
  root.innerHTML =
    '<div class="modal-backdrop" data-answer="no"></div>' +
    '<div class="confirm-box" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-text">' +
    `<h2 class="confirm-title" id="confirm-title">${renderPlainText(c.title ?? plain('Are you sure?'))}</h2>` +
    `<div class="confirm-text" id="confirm-text">${renderText(c.text ?? plain(''), ctx)}</div>` +
    '<footer class="confirm-foot">' +
    `<button type="button" class="bk-btn" data-answer="no">${renderPlainText(c.deny ?? plain('Cancel'))}</button>` +
    `<button type="button" class="bk-btn ${esc(yesStyle)}" data-answer="yes">${renderPlainText(c.confirm ?? plain('Yes'))}</button>` +
    '</footer></div>';
  const before = document.activeElement;
  document.body.append(root);
  return new Promise((resolve) => {
    const answer = (yes) => {
      root.remove();
      if (before?.isConnected) before.focus?.();
      resolve(yes);
    };
    root.addEventListener('click', (ev) => {
      const a = ev.target.closest('[data-answer]');
      if (a) answer(a.dataset.answer === 'yes');
    });
    root.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape') return;
      ev.preventDefault(); // not also the modal underneath
      ev.stopPropagation();
      answer(false);
    });
    root.querySelector('[data-answer="yes"]').focus();
  });
}
