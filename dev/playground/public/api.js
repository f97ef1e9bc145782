// The page's calls to its server (fetch, same origin only).

async function request(method, path, body) {
  const res = await fetch(`/api/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    // Not JSON: reported below by status.
  }
  if (!res.ok) throw new Error(data?.error ?? `The server answered ${res.status}.`);
  return data;
}

const post = (path, body = {}) => request('POST', path, body);

export const api = {
  state: () => request('GET', 'state'),
  slashCommand: (userId, channelId, text) => post('slash-command', { userId, channelId, text }),
  postMessage: (userId, channelId, text, threadTs) => post('post-message', { userId, channelId, text, ...(threadTs ? { threadTs } : {}) }),
  clickButton: (userId, target) => post('click-button', { userId, ...target }),
  selectOption: (userId, target) => post('select-option', { userId, ...target }),
  submitModal: (userId, values, viewId) => post('submit-modal', { userId, values, viewId }),
  closeModal: (userId, viewId) => post('close-modal', { userId, viewId }),
  suggestOptions: (userId, query) => post('suggest-options', { userId, ...query }).then((r) => r.options ?? []),
  openHome: (userId) => post('open-home', { userId }),
  completeAction: (action) => post('simulate/complete-action', { action }),
  advanceClock: () => post('simulate/advance-clock'),
  advanceShift: () => post('simulate/advance-shift'),
  advance15: () => post('simulate/advance-15'),
  markUrgent: (action) => post('simulate/mark-urgent', { action }),
  listActions: () => post('simulate/list-actions').then((r) => r.actions ?? []),
};
