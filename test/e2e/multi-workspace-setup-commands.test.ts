import { afterEach, describe, expect, it } from 'vitest';
import { careCommand, type MultiHarness, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const opened: MultiHarness[] = [];
afterEach(async () => {
  for (const h of opened.reverse()) await h.close();
  opened.length = 0;
});

/** Many workspaces: the set-up commands answer before a care account is connected (the tenancy middleware) and after (the `/care` table), the same way. */
describe('set-up commands in a many-workspace deployment', () => {
  it('answer a workspace not yet connected, then the same once it is; help shows admins the set-up commands and others not', async () => {
    const h = await startMultiHarness();
    opened.push(h);
    expect((await h.install(CARE, 'amelia')).status).toBe(200);

    // Not connected: the set-up commands still work; everything else says what an admin must do.
    expect(await careCommand(h, CARE, 'amelia', 'admins')).toMatch(/@amelia.*first installed Care Actions/s);
    expect(await careCommand(h, CARE, 'amelia', 'settings')).toContain('(the default)');
    expect(await careCommand(h, CARE, 'sophie', 'settings timezone America/New_York')).toMatch(/Only this workspace's Care Actions admins/);
    expect(await careCommand(h, CARE, 'sophie', 'help')).toMatch(/not connected to your care system yet/);

    await h.connectDirectly(CARE, 1, h.fake.workspace(CARE).user('amelia')!.id);
    // Connected: the `/care` table answers them with the same words.
    expect(await careCommand(h, CARE, 'amelia', 'admins')).toMatch(/@amelia.*first installed Care Actions/s);
    expect(await careCommand(h, CARE, 'sophie', 'settings timezone America/New_York')).toMatch(/Only this workspace's Care Actions admins/);
    expect(await careCommand(h, CARE, 'amelia', 'connect')).toContain('Home');

    const adminHelp = await careCommand(h, CARE, 'amelia', 'help');
    expect(adminHelp).toContain('/care admins add');
    expect(adminHelp).toContain('/care settings timezone');
    expect(adminHelp).not.toContain('APP_TIMEZONE');
    const otherHelp = await careCommand(h, CARE, 'sophie', 'help');
    expect(otherHelp).not.toContain('/care admins add');
    expect(otherHelp).not.toContain('/care settings');
    expect(otherHelp).toContain('/care admins');
  });
});
