import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import type { StatusReport } from '../../src/services/admin/status.js';
import type { TeamView } from '../../src/services/admin/team-view.js';
import { homeView } from '../../src/slack/views/home-view.js';

/** The admins' Home sections with a very big care home: Slack's limits hold and the person's own list still pages. */
const now = new Date('2026-03-10T10:00:00Z');
const ctx = { now, timezone: 'Europe/London', showTask: true };
const action = (i: number, extra: Partial<ActionView> = {}): ActionView => ({
  id: i.toString(16).padStart(24, '0'),
  actionNo: String(1000 + i),
  task: `Task ${i} ${'x'.repeat(400)}`,
  due: new Date(now.getTime() - 3600_000),
  urgent: false,
  completed: null,
  assignee: null,
  ...extra,
});

const team: TeamView = {
  timezone: 'Europe/London',
  through: '2026-03-17',
  overdue: 90_000,
  today: 40_000,
  carers: Array.from({ length: 800 }, (_, i) =>
    i % 2
      ? { careUserId: `c${i}`, slackUserId: `U${i}`, overdue: 800 - i, today: i }
      : { careUserId: `c${i}`, name: `Carer ${'n'.repeat(200)} ${i}`, overdue: 1, today: 0 },
  ),
  unassigned: { count: 5_000, overdue: 3_000, today: 1_000, first: Array.from({ length: 5 }, (_, i) => action(i, { urgent: i === 0 })) },
  partial: true,
  read: 2_000,
  channels: Array.from({ length: 300 }, (_, i) => ({
    channelId: `C${i}`,
    digest: {
      time: '08:00',
      days: 'weekdays' as const,
      timezone: 'Europe/London',
      next: new Date('2026-03-11T08:00:00Z'),
      filters: { slackUserIds: ['U1', 'U2', 'U3'], locationName: 'Willow Bank' },
      setUpBy: 'U0',
      urgentAlerts: true,
      showTaskText: false,
    },
    routes: ['Willow Bank seniors', 'Heather Lodge nurses'],
  })),
};

const status: StatusReport = {
  version: '1.2.3',
  care: {
    requests: 10,
    failures: 2,
    lastAnswerAgoMs: 3_000,
    lastTrouble: { agoMs: 120_000, error: 'HTTP 503' },
    rateLimit: { limit: 10, remaining: 7, agoMs: 3_000 },
  },
  poll: {
    everySeconds: 60,
    lastRun: { agoMs: 20_000, ok: false, error: 'e'.repeat(300), requests: 0, seen: 0 },
    lagMs: 90_000,
    newestChange: new Date('2026-03-10T09:58:30Z'),
    lastOkAgoMs: 80_000,
    late: false,
  },
  deliveries: {
    windowHours: 24,
    sent: 12_000,
    pending: 3,
    failed: 900,
    rows: [
      ...Array.from({ length: 4 }, (_, i) => ({
        id: i + 1,
        kind: 'completion',
        recipient: { type: 'user' as const, id: `U${i}` },
        reason: `gave up after 5 attempts; last error: ${'r'.repeat(1900)}`,
        retry: true,
      })),
      { id: 99, kind: 'urgent', recipient: { type: 'channel' as const, id: 'C9' }, reason: 'no longer urgent', retry: false },
    ],
  },
  digests: Array.from({ length: 300 }, (_, i) => ({
    channelId: `C${i}`,
    time: '08:00',
    days: 'daily' as const,
    timezone: 'Europe/London',
    last: new Date('2026-03-10T08:00:01Z'),
    next: new Date('2026-03-11T08:00:00Z'),
  })),
};

type AnyBlock = {
  type: string;
  block_id?: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { text?: string | { text: string } }[];
  accessory?: { action_id: string; value: string };
};

describe("an admin's Home tab with big numbers", () => {
  const mine = [{ label: 'Overdue', actions: Array.from({ length: 120 }, (_, i) => action(1000 + i, { assignee: { slackUserId: 'U0' } })) }];

  it('stays within 100 blocks and each text limit, the own list first and paged, both sections whole after it', () => {
    for (const limit of [20, 100]) {
      const view = homeView({ linked: true, groups: mine, limit, admin: { team, status } }, ctx);
      const blocks = view.blocks as AnyBlock[];
      expect(blocks.length).toBeLessThanOrEqual(100);
      for (const b of blocks) {
        if (b.text) expect(b.text.text.length).toBeLessThanOrEqual(3000);
        for (const f of b.fields ?? []) expect(f.text.length).toBeLessThanOrEqual(2000);
        expect(b.fields?.length ?? 0).toBeLessThanOrEqual(10);
      }
      const ids = blocks.map((b) => b.block_id).filter(Boolean);
      expect(new Set(ids).size).toBe(ids.length);
      const more = blocks.findIndex((b) => b.block_id === 'home_more');
      const teamAt = blocks.findIndex((b) => b.type === 'header' && b.text?.text === 'Team');
      const statusAt = blocks.findIndex((b) => b.type === 'header' && b.text?.text === 'Status');
      expect(more).toBeGreaterThan(0);
      expect(teamAt).toBeGreaterThan(more);
      expect(statusAt).toBeGreaterThan(teamAt);
      // The list shows what fits and the button counts the rest.
      const shown = blocks.filter((b) => b.block_id?.startsWith('line_')).length;
      expect(shown).toBeGreaterThan(10);
      expect(JSON.stringify(blocks[more])).toContain(`Show more (${120 - shown} more)`);
      const all = JSON.stringify(blocks);
      expect(all).toContain('…and 4995 more unassigned.');
      expect(all).toContain('…and 895 more failed in the last 24 h');
      expect(all).toContain('more carers.');
      expect(all).toContain('counted from the first 2000');
      expect(all).toContain('*Version*\\n1.2.3');
      // Retry on failures; none on an outcome that was decided (no longer urgent).
      const retries = blocks.filter((b) => b.accessory?.action_id === 'care_delivery_retry').map((b) => b.accessory!.value);
      expect(retries).toEqual(['1', '2', '3', '4']);
      expect(blocks.find((b) => b.block_id === 'status_failed_99')?.accessory).toBeUndefined();
    }
  });

  it('an admin not linked, or whose list could not be read, still gets both sections', () => {
    for (const state of [
      { linked: false, groups: [], limit: 20 },
      { linked: true, groups: [], limit: 20, error: 'The care system is busy.' },
    ]) {
      const blocks = homeView({ ...state, admin: { team: { error: 'The team view could not be read: timeout.' }, status } }, ctx).blocks as AnyBlock[];
      const all = JSON.stringify(blocks);
      expect(all).toContain('The team view could not be read');
      expect(all).toContain('*Changes poll*');
    }
  });

  it('a person who is not an admin gets the Home tab as before', () => {
    const all = JSON.stringify(homeView({ linked: true, groups: mine, limit: 20 }, ctx).blocks);
    expect(all).not.toContain('"Team"');
    expect(all).not.toContain('"Status"');
  });
});
