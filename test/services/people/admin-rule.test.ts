import { describe, expect, it } from 'vitest';
import { adminReasonBy, namedAdminReason, namedAdmins } from '../../../src/services/people/admin-rule.js';
import type { SlackUserFlags } from '../../../src/services/people/slack-admin.js';

const T = 'T0CARE';
const member = (flags: Partial<SlackUserFlags> = {}): SlackUserFlags => ({ team_id: T, ...flags });

describe('the one admin rule', () => {
  it('names the ids the deployment gives: ADMIN_SLACK_USER_IDS in one workspace, the installer and those added in many', () => {
    expect(namedAdminReason('U1', { configured: ['U1'] })).toBe('configured');
    expect(namedAdminReason('U2', { installer: 'U2', added: ['U3'] })).toBe('installer');
    expect(namedAdminReason('U3', { installer: 'U2', added: ['U3'] })).toBe('added');
    expect(namedAdminReason('U4', { configured: ['U1'], installer: 'U2', added: ['U3'] })).toBeNull();
    expect(namedAdminReason('U1', { installer: null })).toBeNull();
    expect(namedAdmins({ installer: 'U2', added: ['U3', 'U2', 'U3'] })).toEqual([
      { userId: 'U2', reason: 'installer' },
      { userId: 'U3', reason: 'added' },
    ]);
  });

  it("asks Slack only about someone not named, and takes this workspace's admins and owners", async () => {
    let asked = 0;
    const slack = (flags: SlackUserFlags | null) => async () => {
      asked++;
      return flags;
    };
    expect(await adminReasonBy('U1', T, { configured: ['U1'] }, slack(member()))).toBe('configured');
    expect(asked).toBe(0);
    expect(await adminReasonBy('U5', T, { configured: ['U1'] }, slack(member({ is_admin: true })))).toBe('slack-admin');
    expect(await adminReasonBy('U5', T, {}, slack(member({ is_owner: true })))).toBe('slack-admin');
    expect(await adminReasonBy('U5', T, {}, slack(member({ is_primary_owner: true })))).toBe('slack-admin');
    expect(await adminReasonBy('U5', T, {}, slack(member()))).toBeNull();
    expect(asked).toBe(4);
  });

  it('never takes a guest, a Slack Connect admin of another organisation, a missing answer or a failing Slack for an admin', async () => {
    expect(await adminReasonBy('U5', T, {}, async () => member({ is_admin: true, is_restricted: true }))).toBeNull();
    expect(await adminReasonBy('U5', T, {}, async () => member({ is_owner: true, is_ultra_restricted: true }))).toBeNull();
    expect(await adminReasonBy('U5', T, {}, async () => ({ team_id: 'T0OTHER', is_admin: true, is_owner: true }))).toBeNull();
    expect(await adminReasonBy('U5', T, {}, async () => null)).toBeNull();
    expect(
      await adminReasonBy('U5', T, {}, async () => {
        throw new Error('ratelimited');
      }),
    ).toBeNull();
  });
});
