import { describe, expect, it } from 'vitest';
import { careResource, deliveryKind, jobName, methodOfUrl, slackMethod, slackResult } from '../../src/metrics/labels.js';
import { resultOfBody } from '../../src/metrics/slack-api.js';

describe('metric label values', () => {
  it('keep the known shapes and turn anything else into "other"', () => {
    expect(careResource('notification-groups')).toBe('notification-groups');
    expect(slackMethod('chat.postMessage')).toBe('chat.postMessage');
    expect(slackMethod('apps.connections.open')).toBe('apps.connections.open');
    expect(slackResult('channel_not_found')).toBe('channel_not_found');
    expect(deliveryKind('digest-part')).toBe('digest-part');
    expect(jobName('changes-poll')).toBe('changes-poll');
    expect(jobName('digests:T0123ABC')).toBe('digests:T0123ABC');
    for (const [fn, value] of [
      [careResource, '64b7f0c2e4b0a1a2b3c4d5e6'],
      [careResource, 'Order more dressings'],
      [slackMethod, 'sophie@brightwatercare.example'],
      [slackResult, 'Weigh Mr Okafor'],
      [slackResult, 'xoxb-1234-secret'],
      [deliveryKind, 'priya@brightwatercare.example'],
      [jobName, 'digests:C0CARE team'],
      [slackResult, undefined],
    ] as const) {
      expect(fn(value), String(value)).toBe('other');
    }
  });

  it('name the Web API method of a request URL, never its query', () => {
    expect(methodOfUrl('https://slack.com/api/users.lookupByEmail?email=priya@brightwatercare.example')).toBe('users.lookupByEmail');
    expect(methodOfUrl(new URL('http://127.0.0.1:4020/api/chat.postMessage'))).toBe('chat.postMessage');
    expect(methodOfUrl('http://127.0.0.1:4020/api/')).toBe('other');
  });

  it('read ok or the error code from a Web API answer', () => {
    expect(resultOfBody('{"ok":true,"channel":"C1","error":"not_this"}')).toBe('ok');
    expect(resultOfBody('{"ok":false,"error":"account_inactive"}')).toBe('account_inactive');
    expect(resultOfBody('{"error":"invalid_auth","ok":false}')).toBe('invalid_auth'); // ok not first: parsed
    expect(resultOfBody('{"ok":false,"error":"Mr Okafor\'s room"}')).toBe('other');
    expect(resultOfBody('<html>gateway</html>')).toBe('unreadable');
  });
});
