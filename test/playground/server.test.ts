import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/logging/logger.js';
import type { PlaygroundBackend, PlaygroundState } from '../../dev/playground/backend.js';
import { createMemoryBackend, type MemoryBackend } from '../../dev/playground/memory-backend.js';
import { parseRequest } from '../../dev/playground/api-routes.js';
import { startPlayground, type PlaygroundServer } from '../../dev/playground/server.js';

const running: PlaygroundServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(backend: PlaygroundBackend = createMemoryBackend()) {
  const logger = memoryLogger();
  const server = await startPlayground({ port: 0, backend, logger });
  running.push(server);
  return { server, backend, logger, url: server.url };
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(new URL(`api/${path}`, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function state(base: string): Promise<PlaygroundState> {
  return (await (await fetch(new URL('api/state', base))).json()) as PlaygroundState;
}

/** Read Server-Sent Events frame by frame. */
async function openEvents(base: string) {
  const controller = new AbortController();
  const res = await fetch(new URL('api/events', base), { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        if (event) return { event, data: /^data: (.*)$/m.exec(frame)?.[1] ?? '' };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { res, next, close: () => controller.abort() };
}

describe('playground server: state and events', () => {
  it('serves the whole state as JSON', async () => {
    const { url } = await start();
    const res = await fetch(new URL('api/state', url));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const s = (await res.json()) as PlaygroundState;
    expect(s.team.name).toBe('Sunrise Care');
    expect(s.users.map((u) => u.name)).toEqual(['alice', 'bob', 'carol']);
    expect(s.channels.find((c) => c.name === 'care-leads')?.is_private).toBe(true);
    expect(s.ims.find((d) => d.members.includes('U0ALICE') && d.members.includes(s.app.bot_user_id))).toBeTruthy();
    expect(s.messages.C0CARE?.[0]?.blocks?.length).toBeGreaterThan(0);
  });

  it('sends a change event after an action, one per burst of changes', async () => {
    const inner = createMemoryBackend();
    const listeners = new Set<() => void>();
    const backend: PlaygroundBackend = {
      ...inner,
      subscribe(listener) {
        listeners.add(listener);
        const off = inner.subscribe(listener);
        return () => {
          listeners.delete(listener);
          off();
        };
      },
    };
    const { url, server } = await start(backend);
    const events = await openEvents(url);
    try {
      expect(events.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const sent = await post(url, 'slash-command', { userId: 'U0ALICE', channelId: 'C0CARE', text: '/care new Call GP' });
      expect(sent).toEqual({ status: 200, body: { ok: true, message: 'Sent /care new' } });
      expect(await events.next()).toEqual({ event: 'change', data: '{"seq":1}' });
      await post(url, 'close-modal', { userId: 'U0ALICE' });
      expect(await events.next()).toEqual({ event: 'change', data: '{"seq":2}' });
      // A burst of five changes gives one event; closing the server then ends the stream with nothing more.
      for (let i = 0; i < 5; i++) for (const l of listeners) l();
      expect(await events.next()).toEqual({ event: 'change', data: '{"seq":3}' });
      await server.close();
      await expect(events.next()).rejects.toThrow('the event stream ended');
    } finally {
      events.close();
    }
  });

  it('ends event streams and stops listening when closed', async () => {
    const { server, url } = await start();
    const events = await openEvents(url);
    await server.close();
    await expect(events.next()).rejects.toThrow();
  });
});

describe('playground server: actions', () => {
  it('runs a slash command, a failed and a good modal submission as the chosen user', async () => {
    const { url, backend } = await start();
    await post(url, 'slash-command', { userId: 'U0BOB', channelId: 'C0CARE', text: '/care new Hi' });
    let s = await state(url);
    expect(s.ephemeral.U0BOB?.C0CARE?.[0]).toMatchObject({ ephemeral: true, text: 'You ran `/care new Hi`' });
    const modal = s.modals.U0BOB?.at(-1);
    expect(modal?.title?.text).toBe('New action');

    const short = { title: { title_input: { type: 'plain_text_input', value: 'Hi' } } };
    expect(await post(url, 'submit-modal', { userId: 'U0BOB', viewId: modal!.id, values: short })).toEqual({
      status: 200,
      body: { ok: false, message: 'The form has errors.' },
    });
    s = await state(url);
    expect(s.modals.U0BOB?.at(-1)?.errors).toEqual({ title: 'Give the action a title of at least 3 characters.' });

    const good = {
      title: { title_input: { type: 'plain_text_input', value: 'Visit Mrs B' } },
      assignee: { assignee_input: { type: 'users_select', selected_user: 'U0CAROL' } },
      flags: { flags_input: { type: 'checkboxes', selected_options: [{ text: { type: 'plain_text', text: 'Urgent' }, value: 'urgent' }] } },
    };
    expect((await post(url, 'submit-modal', { userId: 'U0BOB', values: good })).body).toEqual({ ok: true, message: 'Submitted' });
    s = await state(url);
    expect(s.modals.U0BOB).toEqual([]);
    expect(s.messages.C0CARE?.at(-1)?.text).toBe('New action #103');
    expect((backend as MemoryBackend).calls.map((c) => c.method)).toEqual(['sendSlashCommand', 'submitModal', 'submitModal']);
  });

  it('clicks message buttons, picks overflow options and opens the Home tab', async () => {
    const { url } = await start();
    const msg = (await state(url)).messages.C0CARE![0]!;
    const click = await post(url, 'click-button', {
      userId: 'U0ALICE',
      where: 'message',
      channelId: 'C0CARE',
      ts: msg.ts,
      blockId: 'buttons',
      actionId: 'complete',
      value: 'a1',
    });
    expect(click.body).toEqual({ ok: true, message: 'Clicked complete' });
    let s = await state(url);
    expect(s.messages.C0CARE![0]!.edited).toBeTruthy();
    expect(s.messages.C0CARE![0]!.reply_count).toBe(1);

    const second = s.messages.C0CARE![1]!;
    const pick = await post(url, 'select-option', {
      userId: 'U0ALICE',
      where: 'message',
      channelId: 'C0CARE',
      ts: second.ts,
      blockId: 'action-a2',
      actionId: 'action_menu',
      selected: { type: 'overflow', selected_option: { text: { type: 'plain_text', text: 'Snooze 1 hour' }, value: 'snooze:a2' } },
    });
    expect(pick.body).toEqual({ ok: true, message: 'Chose snooze:a2' });

    expect((await post(url, 'open-home', { userId: 'U0CAROL' })).body.ok).toBe(true);
    s = await state(url);
    expect(s.home.U0CAROL?.type).toBe('home');
    const home = await post(url, 'click-button', {
      userId: 'U0CAROL',
      where: 'home',
      viewId: s.home.U0CAROL!.id,
      blockId: 'home-buttons',
      actionId: 'open_new_action',
    });
    expect(home.status).toBe(200);
    expect((await state(url)).modals.U0CAROL).toHaveLength(1);
  });

  it('suggests options, posts messages and runs the simulator', async () => {
    const { url } = await start();
    expect(
      (await post(url, 'suggest-options', { userId: 'U0ALICE', blockId: 'location', actionId: 'location_input', value: 'room' })).body.options,
    ).toHaveLength(4);
    expect((await post(url, 'post-message', { userId: 'U0ALICE', channelId: 'C0GENERAL', text: 'hello <team>' })).body.ok).toBe(true);
    expect((await state(url)).messages.C0GENERAL?.at(-1)).toMatchObject({ user: 'U0ALICE', text: 'hello &lt;team&gt;' });

    const list = await (await fetch(new URL('api/simulate/actions', url))).json();
    expect(list).toEqual({ actions: [expect.objectContaining({ no: 101, completed: false }), expect.objectContaining({ no: 102, urgent: true })] });
    expect((await post(url, 'simulate/list-actions', {})).body).toEqual(list);
    expect((await post(url, 'simulate/complete-action', { action: 101 })).body).toEqual({ ok: true, message: '#101 completed in the web app' });
    expect((await post(url, 'simulate/complete-action', { action: '101' })).body).toEqual({ ok: false, message: '#101 is already completed.' });
    expect((await post(url, 'simulate/mark-urgent', { action: 'a1' })).body.ok).toBe(true);
    const digest = await post(url, 'simulate/advance-clock', {});
    expect(digest.body.message).toMatch(/^Clock moved to .* 08:00 UTC; digests sent$/);
    expect((await state(url)).messages.D0ALICE?.at(-1)?.text).toBe('Your morning digest');
  });
});

describe('playground server: bad input and failures', () => {
  it('answers 400 with a message naming the bad field', async () => {
    const { url, backend } = await start();
    const missing = await post(url, 'slash-command', { channelId: 'C0CARE', text: '/care' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^Invalid request to \/api\/slash-command: userId: /);
    const notCommand = await post(url, 'slash-command', { userId: 'U0ALICE', channelId: 'C0CARE', text: 'hello' });
    expect(notCommand.body.error).toContain('text: a slash command starts with "/"');
    const noTs = await post(url, 'click-button', { userId: 'U0ALICE', where: 'message', channelId: 'C0CARE', blockId: 'b', actionId: 'a' });
    expect(noTs).toEqual({
      status: 400,
      body: { error: 'Invalid request to /api/click-button: where: channelId and ts are required when where is "message"' },
    });
    const badSelected = await post(url, 'select-option', {
      userId: 'U0ALICE',
      where: 'home',
      blockId: 'b',
      actionId: 'a',
      selected: { type: 'datepicker', selected_date: 'tomorrow' },
    });
    expect(badSelected.body.error).toContain('selected.selected_date: expected YYYY-MM-DD');
    const badValues = await post(url, 'submit-modal', { userId: 'U0ALICE', values: { b: { a: { value: 'x' } } } });
    expect(badValues.status).toBe(400);
    expect((backend as MemoryBackend).calls).toEqual([]);
  });

  it('answers 400 when the request names something that does not exist', async () => {
    const { url } = await start();
    expect(await post(url, 'open-home', { userId: 'U0NOBODY' })).toEqual({ status: 400, body: { error: 'No user U0NOBODY in this workspace.' } });
    expect((await post(url, 'close-modal', { userId: 'U0ALICE' })).status).toBe(400);
  });

  it('refuses malformed JSON, other content types and oversized bodies', async () => {
    const { url } = await start();
    const bad = await fetch(new URL('api/open-home', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userId":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const form = await fetch(new URL('api/open-home', url), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"userId":"U0ALICE"}' });
    expect(form.status).toBe(415);
    const big = await fetch(new URL('api/post-message', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    const get = await fetch(new URL('api/open-home', url));
    expect(get.status).toBe(405);
  });

  it('answers 500 with a short message when the backend throws, and keeps serving', async () => {
    const inner = createMemoryBackend();
    const backend: PlaygroundBackend = {
      ...inner,
      openHome: async () => {
        throw new Error('database on fire');
      },
      simulate: { ...inner.simulate, listSimulatableActions: () => Promise.reject(new TypeError('no list')) },
    };
    const { url, logger } = await start(backend);
    expect(await post(url, 'open-home', { userId: 'U0ALICE' })).toEqual({ status: 500, body: { error: 'The backend failed: database on fire' } });
    expect(await post(url, 'simulate/list-actions', {})).toEqual({ status: 500, body: { error: 'The backend failed: no list' } });
    expect((await fetch(new URL('api/state', url))).status).toBe(200);
    const errors = logger.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 'error');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ msg: 'playground request failed', path: '/api/open-home' });
  });
});

describe('playground server: static files', () => {
  it('serves the page and its modules with the right content types and a strict CSP', async () => {
    const { url } = await start();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    for (const [path, type] of [
      ['styles.css', 'text/css; charset=utf-8'],
      ['app.js', 'text/javascript; charset=utf-8'],
      ['blocks.js', 'text/javascript; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const res = await fetch(new URL(path!, url));
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, type]);
      expect((await res.text()).length).toBeGreaterThan(0);
    }
  });

  it('answers 404 for unknown paths, types and traversal', async () => {
    const { url } = await start();
    for (const path of ['nope', 'nope.js', 'blocks.d.ts', '..%2Fserver.ts', 'api/nope', 'public/app.js']) {
      const res = await fetch(new URL(path, url));
      expect([path, res.status]).toEqual([path, 404]);
      expect(((await res.json()) as { error: string }).error).toMatch(/^No(thing at| API endpoint) /);
    }
  });

  it('only answers on its loopback host name', async () => {
    const { url } = await start();
    const { port } = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: Number(port), path: '/api/state', headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('refuses an act sent by a page of another site (Origin)', async () => {
    const { url } = await start();
    const res = await fetch(new URL('api/open-home', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ userId: 'U0ALICE' }),
    });
    expect(res.status).toBe(403);
  });
});

describe('playground API: a modal’s entries go with a click or a choice in it', () => {
  it('accepts view.state.values with click-button and select-option, and checks their shape', async () => {
    const entered = { task: { value: { type: 'plain_text_input', value: 'Typed so far' } } };
    const target = { userId: 'U0ALICE', where: 'modal', viewId: 'V1', blockId: 'reminder_0_when', actionId: 'value' };
    const click = parseRequest('click-button', { ...target, blockId: 'form_more', actionId: 'care_form_more', values: entered });
    expect(click.ok).toBe(true);
    const option = { text: { type: 'plain_text', text: 'At a time of day' }, value: 'time' };
    expect(parseRequest('select-option', { ...target, selected: { type: 'static_select', selected_option: option }, values: entered }).ok).toBe(true);
    const bad = parseRequest('click-button', { ...target, values: { task: { value: { type: 'plain_text_input', value: 7 } } } });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining('values.task.value.value') });
  });
});
