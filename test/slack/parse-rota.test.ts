import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/slack/commands/parse.js';

describe('/care reassign parsing', () => {
  it('reads who loses the work, who gets it and which of it (all by default)', () => {
    expect(parseCommand('reassign <@U0AMELIA|amelia> to <@U0BEN|ben>')).toEqual({
      kind: 'reassign',
      from: { type: 'slack', id: 'U0AMELIA' },
      to: { type: 'slack', id: 'U0BEN' },
      scope: 'all',
    });
    expect(parseCommand('reassign @amelia to @ben today')).toEqual({
      kind: 'reassign',
      from: { type: 'name', name: '@amelia' },
      to: { type: 'name', name: '@ben' },
      scope: 'today',
    });
    expect(parseCommand('Reassign Amelia Hughes TO Ben Whitaker OVERDUE')).toEqual({
      kind: 'reassign',
      from: { type: 'name', name: 'Amelia Hughes' },
      to: { type: 'name', name: 'Ben Whitaker' },
      scope: 'overdue',
    });
    expect(parseCommand(`reassign <@U0SOPHIE> to ${'A'.repeat(2)}${'b'.repeat(22)} all`)).toEqual({
      kind: 'reassign',
      from: { type: 'slack', id: 'U0SOPHIE' },
      to: { type: 'care', id: `aa${'b'.repeat(22)}` },
      scope: 'all',
    });
  });

  it('answers a wrong form with one sentence saying what to type', () => {
    const no = (line: string) => {
      const cmd = parseCommand(line);
      expect(cmd.kind).toBe('error');
      return cmd.kind === 'error' ? cmd.message : '';
    };
    expect(no('reassign')).toContain('with “to” between');
    expect(no('reassign @amelia @ben')).toContain('with “to” between');
    expect(no('reassign to @ben')).toContain('Name the person whose work moves');
    expect(no('reassign @amelia to')).toContain('Name the person to move it to');
    expect(no('reassign @amelia to today')).toContain('Name the person to move it to');
    expect(no('reassign @amelia to <#C0CARE|care-team>')).toContain('/care reassign @person to @other [overdue|today|all]');
    // A slip of the word is asked about, not made a task.
    expect(no('reasign')).toContain('did you mean `/care reassign`');
  });

  it('reads mine and due narrowed to a location or a resident', () => {
    expect(parseCommand('mine location Rose House')).toEqual({ kind: 'mine', where: { type: 'location', name: 'Rose House' } });
    expect(parseCommand('mine resident 0123456789abcdef01234567')).toEqual({ kind: 'mine', where: { type: 'resident', ref: '0123456789abcdef01234567' } });
    expect(parseCommand('due today location Rose House')).toEqual({ kind: 'due', window: 'today', where: { type: 'location', name: 'Rose House' } });
    expect(parseCommand('due week <@U123|sam> Location Willow Court')).toEqual({
      kind: 'due',
      window: 'week',
      slackUserId: 'U123',
      where: { type: 'location', name: 'Willow Court' },
    });
    expect(parseCommand('due @Priya Sharma resident 0123456789abcdef01234567')).toEqual({
      kind: 'due',
      window: 'today',
      personName: '@Priya Sharma',
      where: { type: 'resident', ref: '0123456789abcdef01234567' },
    });
    expect(parseCommand('mine')).toEqual({ kind: 'mine' });
  });

  it('says what to type when the location or resident is missing or the words are not known', () => {
    const said = (line: string) => {
      const cmd = parseCommand(line);
      return cmd.kind === 'error' ? cmd.message : `not an error: ${cmd.kind}`;
    };
    expect(said('mine location')).toContain('Name the location after `location`');
    expect(said('mine resident')).toContain('Give the resident’s Id');
    expect(said('mine today')).toContain('`/care mine` takes only `location <name>` or `resident <Id>`');
    expect(said('due today location')).toContain('`/care due today location Rose House`');
  });
});
