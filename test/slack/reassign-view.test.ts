import { describe, expect, it } from 'vitest';
import type { ReassignPlan } from '../../src/services/reassign/reassign.js';
import { assigneeLabel } from '../../src/slack/views/action-form-modal.js';
import { reassignQuestion, reassignResultMessage, reassignResultText, reassignSummaryMessage } from '../../src/slack/views/reassign.js';
import { undoResultText } from '../../src/slack/views/reassign-undo.js';

const amelia = { careUserId: 'a'.repeat(24), name: 'Amelia Hart', slackUserId: 'U0AMELIA' };
const ben = { careUserId: 'b'.repeat(24), name: 'Ben Carter' };
const plan: ReassignPlan = {
  from: amelia,
  to: ben,
  scope: 'all',
  actions: [],
  total: 25,
  overdue: 3,
  today: 5,
  later: 17,
  capped: false,
};

describe('reassign wording', () => {
  it('asks with the counts before anything moves', () => {
    expect(reassignQuestion(plan)).toBe('Move 25 open actions from <@U0AMELIA> to Ben Carter? 3 overdue, 5 due today, 17 due later.');
  });

  it('says exactly what moved and what did not', () => {
    const moved = Array.from({ length: 23 }, (_, i) => ({ id: String(i).padStart(24, '0'), no: String(1000 + i) }));
    const text = reassignResultText(plan, {
      moved,
      failed: [
        { id: 'c'.repeat(24), no: '1042', why: 'deleted in the care system' },
        { id: 'd'.repeat(24), no: '1043', why: 'completed meanwhile' },
      ],
    });
    expect(text).toBe(
      ':warning: 23 moved from <@U0AMELIA> to Ben Carter; 2 could not be moved: #1042 (deleted in the care system), #1043 (completed meanwhile).',
    );
    expect(reassignResultText(plan, { moved: moved.slice(0, 20), failed: [] })).toBe(
      ':white_check_mark: 20 moved from <@U0AMELIA> to Ben Carter; all 20 done.',
    );
  });

  it('the summary DM names numbers, not tasks, and its notification text names no resident', () => {
    const dm = reassignSummaryMessage({
      by: 'U0PRIYA',
      from: amelia,
      to: { ...ben, slackUserId: 'U0BEN' },
      moved: [{ id: 'e'.repeat(24), no: '7' }],
      reader: 'to',
    });
    expect(dm.text).toBe('<@U0PRIYA> moved 1 open action from <@U0AMELIA> to you.');
    expect(JSON.stringify(dm.blocks)).toContain('#7');
  });

  it('marks a carer not in Slack in the assignee picker, within Slack’s 75 characters', () => {
    expect(assigneeLabel({ name: 'Ben Carter' })).toBe('Ben Carter — not in Slack: they see it in the care system');
    expect(assigneeLabel({ name: 'Oliver Bennett', slackUserId: 'U0OLIVER' })).toBe('Oliver Bennett');
    const long = assigneeLabel({ name: 'Bartholomew Alexander Montgomery-Fitzwilliam' });
    expect(long.length).toBeLessThanOrEqual(75);
    expect(long).toMatch(/… — not in Slack: they see it in the care system$/);
  });
});

describe('reassign result DM and its Undo', () => {
  it('offers Undo of those only, until when, and says the Undo’s result with what was left and why', () => {
    const moved = [{ id: 'd'.repeat(24), no: '7' }];
    const m = reassignResultMessage(
      { ...plan, total: 1 },
      { moved, failed: [] },
      { runId: 'r1', expiresAt: Date.UTC(2026, 2, 11, 9), windowMs: 86_400_000 },
      'Europe/London',
    );
    const blocks = JSON.stringify(m.blocks);
    expect(blocks).toContain('Undo moves these 1 back to <@U0AMELIA>, and only these (Ben Carter’s own work stays)');
    expect(blocks).toContain('<!date^1773219600^');
    expect(blocks).toContain('"action_id":"care_reassign_undo"');
    expect(JSON.stringify(reassignResultMessage(plan, { moved: [], failed: [] }, null, 'Europe/London').blocks)).not.toContain('care_reassign_undo');
    expect(undoResultText('U0PRIYA', amelia, ben, { moved, failed: [{ id: 'e'.repeat(24), no: '8', why: 'completed since the reassignment' }] })).toBe(
      ':leftwards_arrow_with_hook: Undone by <@U0PRIYA>: 1 moved back from Ben Carter to <@U0AMELIA>; 1 left as it is: #8 (completed since the reassignment).',
    );
  });
});
