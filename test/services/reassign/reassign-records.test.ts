import { describe, expect, it } from 'vitest';
import { parseReassignRecord, PLAN_KEPT_MS, REASSIGN_UNDO_WINDOW_MS, sweptAt, undoRecordOf } from '../../../src/services/reassign/reassign-records.js';
import type { ReassignPlan } from '../../../src/services/reassign/reassign.js';

const aisha = { careUserId: 'a'.repeat(24), name: 'Aisha Khan', slackUserId: 'U0AISHA' };
const ben = { careUserId: 'b'.repeat(24), name: 'Ben Whitaker' };
const plan: ReassignPlan = {
  from: aisha,
  to: ben,
  scope: 'all',
  actions: [{ id: '1'.repeat(24), no: '7' }],
  total: 1,
  overdue: 0,
  today: 1,
  later: 0,
  capped: false,
};
const T = Date.UTC(2026, 2, 10, 9);

describe('what a reassign run keeps, and for how long', () => {
  it('keeps for Undo only the two sides by Id and what moved: no name, no plan; nothing when nothing moved', () => {
    const undo = undoRecordOf(plan, [{ id: '1'.repeat(24), no: '7' }], T)!;
    expect(undo).toEqual({
      state: 'undoable',
      from: { careUserId: aisha.careUserId, slackUserId: 'U0AISHA' },
      to: { careUserId: ben.careUserId },
      moved: [{ id: '1'.repeat(24), no: '7' }],
      expiresAt: T + REASSIGN_UNDO_WINDOW_MS,
    });
    expect(JSON.stringify(undo)).not.toMatch(/Aisha Khan|Ben Whitaker/);
    expect(parseReassignRecord(JSON.stringify(undo))).toEqual(undo);
    expect(undoRecordOf(plan, [], T)).toBeNull();
  });

  it('sweeps an Undo at the end of its window, a plan a day after it was counted, and what it cannot read (kept before)', () => {
    const undo = undoRecordOf(plan, plan.actions, T)!;
    expect(sweptAt(undo, T + REASSIGN_UNDO_WINDOW_MS - 1)).toBe(false);
    expect(sweptAt(undo, T + REASSIGN_UNDO_WINDOW_MS)).toBe(true);
    const asked = parseReassignRecord(JSON.stringify({ state: 'confirming', plan, at: T }));
    expect(sweptAt(asked, T + PLAN_KEPT_MS - 1)).toBe(false);
    expect(sweptAt(asked, T + PLAN_KEPT_MS)).toBe(true);
    expect(sweptAt(parseReassignRecord(JSON.stringify({ state: 'done', plan: { ...plan, actions: [] } })), T)).toBe(true);
    expect(sweptAt(parseReassignRecord('not json'), T)).toBe(true);
  });
});
