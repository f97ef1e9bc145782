/**
 * The proof of token rotation: two instances of a deployment serving two workspaces on one PostgreSQL, the Slack
 * app's bot tokens expiring every 2 minutes, and 5 minutes of people's work in both workspaces (commands,
 * buttons, Home tabs, the changes poll and its assignment DMs, digests). Nobody ever sees `token_expired`, and
 * Slack is asked for each workspace's refresh once per token, never twice.
 *
 * Time is compressed by stepping, not by waiting: one world clock (the care system's, Slack's, both apps' and
 * their leases') is the real clock plus an offset; each step of the loop moves it 20 s forward (`world.advance`)
 * and then does that step's work, waiting until Slack has everything the step should bring before the next. So
 * the 5 minutes take a few seconds of the machine's time plus the work itself, and the
 * machine's clock never matters (the suite also runs under libfaketime at moved times). 20 s steps are shorter
 * than the refresh margin (a fifth of 120 s: 24 s), so tokens are refreshed while still good, as in production;
 * instance two's clock runs 5 s behind the world's, as a real instance's may.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careCommand, installBoth, linkFirstCareUser, type MultiHarness, seenByPeople, startMultiHarness, webActionIn } from './multi-harness.js';

const LIFETIME_S = 120;
const STEP_MS = 20_000;
// 15 × 20 s: 5 minutes of the world's time, each workspace's token refreshed about three times (at 100, 200 and 300 s).
// 10 minutes (six refreshes each) proved no more and took twice the machine's time.
const STEPS = 15;
const SKEW_MS = -5_000;
const WIRE_MS = 1_000;

const WORKSPACES = [
  { teamId: 'T0CARE', user: 'amelia', account: 1 },
  { teamId: 'T0SUN', user: 'erin', account: 2 },
] as const;

if (!TEST_DATABASE_URL) {
  describe('token rotation with two instances on PostgreSQL', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;

  describe('token rotation with two instances on PostgreSQL', () => {
    let schema: TestSchema;
    let one: MultiHarness;
    let two: MultiHarness;
    const opened: MultiHarness[] = [];

    beforeAll(async () => {
      schema = await createTestSchema(pgUrl, 'token_rotation');
      const databaseUrl = urlWithSchema(pgUrl, schema.name);
      one = await startMultiHarness({ databaseUrl, steppedClock: true, tokenRotation: { expiresInSeconds: LIFETIME_S }, instanceId: 'one' });
      opened.push(one);
      two = await startMultiHarness({ beside: one, databaseUrl, keyRing: one.keyRing, instanceId: 'two', appSkewMs: SKEW_MS });
      opened.push(two);
    });
    afterAll(async () => {
      for (const h of opened.reverse()) await h.close();
      await schema?.drop();
    });

    it('5 minutes of work with tokens expiring every 2 minutes: nobody sees token_expired, each refresh is done once', async () => {
      const world = one.world!;
      const started = world.now();
      await installBoth(one);
      const carers = new Map<string, string>();
      for (const w of WORKSPACES) {
        carers.set(w.teamId, await linkFirstCareUser(one, w.teamId, w.user, w.account));
        // Of the person's own actions (this test's): a digest of every action of the demo data is a message and a
        // thread of 3–5 more, and Slack takes about one a second per channel, in real time however the world is
        // stepped (20 of the test's 34 s). Mine-only, each is a message and a thread of one or two: still a digest
        // and its thread posted with the rotating tokens, in a few seconds in all.
        expect(await careCommand(one, w.teamId, w.user, 'digest here 08:00 daily mine-only')).toMatch(/digest/i);
      }
      // The app's first look at each care system (what is already so is not news).
      const poll = async (slot: number) => {
        const [a, b] = await Promise.all([one.app.jobs.tick('changes-poll', { slot }), two.app.jobs.tick('changes-poll', { slot })]);
        expect(a.ran + b.ran).toBe(2);
        expect(a.failed + b.failed).toBe(0);
      };
      await poll(0);

      const answers: string[] = [];
      const assigned = new Map<string, number[]>(WORKSPACES.map((w) => [w.teamId, []]));
      for (let step = 1; step <= STEPS; step++) {
        await world.advance(STEP_MS);
        await Promise.all(
          WORKSPACES.map(async (w, i) => {
            // The two workspaces are served by different instances, taking turns.
            const h = (step + i) % 2 === 0 ? one : two;
            const team = h.fake.workspace(w.teamId);
            const person = team.user(w.user)!.id;
            const action = await webActionIn(h, w.account, {
              task: `Step ${step} in ${w.teamId}`,
              due: new Date(world.now() + 3600_000),
              assigned_to: carers.get(w.teamId)!,
            });
            assigned.get(w.teamId)!.push(action.action_no);
            answers.push(await careCommand(h, w.teamId, w.user, step % 2 ? 'mine' : 'whoami'));
            if (step % 3 === 0) {
              const published = team.calls('views.publish').filter((c) => c.result.ok).length;
              await h.team(w.teamId).openHome(w.user);
              await team.waitFor(() => team.calls('views.publish').filter((c) => c.result.ok).length > published, { message: `Home tab, step ${step}` });
            }
            if (step % 5 === 0) answers.push(await careCommand(h, w.teamId, w.user, 'digest now'));
            // A button: Complete on the DM of the action assigned two steps ago.
            const earlier = assigned.get(w.teamId)!.at(-3);
            const dm = earlier === undefined ? undefined : team.dms(person).find((d) => d.text.includes(`#${earlier}`));
            if (dm && step % 2 === 0) {
              await h.team(w.teamId).clickButton(w.user, { dm: true, ts: dm.ts, text: 'Complete' });
              await team.waitFor(() => team.visibleText(team.dms(person).find((d) => d.ts === dm.ts)!).includes('[Reopen]'), {
                message: `completed #${earlier} from its DM, step ${step}`,
              });
            }
          }),
        );
        await poll(step);
        // Each step's assignment reaches its person's DMs, once, before the world moves on.
        for (const w of WORKSPACES) {
          const team = one.fake.workspace(w.teamId);
          const no = assigned.get(w.teamId)!.at(-1)!;
          await team.waitFor(() => team.dms(team.user(w.user)!.id).find((d) => d.text.includes(`#${no}`)), { message: `assignment DM #${no}` });
        }
      }
      const minutes = (world.now() - started) / 60_000;
      expect(minutes).toBeGreaterThanOrEqual((STEPS * STEP_MS) / 60_000);

      for (const w of WORKSPACES) {
        const team = one.fake.workspace(w.teamId);
        const person = team.user(w.user)!.id;
        // Every assignment told once; the channel got its digests.
        for (const no of assigned.get(w.teamId)!)
          expect(
            team.dms(person).filter((d) => d.text.includes(`#${no}`)),
            `#${no}`,
          ).toHaveLength(1);
        expect(team.messages(team.channel('care-team')!.id).length).toBeGreaterThanOrEqual(STEPS / 5);

        // Refreshed about every 100 s (due with 24 s left, at the first step after), each time once: every refresh
        // Slack was asked for was granted (a second refresh from one refresh token would have been refused), and
        // no two came within one token's life less its margin (and instance two's lag).
        const refreshes = team.tokenRefreshes();
        expect(
          refreshes.every((r) => r.ok),
          JSON.stringify(refreshes),
        ).toBe(true);
        expect(refreshes.length).toBeGreaterThanOrEqual(Math.floor((minutes * 60) / LIFETIME_S));
        expect(refreshes.length).toBeLessThanOrEqual(Math.ceil((minutes * 60) / (LIFETIME_S * 0.8 + SKEW_MS / 1000)));
        // The world clock is the real one plus an offset, so the time a refresh spends on the wire (up to a second
        // on a loaded machine) can fall between the app reading its clock and Slack stamping the refresh.
        for (let i = 1; i < refreshes.length; i++) {
          expect(refreshes[i]!.at - refreshes[i - 1]!.at).toBeGreaterThanOrEqual(LIFETIME_S * 0.8 * 1000 + SKEW_MS - WIRE_MS);
        }
        // Refreshed before expiry: Slack never had to say token_expired, and nobody read about it.
        expect(team.calls().filter((c) => c.result.error === 'token_expired')).toEqual([]);
        const seen = seenByPeople(team);
        expect(seen).not.toContain('token_expired');
        expect(seen).not.toContain('Something went wrong');
      }
      for (const answer of answers) expect(answer).not.toMatch(/token|went wrong|not connected/i);
      for (const h of [one, two]) expect(h.logs.filter((l) => /token_expired|unhandled error|refused to refresh|did not store/.test(l))).toEqual([]);
      const refreshedBy = [one, two].map((h) => h.logs.filter((l) => l.includes('refreshed a workspace')).length);
      // Each refresh logged once, by the instance that did it (in this run both instances do some).
      expect(refreshedBy[0]! + refreshedBy[1]!).toBe(WORKSPACES.reduce((n, w) => n + one.fake.workspace(w.teamId).tokenRefreshes().length, 0));
      // No token in any log line of either instance.
      const logs = [...one.logs, ...two.logs].join('\n');
      expect(logs).not.toMatch(/xoxe[.-]/);
    }, 240_000);
  });
}
