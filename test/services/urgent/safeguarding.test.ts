import { describe, expect, it } from 'vitest';
import { isSafeguarding, readSafeguarding, safeguardingAudience } from '../../../src/services/urgent/safeguarding.js';
import { parseSafeguarding } from '../../../src/slack/commands/safeguarding-parse.js';
import { parseCommand } from '../../../src/slack/commands/parse.js';

const settings = { tags: ['tag-sg'], groups: [{ id: 'group-sg', name: 'Safeguarding leads' }], officers: ['U0OLIVER'] };

describe('isSafeguarding (pure)', () => {
  it('is true for an action with a named tag or a named notification group, false otherwise', () => {
    expect(isSafeguarding({ user_tags: ['x', 'tag-sg'] }, settings)).toBe(true);
    expect(isSafeguarding({ notify_on_complete: ['group-sg'] }, settings)).toBe(true);
    expect(isSafeguarding({ user_tags: ['x'], notify_on_complete: ['y'] }, settings)).toBe(false);
    expect(isSafeguarding({ user_tags: null, notify_on_complete: null }, settings)).toBe(false);
    expect(isSafeguarding({ user_tags: ['tag-sg'] }, readSafeguarding(null))).toBe(false);
  });

  it('reads what it stored, and nothing from unreadable text', () => {
    expect(readSafeguarding(JSON.stringify(settings))).toEqual(settings);
    expect(readSafeguarding('{not json')).toEqual({ tags: [], groups: [], officers: [] });
  });

  it('tells the officers, or the admins when none are named', () => {
    expect(safeguardingAudience(settings, ['U0AMELIA'])).toEqual(['U0OLIVER']);
    expect(safeguardingAudience({ ...settings, officers: [] }, ['U0AMELIA', 'U0AMELIA'])).toEqual(['U0AMELIA']);
  });
});

describe('/care settings safeguarding (parse)', () => {
  it('reads show, tags, groups, officers and off', () => {
    expect(parseCommand('settings safeguarding')).toEqual({ kind: 'safeguarding', command: { kind: 'show' } });
    expect(parseSafeguarding(['tags', '5f1a0001', '5f1a0002,5f1a0001'])).toEqual({ kind: 'change', change: { kind: 'tags', tags: ['5f1a0001', '5f1a0002'] } });
    expect(parseSafeguarding(['groups', 'Safeguarding', 'leads,', 'Adult', 'team'])).toEqual({
      kind: 'change',
      change: { kind: 'groups', names: ['Safeguarding leads', 'Adult team'] },
    });
    expect(parseSafeguarding(['officers', '<@U0OLIVER|oliver>', '@priya'])).toEqual({
      kind: 'change',
      change: {
        kind: 'officers',
        people: [
          { type: 'id', id: 'U0OLIVER' },
          { type: 'name', name: '@priya' },
        ],
      },
    });
    expect(parseSafeguarding(['officers', 'off'])).toEqual({ kind: 'change', change: { kind: 'officers', people: [] } });
    expect(parseSafeguarding(['off'])).toEqual({ kind: 'change', change: { kind: 'off' } });
  });

  it('answers a wrong word with one sentence', () => {
    expect(parseSafeguarding(['tags'])).toHaveProperty('error');
    expect(parseSafeguarding(['officers', 'oliver'])).toHaveProperty('error');
    expect(parseSafeguarding(['sometimes'])).toHaveProperty('error');
    expect(parseCommand('settings safeguarding sometimes').kind).toBe('error');
    // The other settings words are unchanged.
    expect(parseCommand('settings timezone Europe/London')).toEqual({ kind: 'workspace', command: { kind: 'settings-timezone', timeZone: 'Europe/London' } });
  });
});
