import type { Context } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { putWorkspace, workspaceOf } from '../../src/slack/workspace-on-context.js';

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
});
