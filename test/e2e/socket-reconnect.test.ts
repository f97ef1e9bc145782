import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, replyOn, startHarness, type Harness } from './harness.js';

/**
 * Socket Mode when Slack moves the app's connections under people's feet.
 *
 * The app holds two connections (src/slack/receivers/socket-receiver.ts). Slack sends each
 * envelope on one open connection and never queues a click or a command: one
 * that finds no connection within its 3 s fails for the person (Slack's
 * dispatch_failed), and they try again. Events are retried by Slack
 * (`retry_attempt`) until the app is back. A connection told to go
 * (`disconnect`) gets no new envelopes; @slack/socket-mode closes it at once
 * and opens a new one about 5 s later, while the other connection carries everything.
 */
const START = new Date('2026-03-10T10:00:00Z');
const PEOPLE = ['sophie', 'priya', 'oliver', 'visitor'];

interface Outcome {
  user: string;
  acked: boolean;
  failure?: string;
  answered: boolean;
}

describe('Socket Mode: reconnecting without losing anyone', () => {
  let h: Harness;

  /** One person types a command and waits for the answer. */
  const oneCommand = async (user: string): Promise<Outcome> => {
    const line = user === 'sophie' || user === 'priya' ? '/care mine' : '/care help';
    const sent = await h.driver.slash(user, line, { channel: '#care-team' });
    if (!sent.acked) return { user, acked: false, answered: false, ...(sent.failure ? { failure: sent.failure } : {}) };
    const reply = await replyOn(h, user, sent.responseUrl!, 15_000).catch(() => undefined);
    return { user, acked: true, answered: reply !== undefined };
  };

  /** People keep typing commands, one every `everyMs`, until `stop()`; resolves with every outcome. */
  const keepTyping = async (stop: () => boolean, everyMs = 150): Promise<Outcome[]> => {
    const runs: Promise<Outcome>[] = [];
    for (let i = 0; !stop(); i++) {
      runs.push(oneCommand(PEOPLE[i % PEOPLE.length]!));
      await sleep(everyMs);
    }
    return Promise.all(runs);
  };

  const connection = (id: string) => h.fake.socket.connections().find((c) => c.id === id)!;
  /** The connection is gone and the app holds two open connections again. */
  const replaced = (id: string) =>
    h.fake.waitFor(() => connection(id).state === 'closed' && h.fake.socket.openConnections().length === 2, {
      timeoutMs: 20_000,
      message: `the app did not replace ${id}`,
    });
  const opens = () => h.fake.calls('apps.connections.open').length;

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, transport: 'socket' });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('starts with two connections, each greeted by Slack', () => {
    expect(h.fake.socket.openConnections()).toHaveLength(2);
    expect(opens()).toBe(2);
  });

  it('Slack refreshes each connection in turn while people keep typing: every command is answered, and the app reconnects', async () => {
    const before = opens();
    const [first, second] = h.fake.socket.openConnections();
    let done = false;
    const typed = keepTyping(() => done);
    await sleep(600);
    await h.fake.socket.disconnect('refresh_requested', { connection: first!.id });
    await replaced(first!.id);
    await h.fake.socket.disconnect('warning', { connection: second!.id });
    await replaced(second!.id);
    await sleep(600);
    done = true;
    const outcomes = await typed;

    expect(outcomes.length).toBeGreaterThan(40);
    expect(outcomes.filter((o) => !o.acked || !o.answered)).toEqual([]);
    expect(opens()).toBe(before + 2);
    // The app closed each connection it was told to leave, with a close handshake.
    expect([connection(first!.id), connection(second!.id)].map((c) => [c.disconnectReason, c.closedBy, c.closeCode])).toEqual([
      ['refresh_requested', 'app', 1000],
      ['warning', 'app', 1000],
    ]);
    // The new connections took over.
    const fresh = h.fake.socket.openConnections();
    expect(fresh.map((c) => c.id)).not.toContain(first!.id);
    expect(fresh.some((c) => c.envelopes > 0)).toBe(true);
    expect(h.fake.ackStats().failures).toBe(0);
  });

  it('a connection dropped without a close handshake: the other carries every command until the app has reconnected', async () => {
    const before = opens();
    const [gone] = h.fake.socket.openConnections();
    let done = false;
    const typed = keepTyping(() => done);
    await sleep(600);
    // Between two envelopes: an ack in flight on a dropped connection is lost whatever the app does
    // (it cannot ack on another connection), as in Slack. Checked and dropped in one step.
    await h.fake.waitFor(() => {
      if (connection(gone!.id).inFlight > 0) return false;
      h.fake.socket.drop({ connection: gone!.id });
      return true;
    });
    await replaced(gone!.id);
    await sleep(600);
    done = true;
    const outcomes = await typed;

    expect(outcomes.filter((o) => !o.acked || !o.answered)).toEqual([]);
    expect([connection(gone!.id).closedBy, connection(gone!.id).closeCode]).toEqual(['slack', 1006]);
    expect(opens()).toBe(before + 1);
  });

  it('every connection dropped at once: the Home tab event is retried by Slack until the app is back; a command typed in the gap fails as in Slack, and is answered when typed again', async () => {
    const before = opens();
    const failuresBefore = h.fake.ackStats().failures;
    h.fake.socket.drop();
    expect(h.fake.socket.openConnections()).toHaveLength(0);

    const [home, gap] = await Promise.all([h.driver.openHome('priya', { retries: 3 }), h.driver.slash('oliver', '/care help', { channel: '#care-team' })]);

    // @slack/socket-mode waits about 5 s before reconnecting: longer than Slack holds a command.
    expect(gap.acked).toBe(false);
    expect(gap.failure).toBe('network_error');
    // The event got through on a retry, once the app was back, and the Home tab was published.
    expect(home.acked).toBe(true);
    const homeTries = h.fake.socket.envelopes().filter((e) => e.name === 'app_home_opened');
    expect(homeTries.at(-1)).toMatchObject({ acked: true, retryAttempt: expect.any(Number) });
    expect(homeTries.at(-1)!.retryAttempt).toBeGreaterThanOrEqual(1);
    await h.fake.waitFor(() => h.fake.home('priya'), { timeoutMs: 10_000 });

    const again = await command(h, 'oliver', '/care help');
    expect(again.text).toContain('/care mine');
    await h.fake.waitFor(() => h.fake.socket.openConnections().length === 2, { timeoutMs: 20_000 });
    expect(opens()).toBe(before + 2);
    // Only what was sent while no connection was open failed.
    const failed = h.fake.acks().filter((a) => !a.acked);
    expect(failed.length - failuresBefore).toBe(homeTries.filter((e) => !e.acked).length + 1);
  });
});
