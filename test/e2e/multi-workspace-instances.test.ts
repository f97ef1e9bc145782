import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careCommand, installBoth, type MultiHarness, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';

if (!TEST_DATABASE_URL) {
  describe('two instances serving two workspaces on PostgreSQL', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;
  const opened: MultiHarness[] = [];
  afterEach(async () => {
    for (const h of opened.reverse()) await h.close();
    opened.length = 0;
  });

  describe('two instances serving two workspaces on PostgreSQL', () => {
    it('share every job tick (each workspace once across both) and each answers either workspace', async () => {
      const schema = await createTestSchema(pgUrl, 'multi_instances');
      const databaseUrl = urlWithSchema(pgUrl, schema.name);
      try {
        const one = await startMultiHarness({ databaseUrl });
        opened.push(one);
        const two = await startMultiHarness({ beside: one, databaseUrl, keyRing: one.keyRing });
        opened.push(two);
        await installBoth(one);
        // The second instance learns of both from the database, with nothing configured.
        expect((await two.app.registry.connected()).sort()).toEqual([CARE, SUN]);

        for (let slot = 1; slot <= 3; slot++) {
          const [a, b] = await Promise.all([one.app.jobs.tick('changes-poll', { slot }), two.app.jobs.tick('changes-poll', { slot })]);
          expect(a.ran + b.ran).toBe(2);
          expect(a.failed + b.failed).toBe(0);
        }

        for (const [teamId, user] of [
          [CARE, 'amelia'],
          [SUN, 'erin'],
        ] as const)
          expect(await careCommand(two, teamId, user, 'whoami')).not.toMatch(/not connected/);
      } finally {
        for (const h of opened.reverse()) await h.close();
        opened.length = 0;
        await schema.drop();
      }
    });
  });
}
