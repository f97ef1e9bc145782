import { describe, expect, it } from 'vitest';
import { namesWhole, replaceWhole } from '../../src/store/whole-id.js';

describe('a Slack Id in a stored value, matched whole', () => {
  it('finds the Id where punctuation bounds it, never inside another token', () => {
    for (const text of ['U0S', '<@U0S>', 'user:T1/U0S', 'home-where:U0S@T1', 'U0AMELIA,U0S', '{"by":"U0S"}', '["U0S"]'])
      expect(namesWhole(text, 'U0S'), text).toBe(true);
    for (const text of ['U0SOPHIE', 'XU0S', 'erased-1U0S', 'U0S1', '{"by":"U0SOPHIE"}', '', null, undefined])
      expect(namesWhole(text, 'U0S'), String(text)).toBe(false);
  });

  it('rewrites each whole occurrence only; JSON stays JSON, numbers and other Ids untouched', () => {
    expect(replaceWhole('<@U0S> and <@U0SOPHIE>', 'U0S', 'erased-1')).toBe('<@erased-1> and <@U0SOPHIE>');
    expect(JSON.parse(replaceWhole(JSON.stringify({ slackUserIds: ['U0', 'U0S', 'U0SOPHIE'], U0S: 1, n: 1 }), 'U0S', 'erased-2'))).toEqual({
      slackUserIds: ['U0', 'erased-2', 'U0SOPHIE'],
      'erased-2': 1,
      n: 1,
    });
    // An escape before the Id in JSON text does not join it to a letter (the string is read, not its spelling).
    expect(JSON.parse(replaceWhole(JSON.stringify({ note: 'line\nU0S' }), 'U0S', 'erased-1'))).toEqual({ note: 'line\nerased-1' });
    const cursor = JSON.stringify({ since: '2026-01-01T10:00:01Z', n: 1 });
    expect(replaceWhole(cursor, '1', 'erased-1')).toBe(cursor);
  });
});
