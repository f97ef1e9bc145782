/**
 * Issue 32 item 8 and issue 37 item 5: a bulk reassignment ends with a result DM to the admin who ran it,
 * with Undo for 24 hours: the same actions go back (only those: the receiver's own work stays), once (a
 * second press is told), those changed since are left and named; after the window Undo says it expired.
 * What the run kept (the plan, with names and Slack Ids) is gone when it ends; what Undo needs is gone
 * after the window (the retention job), after `/care forget` of a person it names, and after an uninstall.
 * On SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 * Clock: Tuesday 10 March 2026, 09:00 UTC = 09:00 in London (GMT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const HOUR = 3_600_000;

function scenario(kind: 'sqlite' | 'postgres') {
  let h: Harness;
  let schema: TestSchema | undefined;
  const care: Record<string, string> = {};

  const modalText = (user: string) => {
    const m = h.fake.openModal(user);
    return m ? h.fake.visibleText(m.view, { viewer: user }) : '';
  };
  const waitForModal = (user: string, words: string, timeoutMs = 30_000) =>
    h.fake.waitFor(() => (modalText(user).includes(words) ? modalText(user) : undefined), {
      timeoutMs,
      message: `no modal saying “${words}” (it says: ${modalText(user)})`,
    });
  const results = () => h.fake.dms('amelia').filter((m) => deliveryKind(m) === 'reassign-result');
  const summaries = (user: string) => h.fake.dms(user).filter((m) => deliveryKind(m) === 'reassign-summary');
  const seen = (m: Parameters<Harness['fake']['visibleText']>[0], user = 'amelia') => h.fake.visibleText(m, { viewer: user });
  const records = async () => (await h.app.store.listCursors('reassign:', h.fake.teamId)).map((c) => c.value);
  const assigneeOf = async (id: string) => (await h.control(`actions/${id}`)).assigned_to as string;
  const workOf = async (careUserId: string, n: number, label: string) => {
    const made = [];
    for (let i = 0; i < n; i++)
      made.push(await webAppAction(h, { task: `${label} ${i + 1}`, due: new Date(START.getTime() + (i + 1) * HOUR), assigned_to: careUserId }));
    return made;
  };
  /** `/care reassign …`, confirmed; resolves to the admin's result DM of that run. */
  const reassign = async (text: string, count: number) => {
    const before = results().length;
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    await h.driver.slash('amelia', `/care reassign ${text}`, { channel: '#care-team' });
    await waitForModal('amelia', `Move ${count} open action`);
    await h.driver.modal('amelia').submit();
    await waitForModal('amelia', 'moved from', 60_000);
    return h.fake.waitFor(() => results()[before], { timeoutMs: 20_000, message: 'no result DM' });
  };
  const dmNow = (ts: string) => h.fake.dms('amelia').find((m) => m.ts === ts)!;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      schema = await createTestSchema(TEST_DATABASE_URL!, 'reassignundo');
      databaseUrl = urlWithSchema(TEST_DATABASE_URL!, schema.name);
    }
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, ...(databaseUrl ? { databaseUrl } : {}) });
    for (const person of ['sophie', 'priya', 'oliver', 'amelia']) care[person] = await linkDirectly(h, person);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
  });

  it('the admin gets a result DM with Undo; Undo moves exactly those back, once; one changed since is left and named', async () => {
    const moving = await workOf(care.sophie!, 6, 'Sophie’s round');
    const priyasOwn = await workOf(care.priya!, 3, 'Priya’s own');
    await poll(h);

    const dm = await reassign('@sophie to @priya', 6);
    const said = seen(dm);
    expect(said).toContain('6 moved from @sophie to @priya; all 6 done.');
    expect(said).toContain(`Moved: ${moving.map((a) => `#${a.action_no}`).join(', ')}.`);
    expect(said).toContain('Undo moves these 6 back to @sophie, and only these (@priya’s own work stays)');
    expect(said).toContain('(24 hours)');
    expect(dm.text).not.toContain('round');
    // The plan (names, Slack Ids) is gone: what is kept is what Undo needs, naming nobody by name.
    const kept = await records();
    expect(kept).toHaveLength(1);
    expect(kept[0]).not.toContain('"plan"');
    expect(kept[0]).not.toContain(h.driver.user('sophie').profile.real_name!);

    // Meanwhile one is completed and one given to Oliver in the care system's web app.
    await h.control(`actions/${moving[0]!._id}/complete`, {});
    await h.control(`actions/${moving[1]!._id}`, { assigned_to: care.oliver }, 'PATCH');

    // Two presses at once (a double click, or two instances): one Undo.
    await Promise.all([
      h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Undo', confirm: 'accept' }),
      h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Undo', confirm: 'accept' }),
    ]);
    const undone = await h.fake.waitFor(() => (seen(dmNow(dm.ts)).includes('Undone by') ? seen(dmNow(dm.ts)) : undefined), {
      timeoutMs: 30_000,
      message: 'the result DM does not say it was undone',
    });
    expect(undone).toContain(
      `Undone by @amelia: 4 moved back from @priya to @sophie; 2 left as they are: #${moving[0]!.action_no} (completed since the reassignment), #${moving[1]!.action_no} (given to someone else since the reassignment).`,
    );
    expect(JSON.stringify(dmNow(dm.ts).blocks)).not.toContain('care_reassign_undo');
    const told = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.includes('already undone')), { timeoutMs: 10_000 });
    expect(told.text).toContain('This reassignment was already undone: nothing more was moved.');

    for (const a of moving.slice(2)) expect(await assigneeOf(a._id)).toBe(care.sophie);
    expect(await assigneeOf(moving[1]!._id)).toBe(care.oliver);
    for (const a of priyasOwn) expect(await assigneeOf(a._id)).toBe(care.priya);
    // Audited like the run, each move once.
    const audit = (await h.app.store.listAudit({ limit: 500 })).filter((e) => e.verb === 'reassign-undo');
    expect(audit.map((e) => e.actionId).sort()).toEqual(
      moving
        .slice(2)
        .map((a) => a._id)
        .sort(),
    );
    // Each person affected told once more (the run's summary, then the Undo's).
    await h.fake.waitFor(() => (summaries('sophie').length === 2 && summaries('priya').length === 2 ? true : undefined), { timeoutMs: 10_000 });
    expect(seen(summaries('sophie')[1]!, 'sophie')).toContain('@amelia moved 4 open actions back from @priya to you');
    expect(seen(summaries('priya')[1]!, 'priya')).toContain('@amelia moved 4 of your open actions back to @sophie');
    await poll(h);
    expect(summaries('sophie')).toHaveLength(2);
    expect(summaries('priya')).toHaveLength(2);
    // The Undo used, nothing of the run is kept.
    expect(await records()).toEqual([]);
  }, 180_000);

  it('after 24 hours Undo says it expired, and what it needed is deleted by the retention job (an unconfirmed plan too)', async () => {
    const moving = await workOf(care.oliver!, 2, 'Oliver’s round');
    await poll(h);
    const dm = await reassign('@oliver to @priya today', 3);
    expect(seen(dm)).toContain('3 moved from @oliver to @priya');
    // A confirmation left open, never confirmed.
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    await h.driver.slash('amelia', '/care reassign @priya to @oliver', { channel: '#care-team' });
    await waitForModal('amelia', 'Move ');
    await h.driver.modal('amelia').close();
    expect(await records()).toHaveLength(2);

    await h.setTime(new Date(h.now().getTime() + 24 * HOUR + 60_000));
    await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Undo', confirm: 'accept' });
    const late = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.includes('too late')), { timeoutMs: 10_000 });
    expect(late.text).toContain('It is too late to undo: Undo works for 24 hours after a reassignment.');
    await h.fake.waitFor(() => (seen(dmNow(dm.ts)).includes('Undo expired') ? true : undefined), { timeoutMs: 10_000 });
    expect(JSON.stringify(dmNow(dm.ts).blocks)).not.toContain('care_reassign_undo');
    for (const a of moving) expect(await assigneeOf(a._id)).toBe(care.priya);

    const run = await h.app.jobs.runOnce('retention');
    expect(run.ran).toBe(true);
    expect(await records()).toEqual([]);
  }, 120_000);

  it('`/care forget` of a person an Undo names deletes it (its Undo then says it expired)', async () => {
    await workOf(care.oliver!, 2, 'Oliver’s notes');
    await poll(h);
    const dm = await reassign('@oliver to @sophie', 2);
    expect(await records()).toHaveLength(1);
    expect((await records())[0]).toContain('U0OLIVER');
    await command(h, 'amelia', '/care forget <@U0OLIVER>');
    const name = h.driver.user('oliver').profile.real_name;
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${name}` });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:')), { message: 'the erasure' });
    expect(await records()).toEqual([]);
    const before = h.fake.ephemerals('amelia').filter((e) => e.text.includes('too late')).length;
    await h.driver.clickButton('amelia', { dm: true, ts: dm.ts, text: 'Undo', confirm: 'accept' });
    await h.fake.waitFor(() => (h.fake.ephemerals('amelia').filter((e) => e.text.includes('too late')).length > before ? true : undefined), {
      timeoutMs: 10_000,
    });
  }, 120_000);

  it('an uninstall deletes what Undo needs', async () => {
    await workOf(care.priya!, 1, 'Priya’s last');
    await poll(h);
    const own = (await h.app.care.actions.collect({ filters: { assigned_to: care.priya!, completed: 'no' }, attributes: ['_id'], limit: 100 })).length;
    const dm = await reassign('@priya to @sophie', own);
    expect(seen(dm)).toContain('Undo moves these');
    expect(await records()).toHaveLength(1);
    await h.driver.uninstall();
    await h.fake.waitFor(async () => (await h.app.store.listAudit({ verb: 'workspace.uninstalled' })).length > 0, { message: 'the uninstall' });
    expect(await records()).toEqual([]);
  }, 120_000);
}

describe('undo of a bulk reassignment, SQLite', () => scenario('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('undo of a bulk reassignment, PostgreSQL', () => scenario('postgres'));
