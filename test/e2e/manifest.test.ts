import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { CallbackIds } from '../../src/slack/ids.js';

/**
 * manifest.yml must create the app the code expects: a tiny line-based reading
 * (no YAML dependency) of the parts that matter, checked against the code.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const PLACEHOLDER = 'https://example.invalid/slack/events';

interface Line {
  indent: number;
  text: string;
  comment: string;
}

function lines(yaml: string): Line[] {
  return yaml
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .map((l) => {
      const hash = l.search(/\s#\s/);
      const body = hash >= 0 ? l.slice(0, hash) : l;
      return { indent: l.length - l.trimStart().length, text: body.trim(), comment: hash >= 0 ? l.slice(hash).replace(/^\s*#\s*/, '') : '' };
    });
}

/** The lines nested under the key path (e.g. ['oauth_config', 'scopes', 'bot']). */
function section(all: Line[], path: string[]): Line[] {
  let from = 0;
  let to = all.length;
  let indent = -1;
  for (const key of path) {
    const i = all.findIndex((l, j) => j >= from && j < to && l.indent > indent && l.text === `${key}:`);
    if (i < 0) throw new Error(`manifest.yml has no ${path.join('.')}`);
    indent = all[i]!.indent;
    from = i + 1;
    const end = all.findIndex((l, j) => j >= from && l.indent <= indent);
    to = end < 0 ? all.length : end;
  }
  return all.slice(from, to);
}

const value = (ls: Line[], key: string): string | undefined =>
  ls
    .map((l) => l.text.replace(/^- /, ''))
    .find((t) => t.startsWith(`${key}:`))
    ?.slice(key.length + 1)
    .trim()
    .replace(/^"(.*)"$/, '$1');

const listItems = (ls: Line[]) => ls.filter((l) => l.text.startsWith('- ')).map((l) => ({ item: l.text.slice(2).trim(), comment: l.comment }));

async function sourcesUnder(dir: string): Promise<string> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) out.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return out.join('\n');
}

describe('manifest.yml', async () => {
  const yaml = await readFile(join(ROOT, 'manifest.yml'), 'utf8');
  const all = lines(yaml);
  // The listeners, and the tenancy middleware's (app_uninstalled, tokens_revoked) of a deployment serving many workspaces.
  const listeners = (await sourcesUnder(join(ROOT, 'src', 'slack', 'listeners'))) + (await sourcesUnder(join(ROOT, 'src', 'slack', 'tenancy')));

  it('declares the /care command the app listens for, with mentions escaped as <@U…>', () => {
    const commands = section(all, ['features', 'slash_commands']);
    const names = commands.filter((l) => l.text.startsWith('- command:')).map((l) => l.text.slice('- command:'.length).trim());
    const registered = [...listeners.matchAll(/app\.command\(\s*'([^']+)'/g)].map((m) => m[1]);
    expect(names).toEqual(registered);
    expect(names).toEqual(['/care']);
    expect(value(commands, 'should_escape')).toBe('true');
    expect(value(commands, 'url')).toBe(PLACEHOLDER);
    expect((value(commands, 'description') ?? '').length).toBeGreaterThan(0);
  });

  it('declares the message shortcut with the callback id in src/slack/ids.ts', () => {
    const shortcuts = section(all, ['features', 'shortcuts']);
    expect(value(shortcuts, 'callback_id')).toBe(CallbackIds.createFromMessage);
    expect(value(shortcuts, 'name')).toBe('Create care action');
    expect(value(shortcuts, 'type')).toBe('message');
    expect(listeners).toContain('app.shortcut<MessageShortcut>(CallbackIds.createFromMessage');
  });

  it('turns on the Home tab and the messages tab, and subscribes to the events the app handles', () => {
    const home = section(all, ['features', 'app_home']);
    expect(value(home, 'home_tab_enabled')).toBe('true');
    expect(value(home, 'messages_tab_enabled')).toBe('true');
    const events = listItems(section(all, ['settings', 'event_subscriptions', 'bot_events'])).map((e) => e.item);
    const handled = [...listeners.matchAll(/app\.event\(\s*'([^']+)'/g)].map((m) => m[1]);
    expect(events.sort()).toEqual([...new Set(handled)].sort());
    expect(events).toContain('app_home_opened');
    expect(value(section(all, ['settings', 'event_subscriptions']), 'request_url')).toBe(PLACEHOLDER);
  });

  it('turns on interactivity and the options load URL (notification groups are loaded on demand)', () => {
    const interactivity = section(all, ['settings', 'interactivity']);
    expect(value(interactivity, 'is_enabled')).toBe('true');
    expect(value(interactivity, 'request_url')).toBe(PLACEHOLDER);
    expect(value(interactivity, 'message_menu_options_url')).toBe(PLACEHOLDER);
    expect(listeners).toContain("app.options<'block_suggestion'>");
  });

  it('asks for exactly the bot scopes the e2e workspace runs with, each with a reason', () => {
    const required = listItems(section(all, ['oauth_config', 'scopes', 'bot']));
    const optional = listItems(section(all, ['oauth_config', 'scopes', 'bot_optional']));
    // The three history scopes (Slack's enhanced review) are optional: an installer may decline them.
    expect(optional.map((s) => s.item).sort()).toEqual(['channels:history', 'groups:history', 'im:history']);
    expect(required.map((s) => s.item).filter((s) => s.endsWith(':history'))).toEqual([]);
    const scopes = [...required, ...optional];
    for (const s of scopes) expect(s.comment.length, `comment for ${s.item}`).toBeGreaterThan(10);
    expect(scopes.map((s) => s.item).sort()).toEqual([...careWorkspace().bot.scopes].sort());
    for (const needed of ['commands', 'chat:write', 'users:read', 'users:read.email', 'im:write', 'channels:read', 'groups:read']) {
      expect(scopes.map((s) => s.item)).toContain(needed);
    }
    // The app posts only where it was invited: no chat:write.public, no admin or write-everything scopes.
    expect(scopes.map((s) => s.item)).not.toContain('chat:write.public');
  });

  it('is plain YAML a person can paste: no tabs, title within Slack limits', () => {
    expect(yaml).not.toContain('\t');
    const name = value(section(all, ['display_information']), 'name') ?? '';
    expect(name.length).toBeGreaterThan(0);
    expect(name.length).toBeLessThanOrEqual(35);
    expect((value(section(all, ['features', 'shortcuts']), 'description') ?? '').length).toBeLessThanOrEqual(80);
  });
});
