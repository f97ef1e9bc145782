import { describe, expect, it } from 'vitest';
import { withoutSlackIds } from '../../src/store/index.js';

describe('an uninstalled workspace’s audit details', () => {
  it('lose every Slack user, Enterprise user and bot Id, alone or in a mention, and keep the rest as it was', () => {
    const details = {
      installer: 'U024BE7LH',
      admins: ['W0ORGADMIN1', 'U0AMELIA'],
      text: 'approved by <@U0PRIYA> for B0BOTAPP1',
      careUserId: '64b7f0c2a1e4d3b2c1a09f8e',
      actionNo: '1042',
      due: '2026-03-10T09:00:00Z',
      channelId: 'C0CARE',
      why: 'app_uninstalled',
      nested: { by: 'U0OLIVER', count: 3, ok: true, none: null },
    };
    expect(withoutSlackIds(details)).toEqual({
      installer: '',
      admins: ['', ''],
      text: 'approved by <@> for ',
      careUserId: '64b7f0c2a1e4d3b2c1a09f8e',
      actionNo: '1042',
      due: '2026-03-10T09:00:00Z',
      channelId: 'C0CARE',
      why: 'app_uninstalled',
      nested: { by: '', count: 3, ok: true, none: null },
    });
  });
});
