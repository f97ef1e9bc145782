import { describe, expect, it } from 'vitest';
import { type AdminChange, adminChangeRecipients, adminChangeText } from '../../../src/services/people/admin-changes.js';

const change = (over: Partial<AdminChange> = {}): AdminChange => ({
  workspaceId: 'T1',
  kind: 'added',
  person: 'U0SOPHIE',
  by: 'U0AMELIA',
  through: 'admins-add',
  auditId: 7,
  ...over,
});

describe('telling admins about a change of admins', () => {
  it('tells the installer, the added admins and the person, never whoever made the change, each once', () => {
    expect(adminChangeRecipients(change(), 'U0AMELIA', ['U0OLIVER', 'U0SOPHIE'])).toEqual(['U0OLIVER', 'U0SOPHIE']);
    expect(adminChangeRecipients(change({ kind: 'removed', through: 'admins-remove', by: 'U0OLIVER' }), 'U0AMELIA', ['U0OLIVER'])).toEqual([
      'U0AMELIA',
      'U0SOPHIE',
    ]);
  });

  it('never tells an erased person, or an installer who is an erasure token', () => {
    const forgot = change({ kind: 'removed', through: 'forget', person: 'erased-1', by: 'U0PRIYA', was: 'installer' });
    expect(adminChangeRecipients(forgot, 'erased-1', ['U0SOPHIE'])).toEqual(['U0SOPHIE']);
    expect(adminChangeText(forgot)).toContain('That person was a Care Actions admin (they first installed Care Actions) and no longer is.');
    expect(adminChangeText(forgot)).not.toContain('erased-1');
  });
});
