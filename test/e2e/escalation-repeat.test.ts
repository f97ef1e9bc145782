/**
 * Issue 33, "Repeat the last step": an admin may set the ladder's last step to
 * repeat every N minutes, at most K times, until someone answers. Each repeat is
 * its own ledger delivery (once across instances), recorded, audited and shown on
 * the alert ("Escalated to #general again at 11:15 (2 of 3)"); an answer stops it.
 * Clocks: 2027-06-15 09:00 UTC (10:00 in London: the Day shift), moved step by step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { anotherInstance } from './fixtures/app-instance.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;

const ofAction = (kind: string, id: string) => (m: { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }) =>
  deliveryKind(m) === kind && deliveryActionId(m) === id;

async function escalate(app: ComposedApp): Promise<void> {
  const run = await app.jobs.runOnce('escalations');
  if (!run.ran) throw new Error('the escalation job did not run');
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the escalation job failed: ${result.error}`);
}

describe('the last step of the ladder repeats until someone answers (issue 33)', () => {
  let h: Harness;
  let other: ComposedApp;
  let dataDir: string;
  const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
  const alertText = (id: string) => {
    const a = alert(id);
    return a ? h.fake.visibleText(a, { viewer: 'amelia' }) : '';
  };
  const managersPosts = (id: string) => h.fake.messages('#general').filter(ofAction('escalation', id));

  async function urgentAction(task: string): Promise<{ id: string; no: string; began: number }> {
    await h.setTime(new Date(h.now().getTime() + 5_000));
    const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true });
    await poll(h);
    return { id: a._id, no: a.action_no, began: Date.parse(String(a.modified)) };
  }
  /** Both instances run the job (at the same time, then each again): every message must still go once. */
  async function at(began: number, minutes: number): Promise<void> {
    await h.setTime(new Date(began + minutes * MIN + 2_000));
    await Promise.all([escalate(h.app), other.jobs.runOnce('escalations')]);
    await other.jobs.runOnce('escalations');
    await escalate(h.app);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-escalate-repeat-'));
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir, jobs: { instanceId: 'instance-a' } });
    await linkDirectly(h, 'sophie');
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
    await command(h, 'amelia', '/care escalation after 15');
    await command(h, 'amelia', '/care escalation steps thread,managers');
    await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
    other = await anotherInstance(h, { dataDir, instanceId: 'instance-b' });
  });
  afterAll(async () => {
    await other?.stop();
    await h?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('an admin sets it, sees it in /care escalation, and it is audited; wrong words get one sentence', async () => {
    const set = await command(h, 'amelia', '/care escalation repeat 10 2');
    expect(set.text).toContain('Escalation set.');
    expect(set.text).toContain('Then a post in the managers’ channel again every 10 minutes, at most 2 times, until someone answers');
    expect((await command(h, 'amelia', '/care escalation')).text).toContain('again every 10 minutes, at most 2 times');
    const audit = await h.app.store.listAudit({ verb: 'escalation.set' });
    expect(audit[0]?.details).toEqual({ repeat: { everyMinutes: 10, times: 2 } });
    for (const wrong of ['repeat 2 3', 'repeat 10 11', 'repeat 10', 'repeat soon'])
      expect((await command(h, 'amelia', `/care escalation ${wrong}`)).text).toContain('Repeat the last step every 5–240 minutes, 1–10 times');
    expect((await command(h, 'sophie', '/care escalation repeat 5 5')).text).not.toContain('Escalation set.');
    expect((await command(h, 'amelia', '/care escalation')).text).toContain('at most 2 times');
  });

  it('repeats the managers’ post every 10 minutes, at most twice, once each across two instances, and the alert counts them', async () => {
    const a = await urgentAction('Mrs Patel has not had her insulin');
    await at(a.began, 15);
    await at(a.began, 25);
    expect(managersPosts(a.id)).toHaveLength(0);
    await at(a.began, 30);
    expect(managersPosts(a.id)).toHaveLength(1);
    await at(a.began, 39);
    expect(managersPosts(a.id)).toHaveLength(1);
    await at(a.began, 40);
    expect(managersPosts(a.id)).toHaveLength(2);
    expect(alertText(a.id)).toMatch(/Escalated to #general again at \d{1,2}:\d\d(?: [AP]M)? \(1 of 2\)/);
    const again = managersPosts(a.id)[1]!;
    expect(again.text).toBe(`Escalated again (1 of 2): urgent action #${a.no}, unanswered for 40 minutes`);
    await at(a.began, 50);
    expect(managersPosts(a.id)).toHaveLength(3);
    expect(alertText(a.id)).toMatch(/Escalated to #general again at \d{1,2}:\d\d(?: [AP]M)? \(2 of 2\)/);
    expect(alertText(a.id)).toMatch(/Escalated to #general at \d{1,2}:\d\d(?: [AP]M)?/);

    // At most K times, however long it stays unanswered.
    for (const minutes of [60, 70, 120]) await at(a.began, minutes);
    expect(managersPosts(a.id)).toHaveLength(3);
    const audit = (await h.app.store.listAudit({ actionId: a.id, verb: 'escalate' })).reverse();
    expect(audit.map((e) => [e.details.step, e.details.repeat ?? 0])).toEqual([
      ['thread', 0],
      ['managers', 0],
      ['managers', 1],
      ['managers', 2],
    ]);
  });

  it('stops repeating when someone answers: Take it after the first repeat ends it', async () => {
    const b = await urgentAction('Call the GP about the rash');
    for (const minutes of [15, 30, 40]) await at(b.began, minutes);
    expect(managersPosts(b.id)).toHaveLength(2);
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert(b.id)!.ts, text: 'Take it' });
    await h.fake.waitFor(() => (alertText(b.id).includes('Taken by @sophie') ? true : undefined), {
      timeoutMs: 10_000,
      message: 'the alert never said who took it',
    });
    await poll(h);
    // Every post of the ladder follows the action, the repeat's too: both managers' posts now say it was taken.
    await h.fake.waitFor(
      () =>
        managersPosts(b.id).every((m) => h.fake.visibleText(m, { viewer: 'amelia' }).includes(`Urgent action #${b.no} was taken: it is with @sophie`))
          ? true
          : undefined,
      { timeoutMs: 10_000, message: 'the managers’ posts (the repeat’s among them) were not drawn again as taken' },
    );
    for (const minutes of [50, 60, 90]) await at(b.began, minutes);
    expect(managersPosts(b.id)).toHaveLength(2);
    expect((await h.app.store.listAudit({ actionId: b.id, verb: 'escalate' })).map((e) => e.details.repeat ?? 0).sort()).toEqual([0, 0, 1]);
  });

  it('repeat off: the last step runs once again', async () => {
    expect((await command(h, 'amelia', '/care escalation repeat off')).text).toContain('The last step runs once');
    const c = await urgentAction('Replace the pressure mattress');
    for (const minutes of [15, 30, 40, 50, 60]) await at(c.began, minutes);
    expect(managersPosts(c.id)).toHaveLength(1);
  });
});
