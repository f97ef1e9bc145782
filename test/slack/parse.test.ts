import { describe, expect, it } from 'vitest';
import { COMMAND_WORDS, parseCommand } from '../../src/slack/commands/parse.js';

describe('/care command parsing', () => {
  it('reads every subcommand a person types', () => {
    expect(parseCommand('')).toEqual({ kind: 'help' });
    expect(parseCommand('  HELP ')).toEqual({ kind: 'help' });
    expect(parseCommand('new Call the GP about Mrs B')).toEqual({ kind: 'new', task: 'Call the GP about Mrs B' });
    expect(parseCommand('mine')).toEqual({ kind: 'mine' });
    expect(parseCommand('due')).toEqual({ kind: 'due', window: 'today' });
    expect(parseCommand('due week <@U123|sam>')).toEqual({ kind: 'due', window: 'week', slackUserId: 'U123' });
    expect(parseCommand('show 1042')).toEqual({ kind: 'show', ref: { type: 'no', no: '1042' } });
    expect(parseCommand('done #1042')).toEqual({ kind: 'done', ref: { type: 'no', no: '1042' } });
    expect(parseCommand('reopen 6724FBCB4F73A2CEBF638856')).toEqual({ kind: 'reopen', ref: { type: 'id', id: '6724fbcb4f73a2cebf638856' } });
    expect(parseCommand('find   bed rails')).toEqual({ kind: 'find', words: 'bed rails' });
    expect(parseCommand('locations oak')).toEqual({ kind: 'locations', words: 'oak' });
    expect(parseCommand('literature')).toEqual({ kind: 'literature', words: '' });
    expect(parseCommand('link')).toEqual({ kind: 'link' });
    expect(parseCommand('link <@U9> 6724fbc74f73a2cebf637806')).toEqual({
      kind: 'link',
      target: { slackUserId: 'U9', careUserId: '6724fbc74f73a2cebf637806' },
    });
    expect(parseCommand('unlink')).toEqual({ kind: 'unlink' });
    expect(parseCommand('whoami')).toEqual({ kind: 'whoami' });
    expect(parseCommand('links')).toEqual({ kind: 'links' });
  });

  it('reads a person’s morning summary setting, with the times people type', () => {
    expect(parseCommand('summary')).toEqual({ kind: 'summary-show' });
    expect(parseCommand('summary OFF')).toEqual({ kind: 'summary-off' });
    expect(parseCommand('summary on')).toEqual({ kind: 'summary-set' });
    expect(parseCommand('summary 07:30')).toEqual({ kind: 'summary-set', time: '07:30' });
    expect(parseCommand('summary 7:30 daily')).toEqual({ kind: 'summary-set', time: '07:30', days: 'daily' });
    expect(parseCommand('summary weekdays')).toEqual({ kind: 'summary-set', days: 'weekdays' });
    expect(parseCommand('summary 7am')).toEqual({ kind: 'summary-set', time: '07:00' });
    expect(parseCommand('summary 7 am weekdays')).toEqual({ kind: 'summary-set', time: '07:00', days: 'weekdays' });
    expect(parseCommand('summary 6:45pm')).toEqual({ kind: 'summary-set', time: '18:45' });
    expect(parseCommand('summary 12am')).toEqual({ kind: 'summary-set', time: '00:00' });
    expect(parseCommand('summary 12pm')).toEqual({ kind: 'summary-set', time: '12:00' });
    expect(parseCommand('summary 23:59')).toEqual({ kind: 'summary-set', time: '23:59' });
    for (const bad of ['summary 7', 'summary 24:00', 'summary 13pm', 'summary 7:60', 'summary weekends', 'summary 07:30 08:00', 'summary off now']) {
      expect(parseCommand(bad), bad).toMatchObject({ kind: 'error', message: expect.stringContaining('/care summary [HH:MM|shift-start') });
    }
  });

  it('reads digest and route configuration', () => {
    // A care home works every day: a digest is every day unless weekdays are asked for.
    expect(parseCommand('digest here')).toMatchObject({ kind: 'digest-here', time: '08:00', days: 'daily', filter: { type: 'all' }, showTasks: false });
    expect(parseCommand('digest here 7:30 weekdays')).toMatchObject({ time: '07:30', days: 'weekdays' });
    expect(parseCommand('digest here 7:30 daily urgent-only --show-tasks')).toMatchObject({
      time: '07:30',
      days: 'daily',
      filter: { type: 'urgent-only' },
      showTasks: true,
    });
    expect(parseCommand('digest here <@U1> <@U2>')).toMatchObject({
      filter: {
        type: 'users',
        people: [
          { type: 'id', id: 'U1' },
          { type: 'id', id: 'U2' },
        ],
      },
    });
    expect(parseCommand('digest here location Oak Lodge --show-tasks')).toMatchObject({ filter: { type: 'location', name: 'Oak Lodge' }, showTasks: true });
    expect(parseCommand('digest off')).toEqual({ kind: 'digest-off' });
    expect(parseCommand('route Night staff <#C1|night>')).toEqual({ kind: 'route', groupName: 'Night staff', channel: { type: 'id', id: 'C1' } });
    expect(parseCommand('route off Night staff')).toEqual({ kind: 'route-off', groupName: 'Night staff' });
  });

  it('reads handover set-up, with a sentence for a wrong word or flag', () => {
    expect(parseCommand('handover here')).toEqual({ kind: 'handover-here', showTasks: false, publicConfirmed: false });
    expect(parseCommand('handover here --show-tasks')).toEqual({ kind: 'handover-here', showTasks: true, publicConfirmed: false });
    expect(parseCommand('Handover HERE --show-tasks --public')).toEqual({ kind: 'handover-here', showTasks: true, publicConfirmed: true });
    expect(parseCommand('handover off')).toEqual({ kind: 'handover-off' });
    expect(parseCommand('handover list')).toEqual({ kind: 'handover-list' });
    const error = (line: string) => {
      const c = parseCommand(line);
      return c.kind === 'error' ? c.message : `not an error: ${c.kind}`;
    };
    expect(error('handover')).toContain('`/care handover` needs a word after it: it takes here, off or list');
    expect(error('handover now')).toContain("I don't know `/care handover now`");
    expect(error('handover here --quiet')).toContain('the flags are --show-tasks and --public');
    expect(error('handover here --public')).toContain('`--public` goes with `--show-tasks`');
    expect(error('handover off please')).toContain('takes nothing after it');
  });

  it('reads channels and people typed as plain names (looked up in the workspace later)', () => {
    expect(parseCommand('route Home managers #care-team')).toEqual({ kind: 'route', groupName: 'Home managers', channel: { type: 'name', name: 'care-team' } });
    expect(parseCommand('route Home managers care-team')).toEqual({ kind: 'route', groupName: 'Home managers', channel: { type: 'name', name: 'care-team' } });
    expect(parseCommand('route off Home managers #care-team')).toEqual({ kind: 'route-off', groupName: 'Home managers' });
    expect(parseCommand('route off Home managers')).toEqual({ kind: 'route-off', groupName: 'Home managers' });
    expect(parseCommand('digest here 07:30 @priya')).toMatchObject({ time: '07:30', filter: { type: 'users', people: [{ type: 'name', name: '@priya' }] } });
    expect(parseCommand('digest here Priya Sharma, Oliver Bennett daily')).toMatchObject({
      days: 'daily',
      filter: {
        type: 'users',
        people: [
          { type: 'name', name: 'Priya Sharma' },
          { type: 'name', name: 'Oliver Bennett' },
        ],
      },
    });
    expect(parseCommand('digest here @priya @Oliver Bennett U0SOPHIE --show-tasks')).toMatchObject({
      showTasks: true,
      filter: {
        people: [
          { type: 'name', name: '@priya' },
          { type: 'name', name: '@Oliver Bennett' },
          { type: 'id', id: 'U0SOPHIE' },
        ],
      },
    });
    expect(parseCommand('digest here 7am')).toMatchObject({ time: '07:00', filter: { type: 'all' } });
    expect(parseCommand('due week @priya')).toEqual({ kind: 'due', window: 'week', personName: '@priya' });
    expect(parseCommand('due @Priya Sharma')).toEqual({ kind: 'due', window: 'today', personName: '@Priya Sharma' });
  });

  it('says what to try instead when it cannot read a command', () => {
    const message = (line: string) => {
      const cmd = parseCommand(line);
      expect(cmd.kind, line).toBe('error');
      return (cmd as { message: string }).message;
    };
    expect(message('due someday')).toContain('today, tomorrow, week (the next 7 days) or overdue');
    expect(message('due someday')).toContain('`/care due tomorrow`');
    expect(message('digest here 25:00')).toContain('is not a time');
    expect(message('digest here --loud')).toContain('--show-tasks and --quiet');
    expect(message('digest sometimes')).toContain('here, off, list or now');
    expect(message('mine please')).toContain('/care due today');
    expect(message('links everyone')).toContain('type it alone');
    expect(message('show')).toContain('/care find <words>');
    expect(message('find')).toContain('/care find hoist');
    expect(message('route off')).toContain('/care routes');
    expect(message('unlink everyone')).toContain('/care unlink @person');
    expect(message('link <@U1> not-an-id')).toContain('24 letters and digits');
  });

  it('answers a wrong argument with the right form', () => {
    expect(parseCommand('show')).toMatchObject({ kind: 'error', message: expect.stringContaining('/care show <action no or Id>') });
    expect(parseCommand('due yesterday')).toMatchObject({ kind: 'error', message: expect.stringContaining('/care due') });
    expect(parseCommand('due @sam <@U1>')).toMatchObject({ kind: 'error', message: expect.stringContaining('one person at a time') });
    expect(parseCommand('link <@U1> not-an-id')).toMatchObject({ kind: 'error' });
    expect(parseCommand('digest here 25:00')).toMatchObject({ kind: 'error' });
    expect(parseCommand('route Night')).toMatchObject({ kind: 'error', message: expect.stringContaining('/care route Home managers #care-team') });
    expect(parseCommand('route <#C1|night>')).toMatchObject({ kind: 'error' });
  });

  it('reads an admin’s export and forget of one person; other words after them get their usage, never a new action', () => {
    expect(parseCommand('export <@U0SOPHIE|sophie>')).toEqual({ kind: 'person-export', slackUserId: 'U0SOPHIE' });
    expect(parseCommand('FORGET <@U0SOPHIE>')).toEqual({ kind: 'person-forget', slackUserId: 'U0SOPHIE' });
    for (const line of ['forget', 'export', 'forget @sophie', 'export @sophie']) {
      const sub = line.split(' ')[0];
      expect(parseCommand(line), line).toEqual({ kind: 'error', message: `Pick the person with @ from Slack’s list, one person: \`/care ${sub} @person\`.` });
    }
    for (const line of ['forget <@U1> <@U2>', 'Forget to lock the door at 9', 'forget Val Visitor', 'export Val Visitor']) {
      const sub = line.split(' ')[0]!.toLowerCase();
      expect(parseCommand(line), line).toEqual({
        kind: 'error',
        message: `Pick the person with @ from Slack’s list, one person: \`/care ${sub} @person\`. To make a new action of these words instead, type \`/care new\` before them.`,
      });
    }
  });

  it('answers every sub-command with words after it as that sub-command, never as a new action', () => {
    for (const word of COMMAND_WORDS.filter((w) => w !== 'new'))
      for (const tail of ['Val Visitor', 'please', 'to call the GP at 9']) expect(parseCommand(`${word} ${tail}`).kind, `${word} ${tail}`).not.toBe('new');
    expect(parseCommand('? how do I')).toEqual({ kind: 'help' });
    for (const v of ['off', 'list', 'now'])
      expect(parseCommand(`digest ${v} please`)).toEqual({ kind: 'error', message: `\`/care digest ${v}\` takes nothing after it: type it alone.` });
  });

  it('reads words that are no subcommand as /care new (Todoist-style); one word a slip away from a subcommand is asked about', () => {
    expect(parseCommand('Call the GP tomorrow')).toEqual({ kind: 'new', task: 'Call the GP tomorrow', implied: true });
    expect(parseCommand('Mind the step on floor 2')).toEqual({ kind: 'new', task: 'Mind the step on floor 2', implied: true });
    expect(parseCommand('frobnicate')).toEqual({ kind: 'new', task: 'frobnicate', implied: true });
    expect(parseCommand('new Call the GP')).toEqual({ kind: 'new', task: 'Call the GP' });
    for (const [slip, meant] of [
      ['mien', 'mine'],
      ['hepl', 'help'],
      ['shwo', 'show'],
      ['sumary', 'summary'],
      ['literatur', 'literature'],
    ]) {
      expect(parseCommand(slip!), slip).toEqual({
        kind: 'error',
        message: `I don't know \`${slip}\`: did you mean \`/care ${meant}\`? To make a new action of it, type \`/care new ${slip}\`.`,
      });
    }
  });

  it('knows the set-up words in the one table: admins, settings and connect', () => {
    expect(parseCommand('admins')).toEqual({ kind: 'workspace', command: { kind: 'admins' } });
    expect(parseCommand('Admins add <@U0SOPHIE|sophie>')).toEqual({ kind: 'workspace', command: { kind: 'admins-add', userId: 'U0SOPHIE' } });
    expect(parseCommand('admins remove <@U0SOPHIE>')).toEqual({ kind: 'workspace', command: { kind: 'admins-remove', userId: 'U0SOPHIE' } });
    expect(parseCommand('admins add sophie')).toMatchObject({ kind: 'workspace', command: { kind: 'usage' } });
    expect(parseCommand('settings')).toEqual({ kind: 'workspace', command: { kind: 'settings' } });
    expect(parseCommand('settings timezone America/New_York')).toEqual({
      kind: 'workspace',
      command: { kind: 'settings-timezone', timeZone: 'America/New_York' },
    });
    expect(parseCommand('settings web-link off')).toEqual({ kind: 'workspace', command: { kind: 'settings-web-link', template: null } });
    expect(parseCommand('settings retention 30')).toEqual({ kind: 'workspace', command: { kind: 'settings-retention', days: 30 } });
    expect(parseCommand('settings retention 0')).toEqual({ kind: 'workspace', command: { kind: 'settings-retention', days: 0 } });
    expect(parseCommand('settings retention 7 days')).toEqual({ kind: 'workspace', command: { kind: 'settings-retention', days: 7 } });
    expect(parseCommand('settings retention OFF')).toEqual({ kind: 'workspace', command: { kind: 'settings-retention', days: 'off' } });
    for (const bad of ['settings retention', 'settings retention -1', 'settings retention 2.5', 'settings retention 3651', 'settings retention soon'])
      expect(parseCommand(bad), bad).toMatchObject({
        kind: 'workspace',
        command: { kind: 'usage', text: expect.stringContaining('`/care settings retention 30`') },
      });
    expect(parseCommand('connect')).toEqual({ kind: 'workspace', command: { kind: 'connect' } });
    expect(parseCommand('setings')).toMatchObject({ kind: 'error', message: expect.stringContaining('/care settings') });
  });

  it('never throws on random or hostile input and always names a next step', () => {
    const pieces = [
      'show',
      'done',
      'due',
      'link',
      'digest',
      'route',
      '<!channel>',
      '<@U1>',
      '<#C1|x>',
      '\u0000',
      '\u202e',
      '💥',
      '&lt;',
      'x'.repeat(5000),
      '--show-tasks',
      ' ',
      '\n',
      '1042',
      'here',
      'off',
    ];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(rand() * 5);
      const text = Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join(rand() < 0.5 ? ' ' : '');
      const cmd = parseCommand(text);
      expect(cmd.kind).toBeTypeOf('string');
      if (cmd.kind === 'error') expect(cmd.message.length).toBeLessThan(400);
    }
  });
});

describe('/care shifts, and digests and summaries at shift start', () => {
  it('shows, sets and resets the shifts; parseShifts’s sentence is the answer to bad input', () => {
    expect(parseCommand('shifts')).toEqual({ kind: 'shifts-show' });
    expect(parseCommand('shifts default')).toEqual({ kind: 'shifts-set', shifts: null });
    expect(parseCommand('shifts Day 07:00-19:00, Night 19:00-07:00')).toEqual({
      kind: 'shifts-set',
      shifts: [
        { name: 'Day', start: '07:00', end: '19:00' },
        { name: 'Night', start: '19:00', end: '07:00' },
      ],
    });
    expect(parseCommand('shifts Early 7am to 2.30pm; Late 2pm-10pm')).toMatchObject({ kind: 'shifts-set', shifts: [{ name: 'Early' }, { name: 'Late' }] });
    expect(parseCommand('shifts Day 07:00')).toEqual({
      kind: 'error',
      message: '"Day 07:00" is not a shift: give a name, a start and an end, e.g. `Day 07:00-19:00, Night 19:00-07:00`.',
    });
    expect(parseCommand('shifts Day 07:00-19:00, day 19:00-07:00')).toEqual({
      kind: 'error',
      message: '"day" is named twice. E.g. `/care shifts Day 07:00-19:00, Night 19:00-07:00`.',
    });
    expect(parseCommand('shfits')).toMatchObject({ kind: 'error', message: expect.stringContaining('/care shifts') });
  });

  it('a digest at every shift start, at one shift’s start, or at a clock time; every day unless weekdays', () => {
    expect(parseCommand('digest here')).toMatchObject({ kind: 'digest-here', time: '08:00', days: 'daily' });
    expect(parseCommand('digest here shift-start')).toMatchObject({ kind: 'digest-here', time: 'shift', days: 'daily', filter: { type: 'all' } });
    expect(parseCommand('digest here shift start urgent-only')).toMatchObject({ time: 'shift', filter: { type: 'urgent-only' } });
    expect(parseCommand('digest here at Day start')).toMatchObject({ kind: 'digest-here', time: 'shift:Day', filter: { type: 'all' } });
    expect(parseCommand('digest here at night shift start weekdays')).toMatchObject({ time: 'shift:night', days: 'weekdays' });
    expect(parseCommand('digest here at each shift start @priya')).toMatchObject({ time: 'shift', filter: { type: 'users' } });
    expect(parseCommand('digest here at 7am')).toMatchObject({ time: '07:00' });
    expect(parseCommand('digest here at Day')).toMatchObject({ kind: 'error', message: expect.stringContaining('`/care digest here at Day start`') });
  });

  it('a summary at shift start; every day unless weekdays', () => {
    expect(parseCommand('summary')).toEqual({ kind: 'summary-show' });
    expect(parseCommand('summary on')).toEqual({ kind: 'summary-set' });
    expect(parseCommand('summary shift-start')).toEqual({ kind: 'summary-set', time: 'shift' });
    expect(parseCommand('summary at Night start weekdays')).toEqual({ kind: 'summary-set', time: 'shift:Night', days: 'weekdays' });
    expect(parseCommand('summary 7 am')).toEqual({ kind: 'summary-set', time: '07:00' });
    expect(parseCommand('summary at')).toMatchObject({ kind: 'error', message: expect.stringContaining('`/care summary shift-start`') });
  });
});
