import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, type Harness, startHarness, webAppAction } from './harness.js';

/**
 * An urgent alert says Overdue, as digests and cards do, when the action's due
 * time has passed. Clock: Tuesday 15 June 2027, 10:00 in London.
 */
describe('an urgent alert about an overdue action', () => {
  let h: Harness;
  const alertsFor = (actionId: string) => h.fake.messages('#care-leads').filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId);
  /** A later second on both clocks, so each edit has its own `modified` time. */
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('is marked Overdue; one not yet due is not', async () => {
    const hourAgo = new Date(h.now().getTime() - 3600_000);
    const inAnHour = new Date(h.now().getTime() + 3600_000);
    const overdue = await webAppAction(h, { task: 'Check the pressure mattress in room 5', due: hourAgo });
    const notYet = await webAppAction(h, { task: 'Ring the district nurse', due: inAnHour });
    await later();
    await poll(h);
    // Made urgent in the care system: a real change, so each gets an alert.
    await later();
    for (const a of [overdue, notYet]) await h.control(`actions/${a._id}`, { urgent: true }, 'PATCH');
    await poll(h);
    const [late] = alertsFor(overdue._id);
    const [onTime] = alertsFor(notYet._id);
    expect(h.fake.visibleText(late!, { viewer: 'amelia' })).toMatch(new RegExp(`Urgent action #${overdue.action_no} · :warning: Overdue · due `));
    expect(h.fake.visibleText(onTime!, { viewer: 'amelia' })).toContain(`Urgent action #${notYet.action_no} · due `);
    expect(h.fake.visibleText(onTime!, { viewer: 'amelia' })).not.toContain('Overdue');
  });
});
