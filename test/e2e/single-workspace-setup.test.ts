import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, startHarness, type Harness } from './harness.js';

/** One workspace: `/care admins|settings|connect` are in the one `/care` table, answered from the deployment's configuration. */
describe('set-up commands in a single-workspace deployment', () => {
  let h: Harness;
  beforeAll(async () => {
    // Priya is named in ADMIN_SLACK_USER_IDS; Amelia is a Slack admin and owner; Sophie is neither.
    h = await startHarness({ adminSlackUserIds: ['U0PRIYA'] });
  });
  afterAll(async () => h?.close());

  it('/care admins lists the configured admins and the Slack admins, to anyone', async () => {
    const text = (await command(h, 'sophie', '/care admins')).text;
    expect(text).not.toContain("I don't know");
    expect(text).toContain('Care Actions admins here');
    expect(text).toMatch(/@priya.*ADMIN_SLACK_USER_IDS/);
    expect(text).toContain('every Slack workspace admin and owner');
  });

  it('/care settings timezone answers that the time zone is the configuration’s (APP_TIMEZONE) and changes nothing', async () => {
    const text = (await command(h, 'priya', '/care settings timezone America/New_York')).text;
    expect(text).toContain('APP_TIMEZONE');
    expect(text).toContain('Nothing was changed');
    expect(await h.app.store.getWorkspaceSettings(h.fake.teamId)).toBeNull();
    const settings = (await command(h, 'priya', '/care settings')).text;
    expect(settings).toContain('Europe/London');
    expect(settings).not.toContain('America/New_York');
    expect(settings).toContain('CARE_WEB_URL');
  });

  it('names the configuration for adding admins, changing the web link and connecting', async () => {
    expect((await command(h, 'amelia', '/care admins add <@U0SOPHIE>')).text).toContain('ADMIN_SLACK_USER_IDS');
    expect((await command(h, 'amelia', '/care settings web-link off')).text).toContain('CARE_WEB_URL');
    const connect = (await command(h, 'amelia', '/care connect')).text;
    expect(connect).toContain('CARE_API_KEY');
    expect(connect).toContain('CARE_API_SECRET');
    expect(await h.app.store.getWorkspaceSettings(h.fake.teamId)).toBeNull();
    expect((await command(h, 'sophie', '/care admins')).text).not.toContain('@sophie');
  });

  it('help shows the admin and set-up commands to admins by either rule (configured or Slack admin), not to others', async () => {
    for (const admin of ['priya', 'amelia']) {
      const text = (await command(h, admin, '/care help')).text;
      expect(text, admin).toContain('Admin');
      expect(text, admin).toContain('/care digest here');
      expect(text, admin).toContain('/care settings');
      expect(text, admin).toContain('APP_TIMEZONE');
    }
    const other = (await command(h, 'sophie', '/care help')).text;
    expect(other).not.toContain('Admin');
    expect(other).not.toContain('/care digest here');
    expect(other).not.toContain('/care settings');
    expect(other).toContain('/care admins');
  });
});
