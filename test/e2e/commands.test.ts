import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, webAppAction, type Harness, startHarness } from './harness.js';

/**
 * The read-and-act slash commands, against a sandbox with no seeded actions:
 * every action here is made in the care system's web app (sandbox controls),
 * so what each list must show is known exactly.
 *
 * Clocks: 2026-03-10 10:00 UTC = 10:00 in London (GMT) = 06:00 in New York (EDT).
 */
const START = new Date('2026-03-10T10:00:00Z');
const at = (iso: string) => new Date(iso);

describe('/care commands through Slack', () => {
  let h: Harness;
  let sophie: string;
  let oliver: string;
  const a: Record<string, { _id: string; action_no: string }> = {};

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophie = await linkDirectly(h, 'sophie');
    oliver = await linkDirectly(h, 'oliver');
    const mk = async (key: string, task: string, due: string, extra: { urgent?: boolean; assigned_to?: string | null } = {}) => {
      a[key] = await webAppAction(h, { task, due: at(due), assigned_to: sophie, ...extra });
    };
    await mk('overdue', 'Chase the pharmacy about repeat prescriptions', '2026-03-08T09:00:00Z');
    await mk('overdueUrgent', 'Fix the call bell in room 4', '2026-03-09T15:00:00Z', { urgent: true });
    await mk('today', 'Book the chiropodist visit', '2026-03-10T16:00:00Z');
    await mk('todayUrgent', "Ring Mrs Patel's daughter", '2026-03-10T18:00:00Z', { urgent: true });
    await mk('soon', 'Order incontinence supplies', '2026-03-13T11:00:00Z');
    await mk('tonight', 'Night check of the fire doors', '2026-03-11T02:00:00Z');
    await mk('later', 'Plan the summer fete', '2026-03-25T10:00:00Z');
    await mk('done', 'Return the hoist to the supplier', '2026-03-09T12:00:00Z');
    await h.control(`actions/${a.done!._id}/complete`, {});
    await mk('oliverEvening', 'Evening call with the Gloucester office', '2026-03-11T02:00:00Z', { assigned_to: oliver });
    await mk('feteOpen', 'Fete bunting order', '2026-03-20T10:00:00Z', { assigned_to: null });
    await mk('feteDone', 'Fete raffle tickets', '2026-03-05T10:00:00Z', { assigned_to: null });
    await h.control(`actions/${a.feteDone!._id}/complete`, {});
    await mk('toComplete', 'Update the falls risk assessment', '2026-03-12T10:00:00Z');
  });
  afterAll(async () => h?.close());

  describe('/care mine', () => {
    it('lists your open actions: overdue, due today, next 7 days, urgent first, each with Complete and Edit', async () => {
      const { text } = await command(h, 'sophie', '/care mine');
      const pos = (s: string) => {
        expect(text).toContain(s);
        return text.indexOf(s);
      };
      expect(pos('Overdue (2)')).toBeLessThan(pos('Due today (2)'));
      expect(pos('Due today (2)')).toBeLessThan(pos('Next 7 days'));
      // Urgent first inside each group, then by due time.
      expect(pos('Fix the call bell')).toBeLessThan(pos('Chase the pharmacy'));
      expect(pos('Chase the pharmacy')).toBeLessThan(pos('Due today'));
      expect(pos("Ring Mrs Patel's daughter")).toBeLessThan(pos('Book the chiropodist'));
      expect(pos('Next 7 days')).toBeLessThan(pos('Night check of the fire doors'));
      expect(pos('Night check of the fire doors')).toBeLessThan(pos('Order incontinence supplies'));
      expect(text).not.toContain('Plan the summer fete'); // more than 7 days away
      expect(text).not.toContain('Return the hoist'); // complete
      expect(text).not.toContain('Evening call'); // Oliver's
      expect(text.match(/\[Complete\] \[Edit\]/g)?.length).toBe(7);
      expect(text).toContain(`#${a.today!.action_no}`);
    });

    it('tells someone who has not linked their account how to do it', async () => {
      const { text } = await command(h, 'visitor', '/care mine');
      expect(text).toContain('/care link');
      expect(text).not.toContain('Chase the pharmacy');
    });

    it('shows no care data at all to someone without a care account (due, show, find)', async () => {
      for (const line of ['/care due week <@U0SOPHIE|sophie>', `/care show ${a.today!.action_no}`, '/care find pharmacy']) {
        const { text } = await command(h, 'visitor', line);
        expect(text).toContain('/care link');
        expect(text).not.toContain('Chase the pharmacy');
        expect(text).not.toContain(`#${a.today!.action_no}`);
      }
    });

    it('refuses words after it with the right form', async () => {
      const { text } = await command(h, 'sophie', '/care mine please');
      expect(text).toContain('/care mine takes only location <name> or resident <Id> after it');
    });
  });

  describe('/care due', () => {
    it('defaults to today, in your own time zone', async () => {
      const { text } = await command(h, 'sophie', '/care due');
      expect(text).toContain('Due today for you (2)');
      expect(text).toContain('Book the chiropodist visit');
      expect(text).not.toContain('Night check'); // 02:00 tomorrow in London
      expect(text).not.toContain('Chase the pharmacy');
    });

    it('counts 02:00 UTC tomorrow as tonight for someone in New York', async () => {
      const { text } = await command(h, 'oliver', '/care due today');
      expect(text).toContain('Evening call with the Gloucester office');
    });

    it('tomorrow, week and overdue windows', async () => {
      const tomorrow = (await command(h, 'sophie', '/care due tomorrow')).text;
      expect(tomorrow).toContain('Night check of the fire doors');
      expect(tomorrow).not.toContain('Book the chiropodist');
      const overdue = (await command(h, 'sophie', '/care due overdue')).text;
      expect(overdue).toContain('Chase the pharmacy');
      expect(overdue).toContain('Fix the call bell');
      expect(overdue).not.toContain('Book the chiropodist');
      expect(overdue.indexOf('Fix the call bell')).toBeLessThan(overdue.indexOf('Chase the pharmacy'));
      const week = (await command(h, 'sophie', '/care due week')).text;
      expect(week).toContain('Order incontinence supplies');
      expect(week).not.toContain('Plan the summer fete');
      expect(week).toContain('[Complete] [Edit]');
    });

    it("shows another linked person's actions when they are mentioned", async () => {
      const { text } = await command(h, 'sophie', '/care due week <@U0OLIVER|oliver>');
      expect(text).toContain('for @oliver');
      expect(text).toContain('Evening call with the Gloucester office');
      expect(text).not.toContain('Book the chiropodist');
    });

    it('says when the person mentioned has not linked a care account', async () => {
      const { text } = await command(h, 'sophie', '/care due today <@U0PRIYA|priya>');
      expect(text).toContain('@priya has not linked a care account');
    });

    it('answers a bad window with the windows it knows; a typed @name is looked up', async () => {
      expect((await command(h, 'sophie', '/care due someday')).text).toContain('/care due knows today, tomorrow, week (the next 7 days) or overdue');
      expect((await command(h, 'sophie', '/care due today @priya')).text).toContain('@priya has not linked a care account');
      expect((await command(h, 'sophie', '/care due week @oliver')).text).toContain('Evening call with the Gloucester office');
    });
  });

  describe('/care show, done, reopen', () => {
    it('shows the action card by number, with the due time as a Slack date token and the markers', async () => {
      const overdue = await command(h, 'sophie', `/care show ${a.overdueUrgent!.action_no}`);
      expect(overdue.text).toContain(':rotating_light: Urgent');
      expect(overdue.text).toContain(':warning: Overdue');
      expect(overdue.raw).toContain(`<!date^${Date.parse('2026-03-09T15:00:00Z') / 1000}^`);
      // Each reader sees the due time in their own zone.
      expect(h.fake.visibleText(overdue.message, { viewer: 'oliver' })).toContain('11:00 AM');
      expect(h.fake.visibleText(overdue.message, { viewer: 'sophie' })).toContain('3:00 PM');
      const { text } = await command(h, 'sophie', `/care show ${a.today!.action_no}`);
      expect(text).not.toContain('Overdue');
      expect(text).toContain('Book the chiropodist visit');
      expect(text).toContain(`#${a.today!.action_no}`);
      expect(text).toContain('Assigned to\n@sophie');
      expect(text).toContain('State\nOpen');
      expect(text).toContain('[Complete] [Edit]');
    });

    it('shows the action card by Id, with Reopen for a complete action', async () => {
      const { text } = await command(h, 'sophie', `/care show ${a.done!._id}`);
      expect(text).toContain('Return the hoist');
      expect(text).toContain('Completed');
      expect(text).toContain('[Reopen]');
      expect(text).not.toContain('[Complete]');
    });

    it('says plainly when there is no such action', async () => {
      expect((await command(h, 'sophie', '/care show 9999')).text).toContain(
        'There is no action #9999. Check the number on its card, or search by words: /care find <words>',
      );
      expect((await command(h, 'sophie', '/care show 0123456789abcdef01234567')).text).toContain('There is no action with the Id');
    });

    it('names the right form when the number is missing', async () => {
      const { text } = await command(h, 'sophie', '/care show');
      expect(text).toContain('/care show <action no or Id>');
      expect((await command(h, 'sophie', '/care done 12 13')).text).toContain('/care done <action no or Id>');
    });

    it('refuses to complete for someone not linked, and the action stays open', async () => {
      const { text } = await command(h, 'visitor', `/care done ${a.toComplete!.action_no}`);
      expect(text).toContain('/care link');
      expect((await h.control(`actions/${a.toComplete!._id}`)).completed).toBeNull();
    });

    it('completes, then reopens, showing the updated card and writing the audit log', async () => {
      const done = await command(h, 'sophie', `/care done ${a.toComplete!.action_no}`);
      expect(done.text).toContain('Completed.');
      expect(done.text).toContain('[Reopen]');
      expect((await h.control(`actions/${a.toComplete!._id}`)).completed).not.toBeNull();

      const again = await command(h, 'sophie', `/care done #${a.toComplete!.action_no}`);
      expect(again.text).toContain('It was already complete.');

      const reopened = await command(h, 'sophie', `/care reopen ${a.toComplete!._id}`);
      expect(reopened.text).toContain('Reopened.');
      expect(reopened.text).toContain('[Complete] [Edit]');
      expect((await h.control(`actions/${a.toComplete!._id}`)).completed).toBeNull();

      const audit = await h.app.store.listAudit({ actionId: a.toComplete!._id });
      expect(audit.map((e) => [e.verb, e.userId]).sort()).toEqual([
        ['action.complete', 'U0SOPHIE'],
        ['action.reopen', 'U0SOPHIE'],
      ]);
    });
  });

  describe('/care find', () => {
    it('lists open matches first, then complete ones', async () => {
      const { text } = await command(h, 'sophie', '/care find fete');
      expect(text).toContain('Open (2)');
      expect(text).toContain('Complete (1)');
      expect(text.indexOf('Fete bunting order')).toBeLessThan(text.indexOf('Complete (1)'));
      expect(text.indexOf('Plan the summer fete')).toBeLessThan(text.indexOf('Complete (1)'));
      expect(text.indexOf('Fete raffle tickets')).toBeGreaterThan(text.indexOf('Complete (1)'));
      expect(text).toContain('[Complete]');
    });

    it('says when nothing matches, and what to type when no words are given', async () => {
      expect((await command(h, 'sophie', '/care find zyzzyva')).text).toContain('No actions match “zyzzyva”.');
      expect((await command(h, 'sophie', '/care find')).text).toContain('/care find <words>');
    });
  });

  describe('/care locations and /care literature', () => {
    it('finds locations by words', async () => {
      const { text } = await command(h, 'visitor', '/care locations heather');
      expect(text).toContain('Heather Lodge Nursing Home');
      expect(text).not.toContain('The Beeches');
      expect((await command(h, 'visitor', '/care locations atlantis')).text).toContain('No locations match “atlantis”.');
    });

    it('lists literature with a Share button that posts the name and file link into the channel', async () => {
      const { text } = await command(h, 'sophie', '/care literature respite');
      expect(text).toContain('Respite stays explained');
      expect(text).toContain('[Share in channel]');
      expect(h.fake.messages('#care-team')).toHaveLength(0);

      await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Share in channel' });
      const shared = await h.fake.waitFor(() => h.fake.messages('#care-team').find((m) => m.text.includes('Respite')), { timeoutMs: 10_000 });
      expect(shared.text).toContain('https://files.brightwatercare.example/literature/lit-respite.pdf');
      expect(h.fake.visibleText(shared, { viewer: 'priya' })).toContain('Respite stays explained');
      expect(h.fake.visibleText(shared, { viewer: 'priya' })).toContain('shared by @sophie');
      await h.fake.waitFor(() => h.fake.ephemerals('sophie').some((e) => e.text === 'Shared in the channel.'), { timeoutMs: 10_000 });
    });

    it('asks to be invited when sharing in a channel the app is not in', async () => {
      await command(h, 'sophie', '/care literature fees', { channel: '#random' });
      await h.driver.clickButton('sophie', { ephemeral: true, channel: '#random', text: 'Share in channel' });
      const warning = await h.fake.waitFor(() => h.fake.ephemerals('sophie', { channel: '#random' }).find((e) => e.text.includes('invite me')), {
        timeoutMs: 10_000,
      });
      expect(warning.text).toContain('/invite');
      expect(h.fake.messages('#random')).toHaveLength(0);
    });
  });

  describe('mistakes', () => {
    it('answers a slip of a subcommand with the one meant, and how to make it an action instead', async () => {
      const { text, message } = await command(h, 'sophie', '/care mien');
      expect(text).toContain("I don't know mien: did you mean /care mine? To make a new action of it, type /care new mien.");
      expect(message.blocks?.length).toBe(1);
    });

    it('reads other words as /care new, and says so to someone who must link first', async () => {
      const { text } = await command(h, 'visitor', '/care Call the GP tomorrow');
      expect(text).toContain('Read as /care new: “Call” is not a /care command (/care help lists them).');
      expect(text).toContain('/care link');
    });

    it('logs a person’s own mistake at info: warnings are for operators', async () => {
      const from = h.logs.length;
      expect((await command(h, 'sophie', '/care done 99999')).text).toContain('There is no action #99999');
      expect((await command(h, 'visitor', '/care mine')).text).toContain('/care link');
      const failures = h.logs
        .slice(from)
        .map((l) => JSON.parse(l) as { level: string; msg: string; mistake?: string })
        .filter((e) => e.msg === 'slash command failed');
      expect(failures.map((e) => [e.level, e.mistake])).toEqual([
        ['info', 'not-found'],
        ['info', 'not-linked'],
      ]);
    });

    it('acked every request in time', () => {
      expect(h.fake.ackStats().failures).toBe(0);
    });
  });
});
