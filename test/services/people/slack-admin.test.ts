import { describe, expect, it } from 'vitest';
import { isMemberOf, isSlackAdminOf } from '../../../src/services/people/slack-admin.js';

const HERE = 'T0CARE';
const admin = { team_id: HERE, is_admin: true, is_owner: false, is_restricted: false, is_ultra_restricted: false };

describe('who Slack says administers a workspace', () => {
  it("counts this workspace's own admins and owners", () => {
    expect(isSlackAdminOf(admin, HERE)).toBe(true);
    expect(isSlackAdminOf({ team_id: HERE, is_owner: true }, HERE)).toBe(true);
    expect(isSlackAdminOf({ team_id: HERE, is_primary_owner: true }, HERE)).toBe(true);
    expect(isSlackAdminOf({ team_id: HERE }, HERE)).toBe(false);
  });

  it("does not count a Slack Connect user's admin rights in their own organisation", () => {
    expect(isSlackAdminOf({ ...admin, team_id: 'T0ELSEWHERE', is_owner: true }, HERE)).toBe(false);
    expect(isMemberOf({ team_id: 'T0ELSEWHERE' }, HERE)).toBe(false);
  });

  it('does not count a guest, a deactivated account or a bot, whatever their flags say', () => {
    expect(isSlackAdminOf({ ...admin, is_restricted: true }, HERE)).toBe(false);
    expect(isSlackAdminOf({ ...admin, is_ultra_restricted: true }, HERE)).toBe(false);
    expect(isSlackAdminOf({ ...admin, deleted: true }, HERE)).toBe(false);
    expect(isSlackAdminOf({ ...admin, is_bot: true }, HERE)).toBe(false);
  });

  it("an Enterprise Grid member counts in the org's workspaces they are in, as that workspace's admin or not", () => {
    const org = 'E0GROUP';
    // A workspace of the org, installed on its own: that workspace's admins.
    expect(isSlackAdminOf({ team_id: org, is_admin: true, enterprise_user: { enterprise_id: org, teams: ['T0ONE', 'T0TWO'] } }, 'T0TWO')).toBe(true);
    // The org's own admin flag makes nobody an admin of a workspace (org-wide installs are refused).
    expect(isSlackAdminOf({ team_id: 'T0ONE', enterprise_user: { enterprise_id: org, teams: ['T0ONE'], is_admin: true } }, 'T0ONE')).toBe(false);
    expect(isSlackAdminOf({ team_id: org, is_admin: true, enterprise_user: { enterprise_id: org, teams: ['T0ONE'] } }, 'T0TWO')).toBe(false);
  });
});
