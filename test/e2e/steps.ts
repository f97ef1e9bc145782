/** Steps several e2e tests take the same way, through the harness (what a person does and sees). */
import { expect } from 'vitest';
import type { Harness } from './harness.js';

/**
 * `user` creates an action through Slack (the `/care new` form, due 14:00, optionally urgent or assigned);
 * resolves to the action as the care system has it.
 */
export async function createInSlack(
  h: Harness,
  user: string,
  task: string,
  options: { urgent?: boolean; assignee?: string } = {},
): Promise<{ _id: string; action_no: string }> {
  await h.driver.slash(user, `/care new ${task}`, { channel: '#care-team' });
  await h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
  const form = h.driver.modal(user).fill('Due time', '14:00');
  if (options.urgent) form.fill('Urgency', ['Urgent (shows at the top of dashboards)']);
  if (options.assignee) form.fill('Assignee', options.assignee);
  expect((await form.submit()).outcome).toBe('closed');
  const slackId = h.driver.user(user).id;
  return h.fake.waitFor(
    async () => {
      for (const e of (await h.app.store.listAudit({ verb: 'action.create', limit: 200 })).filter((x) => x.userId === slackId)) {
        const a = await h.control(`actions/${e.actionId}`);
        if (a.task === task) return a as { _id: string; action_no: string };
      }
      return undefined;
    },
    { timeoutMs: 10_000, message: `no action "${task}"` },
  );
}

/** What `user`'s Home tab shows ('' before it is published). */
export function homeText(h: Harness, user: string): string {
  const home = h.fake.home(user);
  return home ? h.fake.visibleText(home, { viewer: user }) : '';
}

/** Waits until `user`'s Home tab shows `text`. */
export function homeShows(h: Harness, user: string, text: string) {
  return h.fake.waitFor(() => homeText(h, user).includes(text), { timeoutMs: 10_000, message: `${user}'s Home tab never showed "${text}"` });
}
