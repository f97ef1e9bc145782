import { describe, expect, it } from 'vitest';
import { renderMrkdwn } from '../../dev/slack-fake/mrkdwn.js';
import { literal, taskText } from '../../src/slack/text.js';

/** What Slack's mrkdwn would make of it, as the Slack fake reads it (markers dropped, entities decoded). */
const shown = (mrkdwn: string) => renderMrkdwn(mrkdwn, { userName: () => undefined, channelName: () => undefined, now: 0 });

describe('task text shown as typed', () => {
  it('keeps the formatting characters a person typed instead of making them bold, italic, struck or code', () => {
    for (const typed of ['*URGENT* fridge temps', 'Check _night_ meds', 'Old ~rota~ gone', 'Use the `blue` hoist', 'Ring **now**']) {
      const out = shown(taskText(typed));
      // Every character is still there, in the same place, each formatting character as one that looks the same.
      expect(out).toHaveLength(typed.length);
      expect(out.replace(/[\u2217\uFF3F\u223C\u02CB]/g, (c) => ({ '\u2217': '*', '\uFF3F': '_', '\u223C': '~', '\u02CB': '`' })[c]!)).toBe(typed);
    }
    expect(shown(taskText('*URGENT* fridge temps'))).toBe('\u2217URGENT\u2217 fridge temps');
  });

  it('leaves characters Slack would not format as they are: inside words, between numbers, alone, and in links', () => {
    expect(literal('Flat_3 and room_4b')).toBe('Flat_3 and room_4b');
    expect(literal('Give 2*3 tablets, 5 * 2 ml, _ alone')).toBe('Give 2*3 tablets, 5 * 2 ml, _ alone');
    expect(literal('See https://care.example/plans/_draft_/a~b for *it*')).toBe('See https://care.example/plans/_draft_/a~b for \u2217it\u2217');
  });

  it('still escapes Slack’s control characters, so a typed mention or link stays text', () => {
    expect(taskText('Tell <!channel> & <@U123>')).toBe('Tell &lt;!channel&gt; &amp; &lt;@U123&gt;');
    expect(shown(taskText('Tell <!channel> & <@U123>'))).toBe('Tell <!channel> & <@U123>');
  });
});
