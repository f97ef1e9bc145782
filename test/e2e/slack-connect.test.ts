import { afterEach, describe, expect, it } from 'vitest';
import { createCareClient } from '../../src/care/index.js';
import { dayOn } from './harness.js';
import { installBoth, type MultiHarness, startMultiHarness } from './multi-harness.js';

/**
 * Identity and workspace from the same rule. Through a Slack Connect channel a
 * person of one workspace can reach the app as another workspace installed it:
 * a view submission then carries the person's own `user.team_id` and `team`,
 * and the other installation's `view.app_installed_team_id` (as Bolt
 * documents). Erin works at Sunrise Care; Brightwater Care's installation must
 * not act for her, in either care account.
 */
const CARE = 'T0CARE';
const SUN = 'T0SUN';
let h: MultiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function careActionsNamed(account: number, task: string): Promise<number> {
  const a = h!.sandbox.accounts[account - 1]!;
  const care = createCareClient({ baseUrl: h!.sandbox.url, accountId: a.accountId, apiKey: a.apiKey, apiSecret: a.apiSecret });
  try {
    return (await care.actions.collect({ filters: { q: task }, attributes: ['_id'], limit: 100 })).length;
  } finally {
    await care.close();
  }
}

describe('a person of another workspace', () => {
  it("submitting a form through the other workspace's installation creates nothing in either care account, and is told this app is not set up for their workspace", async () => {
    h = await startMultiHarness();
    await installBoth(h);
    const sun = h.fake.workspace(SUN);
    const erin = sun.user('erin')!.id;
    // Erin is linked to a care user of Sunrise Care's account (2).
    const a = h.sandbox.accounts[1]!;
    const client = createCareClient({ baseUrl: h.sandbox.url, accountId: a.accountId, apiKey: a.apiKey, apiSecret: a.apiSecret });
    const careUserId = (await client.users.list({ attributes: ['_id'], per_page: 1 })).items[0]!._id;
    await client.close();
    await h.app.store.upsertLink({ teamId: SUN, slackUserId: erin, careUserId, method: 'admin', linkedBy: erin });

    // A genuine form, opened in her own workspace...
    await h.team(SUN).slash('erin', '/care new', { channel: '#care-team' });
    const open = await sun.waitFor(() => (sun.openModal(erin)?.view.callback_id === 'care_action_modal' ? sun.openModal(erin) : undefined), {
      message: "Erin's new action form",
    });
    // ...submitted as Slack sends a modal opened through Brightwater Care's installation in a Slack Connect channel.
    const task = 'Connect: order gloves for Sunrise';
    const answer = await h.team(SUN).sendPayload('view_submission', 'care_action_modal', erin, {
      type: 'view_submission',
      team: { id: SUN, domain: 'sunrise-care' },
      user: { id: erin, username: 'erin', name: 'erin', team_id: SUN },
      api_app_id: 'A0CAREAPP',
      trigger_id: sun.issueTrigger(erin),
      view: {
        ...(open.view as unknown as Record<string, unknown>),
        team_id: SUN,
        app_installed_team_id: CARE,
        state: {
          values: {
            task: { value: { type: 'plain_text_input', value: task } },
            due_date: { value: { type: 'datepicker', selected_date: dayOn({ now: () => new Date(h!.fake.clock.now()) }, 1, 'Europe/Dublin') } },
            due_time: { value: { type: 'timepicker', selected_time: '10:00' } },
          },
        },
      },
      response_urls: [],
    });

    expect(answer.status).toBe(200);
    const json = answer.json as { response_action?: string; view?: unknown };
    expect(json?.response_action).toBe('update');
    expect(JSON.stringify(json?.view)).toContain('This app is not set up for your workspace');
    // Let anything a wrongly accepted submission set off finish before counting.
    await h.team(SUN).slash('erin', '/care help', { channel: '#care-team' });
    expect(await careActionsNamed(1, task)).toBe(0);
    expect(await careActionsNamed(2, task)).toBe(0);
    expect(await h.app.store.listAudit({ teamId: CARE })).toEqual([]);
  });
});
