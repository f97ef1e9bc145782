// The "Simulate" panel: things that happen in the care system, outside Slack.
import { api } from './api.js';
import { act, toast } from './feedback.js';
import { escapeHtml as esc } from './html.js';

export function installSimulatePanel() {
  const panel = document.getElementById('simulate-panel');
  const toggle = document.getElementById('simulate-toggle');
  const select = document.getElementById('sim-action');

  async function refresh() {
    try {
      const actions = await api.listActions();
      const before = select.value;
      select.innerHTML = actions.length
        ? actions
            .map(
              (a) =>
                `<option value="${esc(a.no ?? a.id)}">${a.no !== undefined ? `#${esc(a.no)} ` : ''}${esc(a.title)}${a.completed ? ' (completed)' : ''}${a.urgent ? ' (urgent)' : ''}</option>`,
            )
            .join('')
        : '<option value="">No actions</option>';
      const open = actions.find((a) => !a.completed);
      if ([...select.options].some((o) => o.value === before)) select.value = before;
      else if (open) select.value = String(open.no ?? open.id);
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  async function run(kind, el) {
    const action = select.value;
    const clockOnly = kind === 'digest' || kind === 'shift' || kind === 'minutes';
    if (!clockOnly && !action) return toast('Choose an action first.', 'warn');
    const call = {
      complete: () => api.completeAction(action),
      urgent: () => api.markUrgent(action),
      digest: () => api.advanceClock(),
      shift: () => api.advanceShift(),
      minutes: () => api.advance15(),
    }[kind];
    if (call) await act(call, el);
    refresh();
  }

  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden) refresh();
  });
  panel.addEventListener('click', (ev) => {
    const button = ev.target.closest('[data-sim]');
    if (button) run(button.dataset.sim, button);
  });

  return {
    /** The state changed: keep the list current while the panel is open. */
    changed() {
      if (!panel.hidden) refresh();
    },
  };
}
