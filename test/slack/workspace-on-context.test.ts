import type { Context } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { SlackDeps } from '../../src/slack/deps.js';
import { depsOf, putDeps, putWorkspace, workspaceOf } from '../../src/slack/workspace-on-context.js';

describe("the workspace on Bolt's context", () => {
  it('is read back as the middleware put it', () => {
    const context = { teamId: 'T0CARE', isEnterpriseInstall: false } as Context;
    putWorkspace(context, 'T0CARE');
    expect(workspaceOf(context)).toBe('T0CARE');
  });

  it('throws a clear error when no middleware put it (never a workspace of "")', () => {
    expect(() => workspaceOf({ teamId: 'T0CARE', isEnterpriseInstall: false } as Context)).toThrow(/No workspace on this Slack request’s context/);
    expect(() => putWorkspace({ isEnterpriseInstall: false } as Context, '')).toThrow(/empty workspace/);
  });

  it('gives each request the deps of its own workspace, as the middleware put them', () => {
    const [one, two] = [{ timezone: 'Europe/London' }, { timezone: 'Europe/Paris' }] as SlackDeps[];
    const [a, b] = [{ isEnterpriseInstall: false } as Context, { isEnterpriseInstall: false } as Context];
    putDeps(a, one!);
    putDeps(b, two!);
    expect(depsOf(a)).toBe(one);
    expect(depsOf(b)).toBe(two);
  });

  it('throws a clear error when no middleware put the deps (never another request’s)', () => {
    expect(() => depsOf({ teamId: 'T0CARE', isEnterpriseInstall: false } as Context)).toThrow(/No workspace deps on this Slack request’s context/);
  });
});
