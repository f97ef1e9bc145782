import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/slack/commands/parse.js';

const cmd = (text: string) => parseCommand(text);

describe('/care escalation parsing', () => {
  it('shows the ladder alone', () => {
    expect(cmd('escalation')).toEqual({ kind: 'escalation', command: { kind: 'show' } });
  });

  it('reads each change', () => {
    expect(cmd('escalation after 15')).toEqual({ kind: 'escalation', command: { kind: 'change', change: { kind: 'after', minutes: 15 } } });
    expect(cmd('escalation after 30 minutes')).toMatchObject({ command: { change: { kind: 'after', minutes: 30 } } });
    expect(cmd('escalation followup 45')).toEqual({ kind: 'escalation', command: { kind: 'change', change: { kind: 'followup', minutes: 45 } } });
    expect(cmd('escalation follow-up 20 min')).toMatchObject({ command: { change: { kind: 'followup', minutes: 20 } } });
    expect(cmd('escalation followup off')).toMatchObject({ command: { change: { kind: 'followup', minutes: null } } });
    expect(JSON.stringify(cmd('escalation followup soon'))).toContain('Give the follow-up minutes as a whole number from 5 to 240');
    expect(JSON.stringify(cmd('escalation followup 300'))).toContain('(not `300`)');
    expect(cmd('escalation steps thread,seniors,managers')).toMatchObject({ command: { change: { kind: 'steps', steps: ['thread', 'seniors', 'managers'] } } });
    expect(cmd('escalation steps managers, thread')).toMatchObject({ command: { change: { kind: 'steps', steps: ['managers', 'thread'] } } });
    expect(cmd('escalation steps off')).toMatchObject({ command: { change: { kind: 'steps', steps: [] } } });
    expect(cmd('escalation off')).toMatchObject({ command: { change: { kind: 'steps', steps: [] } } });
    expect(cmd('escalation managers <#C0MGRS|managers>')).toMatchObject({ command: { change: { kind: 'managers', channel: { type: 'id', id: 'C0MGRS' } } } });
    expect(cmd('escalation managers #managers')).toMatchObject({ command: { change: { kind: 'managers', channel: { type: 'name', name: 'managers' } } } });
    expect(cmd('escalation seniors Day <@U0AMELIA|amelia> @ben')).toMatchObject({
      command: {
        change: {
          kind: 'seniors',
          shift: 'Day',
          people: [
            { type: 'id', id: 'U0AMELIA' },
            { type: 'name', name: '@ben' },
          ],
        },
      },
    });
    expect(cmd('escalation seniors Night off')).toMatchObject({ command: { change: { kind: 'seniors', shift: 'Night', people: [] } } });
  });

  it('answers wrong arguments with one sentence saying what to type', () => {
    const message = (text: string) => {
      const c = cmd(text);
      return c.kind === 'error' ? c.message : `not an error: ${c.kind}`;
    };
    expect(message('escalation after 4')).toContain('from 5 to 240 (not `4`)');
    expect(message('escalation after 241')).toContain('from 5 to 240');
    expect(message('escalation after 1.5')).toContain('whole number');
    expect(message('escalation after')).toContain('e.g. `/care escalation after 15`');
    expect(message('escalation steps')).toContain('Name the steps in order');
    expect(message('escalation steps thread,nurse')).toContain("I don't know the step `nurse`");
    expect(message('escalation steps thread thread')).toContain('Name each step once');
    expect(message('escalation managers')).toContain('Name one channel');
    expect(message('escalation managers #a #b')).toContain('Name one channel');
    expect(message('escalation seniors')).toContain('Name the shift, then its seniors');
    expect(message('escalation seniors <@U0AMELIA>')).toContain('Name the shift, then its seniors');
    expect(message('escalation seniors Day')).toContain('Name the seniors of the Day shift');
    expect(message('escalation seniors Day amelia')).toContain('`amelia` is not a person');
    expect(message('escalation off now')).toContain('takes nothing after it');
    expect(message('escalation upwards')).toContain("I don't know `/care escalation upwards`");
  });

  it('a slip of the word is asked about, not made a new action', () => {
    expect(cmd('escalaton')).toMatchObject({ kind: 'error' });
  });
});
