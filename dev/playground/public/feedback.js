// Toasts, and running an act with its result shown as one.

/** Show a short message; `kind` is info, warn or error. */
export function toast(message, kind = 'info') {
  const el = document.createElement('div');
  el.className = `toast toast-${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.textContent = message;
  const x = document.createElement('button');
  x.type = 'button';
  x.className = 'toast-x';
  x.setAttribute('aria-label', 'Dismiss');
  x.textContent = '×';
  x.addEventListener('click', () => el.remove());
  el.append(x);
  document.getElementById('toasts').append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 4000);
}

/** Run an act; disable `el` meanwhile; toast its result (successes only unless `quietOk`); null on failure. */
export async function act(run, el, { quietOk = false } = {}) {
  if (el) el.disabled = true;
  try {
    const result = await run();
    if (result && typeof result.message === 'string' && !(quietOk && result.ok)) toast(result.message, result.ok ? 'info' : 'warn');
    return result;
  } catch (err) {
    toast(err.message, 'error');
    return null;
  } finally {
    if (el?.isConnected) el.disabled = false;
  }
}
