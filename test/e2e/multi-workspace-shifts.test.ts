import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careCommand, installBoth, type MultiHarness, startMultiHarness } from './multi-harness.js';

/** Many workspaces: each care home has its own shifts, set by its own admins, seen by its own people. */
describe('/care shifts with many workspaces', () => {
  let h: MultiHarness;
  beforeAll(async () => {
    h = await startMultiHarness();
    await installBoth(h);
  });
  afterAll(async () => h?.close());

  it('an admin of one home sets its shifts; the other home keeps the default; a non-admin is told who can', async () => {
    expect(await careCommand(h, 'T0CARE', 'sophie', 'shifts Early 07:00-15:00, Late 15:00-23:00, Night 23:00-07:00')).toMatch(
      /Only Care Actions admins can change the shifts: @amelia and the Slack workspace's admins and owners\./,
    );
    expect(await careCommand(h, 'T0CARE', 'amelia', 'shifts Early 07:00-15:00, Late 15:00-23:00, Night 23:00-07:00')).toContain(
      'Shifts set: Early 07:00–15:00, Late 15:00–23:00, Night 23:00–07:00, every day',
    );
    expect(await careCommand(h, 'T0CARE', 'sophie', 'shifts')).toContain('Early 07:00–15:00, Late 15:00–23:00, Night 23:00–07:00.');
    expect(await careCommand(h, 'T0SUN', 'erin', 'shifts')).toContain('Day 07:00–19:00, Night 19:00–07:00 (the default)');
    expect(await careCommand(h, 'T0SUN', 'erin', 'shifts default')).toContain('Shifts set: Day 07:00–19:00, Night 19:00–07:00 (the default)');
    expect(await careCommand(h, 'T0CARE', 'amelia', 'shifts')).toContain('Early 07:00–15:00');
  });
});
