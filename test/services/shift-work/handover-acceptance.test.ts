import { describe, expect, it } from 'vitest';
import { acceptRefusal, shiftNameOf } from '../../../src/services/shift-work/handover-acceptance.js';

/** Who may accept a handover: the rule, as a table (the e2e tests in test/e2e/handover.test.ts press the button). */
describe('who may accept a handover', () => {
  const base = { userId: 'U0SOPHIE', linked: true, admin: false, shiftName: 'Night', seniors: undefined as string[] | undefined };

  it('any linked person, where no seniors are named for the incoming shift', () => {
    expect(acceptRefusal(base)).toBeNull();
    expect(acceptRefusal({ ...base, seniors: [] })).toBeNull();
  });

  it('nobody without a linked care account, admins included', () => {
    expect(acceptRefusal({ ...base, linked: false })).toEqual({ kind: 'refused', reason: 'not-linked' });
    expect(acceptRefusal({ ...base, linked: false, admin: true, seniors: ['U0SOPHIE'] })).toEqual({ kind: 'refused', reason: 'not-linked' });
  });

  it('where seniors are named: only one of them or an admin', () => {
    const seniors = ['U0PRIYA'];
    expect(acceptRefusal({ ...base, seniors })).toEqual({ kind: 'refused', reason: 'not-senior', shiftName: 'Night', seniors: ['U0PRIYA'] });
    expect(acceptRefusal({ ...base, userId: 'U0PRIYA', seniors })).toBeNull();
    expect(acceptRefusal({ ...base, admin: true, seniors })).toBeNull();
  });

  it('reads the shift from the occurrence', () => {
    expect(shiftNameOf('2027-10-30/Night')).toBe('Night');
    expect(shiftNameOf('2027-10-30/Late day')).toBe('Late day');
  });
});
