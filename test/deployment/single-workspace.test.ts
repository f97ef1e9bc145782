/**
 * A deployment of one workspace learns its Slack team once (deployment/single-workspace.ts): asked of Slack
 * (or SLACK_TEAM_ID) at the first start and bound in the database; every later start reads it without
 * asking Slack, so its jobs run whether or not Slack answers then. On the real store (SQLite).
 */
import { describe, expect, it } from 'vitest';
import { singleWorkspaceTeam, TeamUnknownError } from '../../src/deployment/single-workspace.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { isStoreError } from '../../src/store/index.js';
import { sqliteHarness } from '../store/harness.js';

const h = sqliteHarness();
const TOKEN = 'xoxb-never-in-a-message';

/** An auth.test that answers `team` (or fails with `error`), counting its calls. */
function slack(answer: { team?: string; error?: string }) {
  const calls = { n: 0 };
  const ask = async () => {
    calls.n++;
    if (answer.error) throw Object.assign(new Error(`An API error occurred: ${answer.error} (${TOKEN})`), { data: { error: answer.error } });
    return { team_id: answer.team };
  };
  return { ask, calls };
}

describe('the team of a deployment of one workspace', () => {
  it('is asked of Slack at the first start and bound; a later start reads it without asking, though Slack does not answer', async () => {
    const { store } = await h.fresh();
    const first = slack({ team: 'T0CARE' });
    const logger = memoryLogger('info');
    expect(await singleWorkspaceTeam({ store, ask: first.ask, logger })).toBe('T0CARE');
    expect(first.calls.n).toBe(1);
    expect(logger.lines.join('\n')).toContain('its id is bound in the database');

    const down = slack({ error: 'service_unavailable' });
    expect(await singleWorkspaceTeam({ store, ask: down.ask, logger })).toBe('T0CARE');
    expect(down.calls.n).toBe(0);
  });

  it('SLACK_TEAM_ID spares the first start the question; naming another team than the database’s is refused', async () => {
    const { store } = await h.fresh();
    const never = slack({ error: 'not_asked' });
    expect(await singleWorkspaceTeam({ store, configured: 'T0CARE', ask: never.ask, logger: memoryLogger() })).toBe('T0CARE');
    expect(never.calls.n).toBe(0);
    expect(await singleWorkspaceTeam({ store, configured: 'T0CARE', ask: never.ask, logger: memoryLogger() })).toBe('T0CARE');

    const refused = await singleWorkspaceTeam({ store, configured: 'T0SUN', ask: never.ask, logger: memoryLogger() }).catch((e: unknown) => e);
    expect(isStoreError(refused, 'bad-config')).toBe(true);
    expect((refused as Error).message).toMatch(/This database is Slack workspace T0CARE's, but .* is workspace T0SUN's/);
    expect((await store.singleWorkspace())?.teamId).toBe('T0CARE');
  });

  it('a first start Slack does not answer does not start, and says what to do (never with the token)', async () => {
    const { store } = await h.fresh();
    const down = slack({ error: 'service_unavailable' });
    const failed = await singleWorkspaceTeam({ store, ask: down.ask, logger: memoryLogger() }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TeamUnknownError);
    expect((failed as Error).message).toBe(
      "Cannot learn which Slack workspace SLACK_BOT_TOKEN is for: Slack's auth.test failed (service_unavailable). Start again once Slack answers, or set SLACK_TEAM_ID.",
    );
    expect((failed as Error).message).not.toContain(TOKEN);
    expect(await store.singleWorkspace()).toBeNull();
    // Once Slack answers, the next start binds it.
    expect(await singleWorkspaceTeam({ store, ask: slack({ team: 'T0CARE' }).ask, logger: memoryLogger() })).toBe('T0CARE');
  });
});
