import type { Context } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { foreignTeamOf } from '../../src/slack/tenancy/request-workspace.js';
import { authorizedWorkspace as workspaceOf } from '../../src/slack/workspace-on-context.js';

/** Bolt's context as its authorize leaves it for an installation of Brightwater Care (T0CARE). */
const care = { teamId: 'T0CARE', isEnterpriseInstall: false } as Context;
const org = { teamId: 'T0ONE', enterpriseId: 'E0GROUP', isEnterpriseInstall: true } as Context;

describe('which workspace a request acts in, and whether its person is of it', () => {
  it('acts in the installation Bolt authorised: the team, or the org for an org-wide install', () => {
    expect(workspaceOf(care)).toBe('T0CARE');
    expect(workspaceOf(org)).toBe('E0GROUP');
  });

  it('lets through every kind of payload whose person is of that workspace', () => {
    const user = { id: 'U0AMELIA', team_id: 'T0CARE' };
    const team = { id: 'T0CARE' };
    expect(foreignTeamOf(care, { type: 'view_submission', user, team, view: { app_installed_team_id: 'T0CARE' } })).toBeUndefined();
    expect(foreignTeamOf(care, { type: 'block_actions', user, team })).toBeUndefined();
    expect(foreignTeamOf(care, { type: 'shortcut', user, team })).toBeUndefined();
    expect(foreignTeamOf(care, { type: 'block_suggestion', user, team })).toBeUndefined();
    expect(foreignTeamOf(care, { command: '/care', team_id: 'T0CARE', user_id: 'U0AMELIA' })).toBeUndefined();
    expect(foreignTeamOf(care, { type: 'event_callback', event: { type: 'app_home_opened', user: 'U0AMELIA' } })).toBeUndefined();
  });

  it('refuses a view submission through this installation by a person of another workspace (Slack Connect)', () => {
    const body = { type: 'view_submission', user: { id: 'U0ERIN', team_id: 'T0SUN' }, team: { id: 'T0SUN' }, view: { app_installed_team_id: 'T0CARE' } };
    expect(foreignTeamOf(care, body)).toBe('T0SUN');
  });

  it("refuses a click, a shortcut or a search whose person or team is another workspace's, and an event from another workspace's person", () => {
    expect(foreignTeamOf(care, { type: 'block_actions', user: { id: 'U0ERIN', team_id: 'T0SUN' }, team: { id: 'T0CARE' } })).toBe('T0SUN');
    expect(foreignTeamOf(care, { type: 'shortcut', user: { id: 'U0ERIN' }, team: { id: 'T0SUN' } })).toBe('T0SUN');
    expect(foreignTeamOf(care, { type: 'block_suggestion', user: { id: 'U0ERIN', team_id: 'T0SUN' }, team: { id: 'T0SUN' } })).toBe('T0SUN');
    expect(foreignTeamOf(care, { type: 'event_callback', event: { type: 'message', user: 'U0ERIN', user_team: 'T0SUN' } })).toBe('T0SUN');
  });

  it('for an org-wide install checks the org only (its workspaces are not named in the payload)', () => {
    expect(foreignTeamOf(org, { type: 'block_actions', user: { id: 'W1', team_id: 'T0TWO' }, team: null, enterprise: { id: 'E0GROUP' } })).toBeUndefined();
    expect(foreignTeamOf(org, { type: 'block_actions', user: { id: 'W2', team_id: 'T0X' }, team: null, enterprise: { id: 'E0OTHER' } })).toBe('E0OTHER');
  });
});
