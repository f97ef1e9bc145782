/**
 * An org-wide (Enterprise Grid) install is refused at install: through the real OAuth flow (the app's install
 * page, Slack's authorize page, the redirect back), Slack answers the exchange as an org-wide install and the
 * person is shown a page telling them to install the app per workspace. Nothing is stored, nothing is posted,
 * and Slack's grant is given back. Installing in the workspace itself then works.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ORG_WIDE_REFUSED } from '../../src/slack/install/oauth-settings.js';
import { type MultiHarness, startMultiHarness } from './multi-harness.js';

let h: MultiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SUN = 'T0SUN';
const GRID = { id: 'E0GRID', name: 'Sunrise Group' };

describe('an org-wide (Enterprise Grid) install', () => {
  it('is refused with a page saying to install per workspace: no installation row, nothing posted, the grant given back', async () => {
    h = await startMultiHarness();
    const sun = h.fake.workspace(SUN);
    sun.setOrgWideInstall({ enterprise: GRID });

    const refused = await h.install(SUN, 'erin');
    // Slack did answer the exchange as an org-wide install (the refusal is the app's, after it).
    const [exchange] = h.fake.calls('oauth.v2.access');
    expect(exchange?.result).toMatchObject({ ok: true, is_enterprise_install: true, team: null, enterprise: GRID });

    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Care Actions was not installed');
    expect(refused.body).toContain('Install it in each workspace that uses it instead');
    expect(refused.body).not.toContain('Installed in');
    expect(ORG_WIDE_REFUSED).toMatch(/\/slack\/install/);

    expect(await h.app.store.getInstallation({ isEnterpriseInstall: true, enterpriseId: GRID.id })).toBeNull();
    expect(await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN })).toBeNull();
    const posted = sun.calls().filter((c) => /^(chat\.|views\.|conversations\.open)/.test(c.method));
    expect(posted).toEqual([]);
    expect(sun.dms('erin')).toEqual([]);
    // The token Slack issued for the org no longer works.
    expect(sun.calls('auth.revoke')).toHaveLength(1);
    expect(sun.botToken).toBe('');
    expect(h.logs.some((l) => l.includes('refused an org-wide (Enterprise Grid) install'))).toBe(true);

    // As the page says: installed in the workspace itself, it works.
    sun.setOrgWideInstall(null);
    const installed = await h.install(SUN, 'erin');
    expect(installed.status).toBe(200);
    expect(installed.body).toContain('Installed in');
    expect((await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN }))?.bot?.token).toBe(sun.botToken);
  });
});
