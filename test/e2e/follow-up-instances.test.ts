/**
 * Issue 33's follow-up of taken work on a deployment of many workspaces: two instances on PostgreSQL, two
 * workspaces, their escalation ticks made by both instances as their schedulers make them (one slot, both
 * instances), on the world's stepped clock. In Brightwater Care Sophie takes an urgent action with Take it; in
 * Sunrise Care Frank says "I'm on it". Neither completes it. Each hold gets one follow-up DM 30 minutes on, the ladder
 * resumes from the seniors 30 minutes after that, and the managers' channel is told 15 minutes after the resume:
 * every step once, on time, in both workspaces, through what a many-workspace deployment does meanwhile: each
 * workspace's runs kept on one instance (kept leases), the other instance letting it go after 10 idle minutes, kinds
 * run only where due (job_due), and a stretch with no tick at all (leases run out, both instances let both go) just
 * before the managers' step, which then runs on a workspace composed afresh.
 * The world's clock is stepped (multi-harness.ts); the seniors are named for every shift, whatever the hour.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseProgress, progressCursor } from '../../src/services/urgent/escalation-steps.js';
import { followUpCursor, parseFollowUp } from '../../src/services/urgent/follow-up-policy.js';
import { scopedWorkspaceStore } from '../../src/store/workspace-store.js';
import { PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import { twoInstancesOnOneSchema } from './fixtures/two-multi-instances.js';
import { careCommand, linkFirstCareUser, type MultiHarness, webActionIn } from './multi-harness.js';

const MIN = 60_000;
/** The tick the test makes on both instances (the scheduler's is 5 s; a kept lease outlives this step). */
const STEP_MS = 50_000;

type Message = { ts: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };

interface Home {
  team: string;
  account: number;
  admin: string;
  /** Who holds the action, and how. */
  holder: { name: string; id: string; via: 'Take it' | 'I’m on it' };
  seniors: { name: string; id: string }[];
  managers: { id: string; name: string };
}

const HOMES: Home[] = [
  {
    team: 'T0CARE',
    account: 1,
    admin: 'amelia',
    holder: { name: 'sophie', id: 'U0SOPHIE', via: 'Take it' },
    seniors: [
      { name: 'priya', id: 'U0PRIYA' },
      { name: 'oliver', id: 'U0OLIVER' },
    ],
    managers: { id: 'C0GENERAL', name: 'general' },
  },
  {
    team: 'T0SUN',
    account: 2,
    admin: 'erin',
    holder: { name: 'frank', id: 'U0FRANK', via: 'I’m on it' },
    seniors: [{ name: 'erin', id: 'U0ERIN' }],
    managers: { id: 'C0SUNGEN', name: 'general' },
  },
];

const opened: MultiHarness[] = [];
let schema: TestSchema | undefined;
afterEach(async () => {
  for (const h of opened.reverse()) await h.close();
  opened.length = 0;
  await schema?.drop();
  schema = undefined;
});

if (!TEST_DATABASE_URL) {
  describe('follow-up of taken work across two instances serving two workspaces', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;
  describe('follow-up of taken work across two instances serving two workspaces (issue 33)', () => {
    it('a take and an on-it never completed: one DM each, then the seniors, then the managers, once and on time in both workspaces', async () => {
      const pair = await twoInstancesOnOneSchema(pgUrl, 'follow_up_instances', opened);
      schema = pair.schema;
      const { one, two } = pair;
      const world = one.world!;
      const shifts = ['Day', 'Night'];
      for (const home of HOMES) {
        expect(await careCommand(one, home.team, home.admin, 'digest here urgent-only')).toMatch(/urgent/i);
        expect(await careCommand(one, home.team, home.admin, `escalation managers <#${home.managers.id}|${home.managers.name}>`)).toContain('Escalation set.');
        const named = home.seniors.map((s) => `<@${s.id}|${s.name}>`).join(' ');
        for (const shift of shifts) expect(await careCommand(two, home.team, home.admin, `escalation seniors ${shift} ${named}`)).toContain(`${shift}:`);
        if (home.holder.via === 'Take it') await linkFirstCareUser(one, home.team, home.holder.name, home.account);
        // The app's first look at the care account: what is already so is not news.
        expect((await one.app.jobs.runOnce('changes-poll', home.team)).ran).toBe(true);
      }

      // An urgent action in each home's web app, alerted by the poll; a minute on, its holder answers the alert.
      const actions = new Map<string, string>();
      for (const home of HOMES) {
        const a = await webActionIn(one, home.account, { task: 'Mr Ahmed has had a fall', due: new Date(world.now() + 3 * 60 * MIN), urgent: true });
        actions.set(home.team, a._id);
        expect((await one.app.jobs.runOnce('changes-poll', home.team)).ran).toBe(true);
      }
      await world.advance(MIN);
      for (const home of HOMES) {
        const team = one.fake.workspace(home.team);
        const alert = team.messages('#care-team').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actions.get(home.team));
        expect(alert, `${home.team}'s urgent alert`).toBeDefined();
        const people = (home.team === 'T0CARE' ? one : two).team(home.team);
        await people.clickButton(home.holder.name, { channel: '#care-team', ts: alert!.ts, text: home.holder.via });
        // (Its form once drawn: a person types in the form, not in its "Loading…".)
        if (home.holder.via === 'I’m on it') await people.modal(home.holder.name).fill('Note', 'With him now').submit();
        const said = home.holder.via === 'Take it' ? `Taken by @${home.holder.name}` : `@${home.holder.name} is on it since`;
        await team.waitFor(() => (team.visibleText(team.messages('#care-team').find((m) => m.ts === alert!.ts)!).includes(said) ? true : undefined), {
          timeoutMs: 10_000,
          message: `${home.team}'s alert never said ${said}`,
        });
      }

      const both = [one, two];
      const tick = async () => {
        const slot = world.now();
        const runs = await Promise.all(both.map((h) => h.app.jobs.tick('escalations', { slot })));
        expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
      };
      const stepUntil = async (minutes: number) => {
        const end = world.now() + minutes * MIN;
        while (world.now() + STEP_MS <= end) {
          await world.advance(STEP_MS);
          await tick();
        }
      };
      const stores = new Map(HOMES.map((home) => [home.team, scopedWorkspaceStore(one.app.store, home.team)]));
      const followUpOf = async (home: Home) => parseFollowUp(await stores.get(home.team)!.getCursor(followUpCursor(actions.get(home.team)!)));
      const progressOf = async (home: Home) => parseProgress(await stores.get(home.team)!.getCursor(progressCursor(actions.get(home.team)!)));

      // 30 minutes after each hold: the follow-up DM; 30 minutes after that, the ladder resumes (both in 50 s steps).
      await stepUntil(62);
      for (const home of HOMES) {
        const f = await followUpOf(home);
        const p = await progressOf(home);
        expect(f?.dmAt && p?.resumed, `${home.team}: ${JSON.stringify({ f, p })}`).toBeTruthy();
      }
      // Nothing at all for 14 minutes (no tick: both instances let both workspaces go, every lease runs out), then the
      // steps go on at the managers' due time.
      await world.advance(14 * MIN);
      for (const h of both) await h.app.registry.connected();
      expect([...one.app.registry.composed().keys(), ...two.app.registry.composed().keys()]).toEqual([]);
      await tick();
      await stepUntil(3);

      for (const home of HOMES) {
        const team = one.fake.workspace(home.team);
        const id = actions.get(home.team)!;
        const of = (kind: string) => (m: Message) => deliveryKind(m) === kind && deliveryActionId(m) === id;
        const f = (await followUpOf(home))!;
        const p = (await progressOf(home))!;
        // In Slack, each once: the holder's follow-up DM, the seniors' DMs, the managers' post.
        expect(team.dms(home.holder.id).filter(of('followup')), `${home.team}: the follow-up DM`).toHaveLength(1);
        for (const senior of home.seniors) expect(team.dms(senior.id).filter(of('escalation')), `${home.team}: ${senior.name}`).toHaveLength(1);
        expect(team.messages(`#${home.managers.name}`).filter(of('escalation')), `${home.team}: the managers' post`).toHaveLength(1);
        // In the ledger, each once, sent, and on time: within a step of the test's tick of its due time.
        const rows = (await one.app.store.listDeliveries({ actionId: id })).filter((d) => d.kind === 'followup' || d.kind === 'escalation');
        const episode = (await one.app.store.listDeliveries({ kind: 'urgent', actionId: id, state: 'sent' }))[0]!.occurrence;
        expect(rows.map((d) => [d.kind, d.occurrence, d.recipient, d.state]).sort()).toEqual(
          [
            ['followup', `${episode}@${f.heldSince}${f.via === 'acknowledged' ? '@ack' : ''}`, `user:${home.team}/${home.holder.id}`, 'sent'],
            ...home.seniors.map((s) => ['escalation', `${episode}#seniors+again`, `user:${home.team}/${s.id}`, 'sent']),
            ['escalation', `${episode}#managers+again`, `channel:${home.team}/${home.managers.id}`, 'sent'],
          ].sort(),
        );
        const sentAt = (occurrenceEnd: string) => rows.find((d) => d.occurrence.endsWith(occurrenceEnd))!.sentAt!;
        const late = (at: number, due: number) => at - due;
        const dmDue = Date.parse(f.heldSince) + 30 * MIN;
        const resumeDue = Date.parse(f.dmAt!) + 30 * MIN;
        const managersDue = Date.parse(p.resumed!.firstDueAt) + 15 * MIN;
        expect(late(Date.parse(f.dmAt!), dmDue)).toBeGreaterThanOrEqual(0);
        expect(late(Date.parse(f.dmAt!), dmDue)).toBeLessThanOrEqual(STEP_MS);
        expect(late(Date.parse(p.resumed!.at), resumeDue)).toBeLessThanOrEqual(STEP_MS);
        expect(late(sentAt('#seniors+again'), resumeDue)).toBeLessThanOrEqual(STEP_MS + 5_000);
        expect(late(sentAt('#managers+again'), managersDue)).toBeGreaterThanOrEqual(0);
        expect(late(sentAt('#managers+again'), managersDue)).toBeLessThanOrEqual(STEP_MS + 5_000);
        // The audit: one DM, one resume, each resumed step once.
        expect(await one.app.store.listAudit({ actionId: id, verb: 'followup.dm' })).toHaveLength(1);
        expect(await one.app.store.listAudit({ actionId: id, verb: 'followup.resume' })).toHaveLength(1);
        const steps = (await one.app.store.listAudit({ actionId: id, verb: 'escalate' })).map((e) => `${e.details.step}/${e.details.again}`).sort();
        expect(steps).toEqual(['managers/followup', 'seniors/followup']);
      }
    }, 180_000);
  });
}
