import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/slack/commands/parse.js';

describe('/care evidence', () => {
  it('takes from, to, a location of several words and --with-tasks, in any order', () => {
    expect(parseCommand('evidence')).toEqual({ kind: 'evidence', withTasks: false });
    expect(parseCommand('evidence from 2026-10-01 to 2026-10-31 location Willow House --with-tasks')).toEqual({
      kind: 'evidence',
      from: '2026-10-01',
      to: '2026-10-31',
      location: 'Willow House',
      withTasks: true,
    });
    expect(parseCommand('evidence location Home to Home from 2026-10-01')).toEqual({
      kind: 'evidence',
      from: '2026-10-01',
      location: 'Home to Home',
      withTasks: false,
    });
  });

  it('answers a missing date, a bare date, an unknown flag or word with one sentence and the usage', () => {
    for (const [line, start] of [
      ['evidence from', 'Give a date after `from`'],
      ['evidence 2026-10-01', 'Say which end of the range `2026-10-01` is'],
      ['evidence --tasks', "I don't know `--tasks`"],
      ['evidence everything', 'I did not understand `everything`'],
      ['evidence from 2026-10-01 from 2026-10-02', '`from` is given twice'],
      ['evidence location', 'Name the location'],
    ] as const) {
      const cmd = parseCommand(line);
      expect(cmd.kind, line).toBe('error');
      if (cmd.kind === 'error') {
        expect(cmd.message.startsWith(start), cmd.message).toBe(true);
        expect(cmd.message).toContain('/care evidence [from YYYY-MM-DD]');
      }
    }
  });
});
