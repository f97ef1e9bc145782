import type { App, BlockAction, ButtonAction, SlashCommand, StaticSelectAction } from '@slack/bolt';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackDriver, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { startBoltApp, webClient } from './bolt-app.js';

const completeButton = (actionId: string, value: string) => ({
  type: 'section',
  text: { type: 'mrkdwn', text: `*${value}* is due today` },
  accessory: { type: 'button', action_id: actionId, text: { type: 'plain_text', text: 'Complete' }, value, style: 'primary' },
});

let fake: SlackFake;
let stop: (() => Promise<void>) | undefined;
beforeEach(async () => {
  fake = await startSlackFake({ postRateLimit: false });
});
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await fake.close();
});

async function boot(register: (app: App) => void, options: { ackTimeoutMs?: number; waitTimeoutMs?: number } = {}) {
  const started = await startBoltApp(fake, register, options);
  stop = started.stop;
  return started.driver;
}

describe('slash commands', () => {
  it("sends Slack's form fields and shows what the app answers with respond()", async () => {
    const seen: SlashCommand[] = [];
    const driver = await boot((app) =>
      app.command('/care', async ({ ack, command, respond }) => {
        await ack();
        seen.push(command);
        await respond({ text: `Created: ${command.text}` });
      }),
    );
    const result = await driver.slash('bob', '/care new Call GP', { channel: '#care-team' });
    expect(result.acked).toBe(true);
    const ephemeral = await fake.waitFor(() => fake.ephemerals('bob')[0]);
    expect(fake.visibleText(ephemeral)).toBe('Created: new Call GP');
    expect(ephemeral.channel).toBe('C0CARE');
    expect(fake.messages('#care-team')).toEqual([]);
    expect(seen[0]).toMatchObject({
      command: '/care',
      text: 'new Call GP',
      user_id: 'U0BOB',
      user_name: 'bob',
      channel_id: 'C0CARE',
      channel_name: 'care-team',
      team_id: 'T0CARE',
    });
    expect(seen[0]?.response_url.startsWith(`${fake.url}response/`)).toBe(true);
    expect(seen[0]?.trigger_id).toBe(result.triggerId);
  });

  it('shows an ack body like Slack: text is ephemeral, in_channel is posted for everyone', async () => {
    const driver = await boot((app) =>
      app.command('/care', async ({ ack, command }) => {
        if (command.text === 'help') await ack('Try /care new <title>');
        else await ack({ response_type: 'in_channel', text: 'Bob is on call' });
      }),
    );
    await driver.slash('bob', '/care help', { channel: '#general' });
    await driver.slash('bob', '/care oncall', { channel: '#general' });
    await driver.slash('bob', '/care oncall', { dm: true });
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['Try /care new <title>']);
    expect(fake.messages('#general').map((m) => m.text)).toEqual(['Bob is on call']);
    expect(fake.dms('bob').map((m) => m.text)).toEqual(['Bob is on call']);
  });
});

describe('buttons', () => {
  it("clicks Complete on the newest message that has it; the app chat.update's that message", async () => {
    const bodies: BlockAction<ButtonAction>[] = [];
    const driver = await boot((app) => {
      app.command('/care', async ({ ack, command, client }) => {
        await ack();
        await client.chat.postMessage({ channel: command.channel_id, text: command.text, blocks: [completeButton('complete', command.text)] });
      });
      app.action<BlockAction<ButtonAction>>('complete', async ({ ack, body, action, client }) => {
        await ack();
        bodies.push(body);
        await client.chat.update({
          channel: body.channel?.id as string,
          ts: body.message?.ts as string,
          text: 'done',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `:white_check_mark: *${action.value}* completed by <@${body.user.id}>` } }],
        });
      });
    });
    await driver.slash('alice', '/care Call GP', { channel: '#care-team' });
    await driver.slash('alice', '/care Order meds', { channel: '#care-team' });
    await fake.waitFor(() => fake.messages('#care-team').length === 2);
    const click = await driver.clickButton('carol', { channel: '#care-team', text: 'Complete' });
    expect(click.acked).toBe(true);
    await fake.waitFor(() => fake.messages('#care-team')[1]?.text === 'done');
    expect(fake.messages('#care-team').map((m) => fake.visibleText(m))).toEqual([
      'Call GP is due today\n[Complete]',
      ':white_check_mark: Order meds completed by @carol',
    ]);
    const body = bodies[0];
    expect(body?.container).toMatchObject({ type: 'message', channel_id: 'C0CARE', is_ephemeral: false });
    expect(body?.actions[0]).toMatchObject({ type: 'button', action_id: 'complete', value: 'Order meds', text: { text: 'Complete' } });
    expect(body?.response_url).toBe(click.responseUrl);
    expect(body?.trigger_id).toBe(click.triggerId);
  });

  it('clicks a button on an ephemeral reply; respond({ replace_original }) changes what that person sees', async () => {
    const driver = await boot((app) => {
      app.command('/care', async ({ ack, respond }) => {
        await ack();
        await respond({ text: 'Call GP', blocks: [completeButton('complete_mine', 'Call GP')] });
      });
      app.action('complete_mine', async ({ ack, respond, body }) => {
        await ack();
        const container = (body as BlockAction).container as { is_ephemeral?: boolean };
        await respond({ replace_original: true, text: container.is_ephemeral ? 'Completed (ephemeral)' : 'Completed' });
      });
    });
    await driver.slash('bob', '/care mine', { channel: '#care-team' });
    await driver.clickButton('bob', { ephemeral: true, channel: '#care-team', text: 'Complete' });
    await fake.waitFor(() => fake.ephemerals('bob')[0]?.text.startsWith('Completed'));
    expect(fake.ephemerals('bob').map((e) => fake.visibleText(e))).toEqual(['Completed (ephemeral)']);
    expect(fake.messages('#care-team')).toEqual([]);
    await expect(driver.clickButton('alice', { ephemeral: true, text: 'Complete' })).rejects.toThrow(/no button/);
  });

  it('a button with a confirm dialog asks first: accept sends the click, cancel sends nothing, not saying throws', async () => {
    const clicks: string[] = [];
    const confirm = {
      title: { type: 'plain_text', text: 'Complete action #4?' },
      text: { type: 'plain_text', text: 'Complete action #4, assigned to Bob?' },
      confirm: { type: 'plain_text', text: 'Complete' },
      deny: { type: 'plain_text', text: 'Cancel' },
    };
    const driver = await boot((app) =>
      app.action('complete', async ({ ack, action }) => {
        await ack();
        clicks.push((action as ButtonAction).value ?? '');
      }),
    );
    const block = completeButton('complete', '#4');
    const asking = [{ ...block, accessory: { ...block.accessory, confirm } }];
    await webClient(fake).chat.postMessage({ channel: 'C0CARE', text: '#4', blocks: asking });

    await expect(driver.clickButton('carol', { channel: '#care-team', text: 'Complete' })).rejects.toThrow(
      /asks "Complete action #4\?" first: pass confirm: 'accept' or 'cancel'/,
    );
    const cancelled = await driver.clickButton('carol', { channel: '#care-team', text: 'Complete', confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    expect(fake.acks()).toEqual([]); // nothing reached the app
    const accepted = await driver.clickButton('carol', { channel: '#care-team', text: 'Complete', confirm: 'accept' });
    expect(accepted.acked).toBe(true);
    await fake.waitFor(() => clicks.length === 1);
    expect(clicks).toEqual(['#4']);
    expect(fake.confirmations('carol').map((c) => [c.title, c.text, c.confirmLabel, c.denyLabel, c.answer])).toEqual([
      ['Complete action #4?', 'Complete action #4, assigned to Bob?', 'Complete', 'Cancel', 'deny'],
      ['Complete action #4?', 'Complete action #4, assigned to Bob?', 'Complete', 'Cancel', 'confirm'],
    ]);
    // A test that expects a dialog where there is none fails too.
    await webClient(fake).chat.postMessage({ channel: 'C0CARE', text: 'plain', blocks: [completeButton('complete', 'plain')] });
    await expect(driver.clickButton('carol', { channel: '#care-team', text: 'Complete', confirm: 'accept' })).rejects.toThrow(/shows no confirmation dialog/);
  });

  it('refuses a confirm dialog over Slack limits or missing a part', async () => {
    const block = completeButton('complete', '#4');
    const dialog = {
      title: { type: 'plain_text', text: 'x'.repeat(101) },
      text: { type: 'plain_text', text: 'Sure?' },
      confirm: { type: 'plain_text', text: 'Yes' },
    };
    const tooLong = [{ ...block, accessory: { ...block.accessory, confirm: dialog } }];
    const post = webClient(fake).chat.postMessage({ channel: 'C0CARE', text: '#4', blocks: tooLong });
    await expect(post).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    // Slack shows a dialog's text as plain text: mrkdwn there is refused too.
    const marked = {
      ...dialog,
      title: { type: 'plain_text', text: 'Complete?' },
      text: { type: 'mrkdwn', text: 'Complete *#4*?' },
      deny: { type: 'plain_text', text: 'Cancel' },
    };
    const withMarked = [{ ...block, accessory: { ...block.accessory, confirm: marked } }];
    const withMarkup = webClient(fake).chat.postMessage({ channel: 'C0CARE', text: '#4', blocks: withMarked });
    await expect(withMarkup).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    const plainDialog = { ...marked, text: { type: 'plain_text', text: 'Complete #4?' } };
    const withPlain = [{ ...block, accessory: { ...block.accessory, confirm: plainDialog } }];
    await expect(webClient(fake).chat.postMessage({ channel: 'C0CARE', text: '#4', blocks: withPlain })).resolves.toMatchObject({ ok: true });
  });

  it('says what it saw when the button is not there', async () => {
    const driver = await boot(() => undefined, { waitTimeoutMs: 100 });
    await expect(driver.clickButton('bob', { channel: '#care-team', text: 'Complete' })).rejects.toThrow(/no button "Complete" in channel #care-team/);
  });

  it("picks an option in a message select and sends Slack's selected_option", async () => {
    const chosen: string[] = [];
    const driver = await boot((app) =>
      app.action<BlockAction<StaticSelectAction>>('snooze', async ({ ack, action }) => {
        await ack();
        chosen.push(`${action.selected_option.value}:${action.selected_option.text.text}`);
      }),
    );
    // The bot's earlier reminder, posted the way the app would post it.
    await webClient(fake).chat.postMessage({
      channel: 'U0BOB',
      text: 'Reminder',
      blocks: [
        {
          type: 'actions',
          elements: [
            {
              type: 'static_select',
              action_id: 'snooze',
              placeholder: { type: 'plain_text', text: 'Snooze' },
              options: [
                { text: { type: 'plain_text', text: '1 hour' }, value: '60' },
                { text: { type: 'plain_text', text: 'Tomorrow' }, value: '1440' },
              ],
            },
          ],
        },
      ],
    });
    await driver.selectOption('bob', { dm: true, control: 'Snooze', option: 'Tomorrow' });
    expect(chosen).toEqual(['1440:Tomorrow']);
  });
});

describe('Home tab and shortcuts', () => {
  it('app_home_opened lets the app publish a Home view, whose buttons send view block_actions', async () => {
    const clicks: BlockAction[] = [];
    const driver = await boot((app) => {
      app.event('app_home_opened', async ({ event, client }) => {
        await client.views.publish({
          user_id: event.user,
          view: {
            type: 'home',
            blocks: [
              { type: 'header', text: { type: 'plain_text', text: 'Your actions' } },
              { type: 'actions', elements: [{ type: 'button', action_id: 'refresh', text: { type: 'plain_text', text: 'Refresh' } }] },
            ],
          },
        });
      });
      app.action('refresh', async ({ ack, body }) => {
        await ack();
        clicks.push(body as BlockAction);
      });
    });
    await driver.openHome('dan');
    const home = await fake.waitFor(() => fake.home('dan'));
    expect(fake.visibleText(home)).toBe('Your actions\n[Refresh]');
    await driver.clickButton('dan', { home: true, text: 'Refresh' });
    expect(clicks[0]?.container).toEqual({ type: 'view', view_id: home.id });
    expect(clicks[0]?.view?.type).toBe('home');
  });

  it('a message shortcut carries the message and a fresh trigger the app can open a modal with', async () => {
    const driver = await boot((app) =>
      app.shortcut('make_action', async ({ ack, shortcut, client }) => {
        await ack();
        const text = shortcut.type === 'message_action' ? shortcut.message.text : '';
        await client.views.open({
          trigger_id: shortcut.trigger_id,
          view: {
            type: 'modal',
            title: { type: 'plain_text', text: 'New action' },
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `From: ${text}` } }],
          },
        });
      }),
    );
    const message = driver.postAsUser('carol', '#care-team', 'Mrs Smith needs her meds reviewed');
    await driver.messageShortcut('alice', 'make_action', message);
    const modal = await fake.waitFor(() => fake.openModal('alice'));
    expect(fake.visibleText(modal.view)).toBe('New action\nFrom: Mrs Smith needs her meds reviewed');
  });
});

describe('what the app must get right', () => {
  it('Bolt rejects a bad signature or a stale timestamp with 401; ssl_check and url_verification are answered', async () => {
    let handled = 0;
    const driver = await boot((app) =>
      app.command('/care', async ({ ack }) => {
        handled += 1;
        await ack();
      }),
    );
    const body = new URLSearchParams({ command: '/care', text: 'x', user_id: 'U0BOB', team_id: 'T0CARE', channel_id: 'C0CARE' }).toString();
    expect((await driver.rawRequest(body, { signature: `v0=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await driver.rawRequest(body, { timestampSec: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    expect(handled).toBe(0);
    expect((await driver.rawRequest('ssl_check=1&token=x', { signature: 'v0=bad' })).status).toBe(200);
    const challenge = await driver.rawRequest(JSON.stringify({ type: 'url_verification', challenge: 'abc123', token: 'x' }), {
      contentType: 'application/json',
    });
    expect(challenge.json).toEqual({ challenge: 'abc123' });
  });

  it('records ack latency per request, and a request not acked in time as a failure', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const driver = await boot(
      (app) => {
        app.command('/care', async ({ ack, command }) => {
          if (command.text === 'slow') await gate;
          await ack();
        });
      },
      { ackTimeoutMs: 200 },
    );
    const fast = await driver.slash('bob', '/care fast');
    const slow = await driver.slash('bob', '/care slow');
    release();
    expect(fast).toMatchObject({ acked: true, status: 200 });
    expect(slow).toMatchObject({ acked: false, failure: 'timeout' });
    expect(fake.acks().map((a) => [a.kind, a.name, a.acked])).toEqual([
      ['slash_command', '/care', true],
      ['slash_command', '/care', false],
    ]);
    const stats = fake.ackStats();
    expect(stats).toMatchObject({ count: 2, failures: 1 });
    expect(stats.p99Ms).toBeGreaterThanOrEqual(stats.p50Ms);
  });

  it('delivers an event the app failed to take again, with the same event_id and X-Slack-Retry-Num', async () => {
    const seen: Array<{ id: string; retry?: string; reason?: string }> = [];
    const flaky = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const retry = req.headers['x-slack-retry-num'] as string | undefined;
        const reason = req.headers['x-slack-retry-reason'] as string | undefined;
        seen.push({ id: (JSON.parse(raw) as { event_id: string }).event_id, ...(retry ? { retry } : {}), ...(reason ? { reason } : {}) });
        res.writeHead(seen.length === 1 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    try {
      const driver = createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/slack/events`, signingSecret: 's' });
      const result = await driver.sendEvent({ type: 'app_home_opened', user: 'U0BOB', tab: 'home' }, { retries: 3 });
      expect(result.acked).toBe(true);
      expect(seen).toEqual([{ id: seen[0]?.id }, { id: seen[0]?.id, retry: '1', reason: 'http_error' }]);
      expect(fake.acks().map((a) => a.acked)).toEqual([false, true]);
    } finally {
      flaky.close();
    }
  });
});
