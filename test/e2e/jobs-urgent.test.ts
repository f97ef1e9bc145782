import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, startHarness, webAppAction, type Harness } from './harness.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';

describe('urgent alerts', () => {
  let h: Harness;
  const alerts = (channel: string, actionId: string) =>
    h.fake.messages(channel).filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId);
  /** A later second on both clocks, so each edit has its own `modified` time. */
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-team' }); // public: hidden
    await command(h, 'amelia', '/care digest here', { channel: '#general' }); // a plain digest: no live alerts
    await poll(h); // the poll's cursor starts here
  });
  afterAll(async () => h?.close());

  it('posts a new urgent action made in the web app to every urgent-only channel, once, on the next poll', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Urgent: follow up the fall in room 3', due: new Date('2027-06-15T15:00:00Z'), urgent: true });
    await poll(h);
    expect(alerts('#care-leads', a._id)).toHaveLength(1);
    expect(alerts('#care-team', a._id)).toHaveLength(1);
    expect(h.fake.messages('#general')).toEqual([]);
    const shown = h.fake.visibleText(alerts('#care-leads', a._id)[0]!, { viewer: 'amelia' });
    expect(shown).toContain(`Urgent action #${a.action_no}`);
    expect(shown).toContain('Urgent: follow up the fall in room 3');
    const hidden = h.fake.visibleText(alerts('#care-team', a._id)[0]!, { viewer: 'amelia' });
    expect(hidden).toContain(`Urgent action #${a.action_no}`);
    expect(hidden).not.toContain('room 3');
    // Later polls read it again (overlap window): no second alert, and one API request each.
    expect((await poll(h)).requests).toBe(1);
    await later();
    await poll(h);
    expect(alerts('#care-leads', a._id)).toHaveLength(1);
    expect(alerts('#care-team', a._id)).toHaveLength(1);
  });

  it('alerts once when an existing action is edited to urgent, and again each time it becomes urgent anew', async () => {
    await later();
    const b = await webAppAction(h, { task: 'Replace the bed sensor', due: new Date('2027-06-16T10:00:00Z') });
    await poll(h);
    expect(alerts('#care-leads', b._id)).toHaveLength(0);

    await later();
    await h.control(`actions/${b._id}`, { urgent: true }, 'PATCH');
    await poll(h);
    await poll(h);
    expect(alerts('#care-leads', b._id)).toHaveLength(1);

    // Another edit while it stays urgent is the same episode.
    await later();
    await h.control(`actions/${b._id}`, { task: 'Replace the bed sensor today' }, 'PATCH');
    await poll(h);
    expect(alerts('#care-leads', b._id)).toHaveLength(1);

    await later();
    await h.control(`actions/${b._id}`, { urgent: false }, 'PATCH');
    await poll(h);
    expect(alerts('#care-leads', b._id)).toHaveLength(1);

    await later();
    await h.control(`actions/${b._id}`, { urgent: true }, 'PATCH');
    await poll(h);
    await poll(h);
    expect(alerts('#care-leads', b._id)).toHaveLength(2);
    expect(alerts('#care-team', b._id)).toHaveLength(2);
  });

  it('does not alert for an urgent action that is already complete', async () => {
    await later();
    const c = await webAppAction(h, { task: 'Urgent but done', due: new Date('2027-06-15T16:00:00Z'), urgent: true });
    await h.control(`actions/${c._id}/complete`, {});
    await poll(h);
    expect(alerts('#care-leads', c._id)).toHaveLength(0);
  });

  it('stops alerting a channel whose digest was turned off', async () => {
    await command(h, 'amelia', '/care digest off', { channel: '#care-team' });
    await later();
    const d = await webAppAction(h, { task: 'Urgent: boiler', due: new Date('2027-06-15T17:00:00Z'), urgent: true });
    await poll(h);
    expect(alerts('#care-leads', d._id)).toHaveLength(1);
    expect(alerts('#care-team', d._id)).toHaveLength(0);
  });
});
