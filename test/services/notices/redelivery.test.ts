/**
 * The Status tab's Retry: each kind of delivery runs its own unfinished rows again; an urgent alert only to
 * the channels set up for urgent alerts; digests and summaries as due now; kinds not listed get no Retry.
 */
import { describe, expect, it } from 'vitest';
import { redeliveryTable } from '../../../src/services/notices/redelivery.js';
import type { Delivery, Subscription } from '../../../src/store/index.js';

const NOW = new Date('2026-03-10T09:30:00Z');

describe("the Status tab's Retry", () => {
  const ran: string[] = [];
  const run = (what: string) => {
    ran.push(what);
    return Promise.resolve({} as never);
  };
  const retried = (what: string) => () => run(what);
  const table = redeliveryTable({
    notices: { retryUnfinished: retried('completion notices') },
    assignments: { retryUnfinished: retried('assignment DMs') },
    changes: { retryUnfinished: retried('change DMs') },
    creators: { retryUnfinished: retried('creator DMs') },
    urgent: { retryUnfinished: (subs) => run(`urgent alerts to ${subs.map((s) => s.channelId).join(' ')}`) },
    urgentSubscriptions: async () => [{ channelId: 'C-urgent', urgentAlerts: true } as Subscription],
    digests: { runDue: (now) => run(`digests due at ${now.toISOString()}`) },
    summaries: { runDue: (now) => run(`summaries due at ${now.toISOString()}`) },
    redraw: { retryUnfinished: retried('post redraws') },
    now: () => NOW,
  });
  const row = { kind: 'x' } as Delivery;

  it('runs each kind of delivery again by its own service', async () => {
    for (const kind of ['completion', 'assignment', 'change', 'creator', 'urgent', 'digest', 'digest-part', 'summary', 'redraw']) {
      await table[kind]!(row);
    }
    expect(ran).toEqual([
      'completion notices',
      'assignment DMs',
      'change DMs',
      'creator DMs',
      'urgent alerts to C-urgent',
      'digests due at 2026-03-10T09:30:00.000Z',
      'digests due at 2026-03-10T09:30:00.000Z',
      'summaries due at 2026-03-10T09:30:00.000Z',
      'post redraws',
    ]);
  });

  it('offers no Retry for the kinds their ticks send again (handovers, escalations, follow-ups)', () => {
    expect(Object.keys(table).sort()).toEqual(['assignment', 'change', 'completion', 'creator', 'digest', 'digest-part', 'redraw', 'summary', 'urgent']);
    expect(table.handover).toBeUndefined();
    expect(table.escalation).toBeUndefined();
  });
});
