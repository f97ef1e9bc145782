/**
 * "Told when work is mine": the assignee of an action gets a DM when it is
 * assigned to them — through Slack (at once, saying who) or in the care
 * system's web app (found by the changes poll) — exactly once per assignment.
 * Clocks: 2026-03-10 09:00 UTC = 09:00 in London (GMT), 05:00 in New York (EDT).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { anotherInstance } from './fixtures/app-instance.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');

const assignmentDms = (h: Harness, person: string, actionId?: string) =>
  h.fake.dms(person).filter((m) => deliveryKind(m) === 'assignment' && (actionId === undefined || deliveryActionId(m) === actionId));

describe('assignment DMs', () => {
  let h: Harness;
  const care: Record<string, string> = {};

  const openModal = async (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });
  const createdBy = async (slackUserId: string, task: string) =>
    h.fake.waitFor(
      async () => {
        for (const e of (await h.app.store.listAudit({ limit: 200 })).filter((e) => e.verb === 'action.create' && e.userId === slackUserId)) {
          const a = await h.control(`actions/${e.actionId}`);
          if (a.task === task) return a as { _id: string; action_no: string };
        }
        return undefined;
      },
      { timeoutMs: 10_000, message: `no action "${task}" created by ${slackUserId}` },
    );
  /** Move both clocks on a few seconds, so the next change has a `modified` of its own. */
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'priya', 'oliver', 'amelia']) care[person] = await linkDirectly(h, person);
    await poll(h); // the changes cursor is set
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    for (const u of ['sophie', 'oliver', 'priya']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('a Slack create assigned to someone else DMs them at once: who assigned it, the task, the due time in their zone, urgency, buttons', async () => {
    await h.driver.slash('sophie', '/care new Check Mrs Patel’s blood sugar before lunch', { channel: '#care-team' });
    await openModal('sophie');
    const result = await h.driver
      .modal('sophie')
      .fill('Due date', '2026-03-10')
      .fill('Due time', '11:30')
      .fill('Assignee', 'Oliver Bennett')
      .fill('Urgency', ['Urgent (shows at the top of dashboards)'])
      .submit();
    expect(result.outcome).toBe('closed');
    const created = await createdBy('U0SOPHIE', 'Check Mrs Patel’s blood sugar before lunch');

    // No poll has run: this is the fast path.
    const dm = await h.fake.waitFor(() => assignmentDms(h, 'oliver', created._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
    const seen = h.fake.visibleText(dm, { viewer: 'oliver' });
    expect(seen).toContain(`You were assigned action #${created.action_no} by @sophie`);
    expect(seen).toContain('Check Mrs Patel’s blood sugar before lunch');
    expect(seen).toContain('7:30 AM'); // 11:30 in London is 07:30 in New York, where Oliver reads it
    expect(seen).toContain('Urgency\nUrgent');
    expect(seen).toContain('[Complete]');
    expect(dm.text).not.toContain('blood sugar'); // the notification text names no task

    // The poll reads the same assignment (twice, within its overlap) and sends nothing more.
    await poll(h);
    await poll(h);
    expect(assignmentDms(h, 'oliver', created._id)).toHaveLength(1);
    expect(assignmentDms(h, 'sophie', created._id)).toHaveLength(0);
    const rows = await h.app.store.listDeliveries({ kind: 'assignment', actionId: created._id });
    expect(rows.map((r) => [r.recipient, r.state])).toEqual([[`user:${h.fake.teamId}/U0OLIVER`, 'sent']]);

    // Complete on the DM: the DM shows the action done, by him, in place.
    await h.driver.clickButton('oliver', { dm: true, ts: dm.ts, text: 'Complete' });
    const done = await h.fake.waitFor(
      () => {
        const now = assignmentDms(h, 'oliver', created._id)[0]!;
        return h.fake.visibleText(now, { viewer: 'oliver' }).includes('by @oliver') ? now : undefined;
      },
      { timeoutMs: 10_000, message: 'the DM was not updated' },
    );
    expect(h.fake.visibleText(done, { viewer: 'oliver' })).toMatch(/State\nCompleted .* by @oliver/);
    expect(assignmentDms(h, 'oliver', created._id)).toHaveLength(1);
  });

  it('no DM when you assign an action to yourself', async () => {
    await h.driver.slash('sophie', '/care new Restock the linen cupboard', { channel: '#care-team' });
    await openModal('sophie');
    expect((await h.driver.modal('sophie').fill('Due time', '14:00').fill('Assignee', 'Sophie Marsh').submit()).outcome).toBe('closed');
    const created = await createdBy('U0SOPHIE', 'Restock the linen cupboard');
    await h.fake.waitFor(() => h.fake.ephemerals('sophie').find((e) => e.text.startsWith('Created') && h.fake.visibleText(e).includes('linen')), {
      timeoutMs: 10_000,
    });
    await poll(h);
    await poll(h);
    expect(assignmentDms(h, 'sophie', created._id)).toHaveLength(0);
    expect(await h.app.store.listDeliveries({ kind: 'assignment', actionId: created._id })).toEqual([]);
  });

  it('a web-app assignment is found by the poll and told "in the care system"; a reassignment tells the new assignee only', async () => {
    const a = await webAppAction(h, { task: 'Take Mr Evans to the dentist', due: new Date('2026-03-10T15:00:00Z'), assigned_to: care.priya! });
    await poll(h);
    const [dm] = assignmentDms(h, 'priya', a._id);
    expect(dm, 'Priya was told').toBeDefined();
    const seen = h.fake.visibleText(dm!, { viewer: 'priya' });
    expect(seen).toContain(`You were assigned action #${a.action_no} in the care system`);
    expect(seen).toContain('Take Mr Evans to the dentist');
    expect(seen).toContain('3:00 PM');
    expect(seen).toContain('Urgency\nNot urgent');

    await later();
    await h.control(`actions/${a._id}`, { assigned_to: care.oliver }, 'PATCH');
    await poll(h);
    await poll(h);
    const [oliverDm] = assignmentDms(h, 'oliver', a._id);
    expect(h.fake.visibleText(oliverDm!, { viewer: 'oliver' })).toContain('in the care system');
    expect(h.fake.visibleText(oliverDm!, { viewer: 'oliver' })).toContain('11:00 AM'); // his zone
    expect(assignmentDms(h, 'oliver', a._id)).toHaveLength(1);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1); // reassigned away: nothing new in Priya's DMs
  });

  it('an Edit through Slack that reassigns tells the new assignee who did it, and nobody else', async () => {
    const a = await webAppAction(h, { task: 'Order the birthday cake for Mrs Green', due: new Date('2026-03-11T10:00:00Z'), assigned_to: care.priya! });
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
    await later();
    await command(h, 'amelia', `/care show ${a.action_no}`);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    await openModal('amelia');
    expect((await h.driver.modal('amelia').fill('Assignee', 'Sophie Marsh').submit()).outcome).toBe('closed');
    const dm = await h.fake.waitFor(() => assignmentDms(h, 'sophie', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told' });
    expect(h.fake.visibleText(dm, { viewer: 'sophie' })).toContain(`You were assigned action #${a.action_no} by @amelia`);
    await poll(h);
    expect(assignmentDms(h, 'sophie', a._id)).toHaveLength(1);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
    expect(assignmentDms(h, 'amelia', a._id)).toHaveLength(0);

    // An edit that keeps the assignee is not a new assignment.
    await later();
    await command(h, 'amelia', `/care show ${a.action_no}`);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    await openModal('amelia');
    expect((await h.driver.modal('amelia').fill('Task', 'Order the birthday cake for Mrs Green (chocolate)').submit()).outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await h.control(`actions/${a._id}`)).task.includes('chocolate') ? true : undefined), { timeoutMs: 10_000 });
    await poll(h);
    expect(assignmentDms(h, 'sophie', a._id)).toHaveLength(1);
  });

  it('unassigned and assigned again to the same person is a new assignment: a second DM', async () => {
    const a = await webAppAction(h, { task: 'Walk Mrs Green to the garden', due: new Date('2026-03-10T16:00:00Z'), assigned_to: care.priya! });
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
    await later();
    await h.control(`actions/${a._id}`, { assigned_to: null }, 'PATCH');
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
    await later();
    await h.control(`actions/${a._id}`, { assigned_to: care.priya }, 'PATCH');
    await poll(h);
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(2);
  });

  it('an action first seen already complete tells nobody it was assigned', async () => {
    const a = await webAppAction(h, { task: 'Return the library books', due: new Date('2026-03-10T12:00:00Z'), assigned_to: care.priya! });
    await h.control(`actions/${a._id}/complete`, {});
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(0);
  });
});

describe('assignment DMs exactly once: retries, a second instance, a restart', () => {
  let h: Harness;
  let dataDir: string;
  const others: ComposedApp[] = [];
  const care: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-assign-'));
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir, jobs: { instanceId: 'instance-a' } });
    for (const person of ['priya', 'oliver']) care[person] = await linkDirectly(h, person);
    await poll(h);
  });
  afterAll(async () => {
    for (const app of others) await app.stop();
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a DM that could not be opened is sent from the ledger, though the poll will not read the action again', async () => {
    // The poll's own attempt and its retry sweep's both fail.
    h.fake.faults.failNext('conversations.open', 2, 'internal_error');
    const a = await webAppAction(h, { task: 'Fit the new bed sensor', due: new Date('2026-03-10T13:00:00Z'), assigned_to: care.priya! });
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(0);
    expect(await h.app.store.listDeliveries({ kind: 'assignment', actionId: a._id })).toEqual([
      expect.objectContaining({ state: 'failed', retryable: true, lastError: 'internal_error' }),
    ]);
    // Half an hour later something else changes: the poll moves past the overlap and reads the action no more.
    await h.setTime(new Date(h.now().getTime() + 30 * 60_000));
    await webAppAction(h, { task: 'Something else', due: new Date('2026-03-11T09:00:00Z') });
    await poll(h);
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
    expect((await h.app.store.listDeliveries({ kind: 'assignment', actionId: a._id }))[0]).toMatchObject({ state: 'sent' });
  });

  it('two polls, a second instance and a restart send it once; the restarted app still tells a new assignee', async () => {
    const a = await webAppAction(h, { task: 'Check the lounge radiators', due: new Date('2026-03-10T17:00:00Z'), assigned_to: care.priya! });
    await poll(h);
    await poll(h);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);

    // A second instance on the same database polls too.
    const b = await anotherInstance(h, { dataDir, instanceId: 'instance-b' });
    others.push(b);
    expect((await b.jobs.runOnce('changes-poll')).ran).toBe(true);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);

    // The first instance stops; it starts again (a new process would read only the database).
    await h.app.stop();
    const restarted = await anotherInstance(h, { dataDir, instanceId: 'instance-a-restarted' });
    others.push(restarted);
    expect((await restarted.jobs.runOnce('changes-poll')).ran).toBe(true);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);

    await h.setTime(new Date(h.now().getTime() + 5_000));
    await h.control(`actions/${a._id}`, { assigned_to: care.oliver }, 'PATCH');
    expect((await restarted.jobs.runOnce('changes-poll')).ran).toBe(true);
    expect((await b.jobs.runOnce('changes-poll')).ran).toBe(true);
    expect(assignmentDms(h, 'oliver', a._id)).toHaveLength(1);
    expect(assignmentDms(h, 'priya', a._id)).toHaveLength(1);
  });
});
