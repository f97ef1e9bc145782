/**
 * What follows a change made through Slack, at once: who is told of a completion, of a new assignment, of an
 * action made urgent and of a change someone else made, and that every post about it is drawn again after.
 * Nothing of it throws into the click: a failure is logged and left to the changes poll.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/care/index.js';
import type { Logger } from '../../../src/logging/logger.js';
import { createAfterWrite, type AfterWriteDeps } from '../../../src/services/actions/after-write.js';
import type { Actor } from '../../../src/services/people/identity.js';
import { urgentAlertSubscriptionsOf } from '../../../src/services/urgent/urgent-audience.js';
import type { Subscription } from '../../../src/store/index.js';

/** Everything queued by a fire-and-forget call has run (the fakes answer at once, with no timers). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const channel = (channelId: string, urgentAlerts: boolean) => ({ channelId, urgentAlerts }) as Subscription;
const priya: Actor = { userId: 'U-priya', at: { channel: 'C-ward', ts: '1.2' } };
const action: Action = { _id: 'a1', urgent: true, assigned_to: 'care-sam', modified: '2026-03-10 09:00:00' };

function world(fail: Partial<Record<'notices' | 'assignments' | 'urgent' | 'redraw' | 'changes', boolean>> = {}) {
  const told: string[] = [];
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) } as unknown as Logger;
  const maybeFail = (name: keyof typeof fail) => (fail[name] ? Promise.reject(new Error(`${name} down`)) : Promise.resolve());
  /** Records who was told, then answers as the service would (or fails, when this world says so). */
  const tell = (line: string, name?: keyof typeof fail): Promise<never> => {
    told.push(line);
    return (name ? maybeFail(name) : Promise.resolve()) as Promise<never>;
  };
  const deps: AfterWriteDeps = {
    notices: { deliver: (a, options) => tell(`completion notice of ${a._id}${options?.madeInSlack ? ', made in Slack' : ''}`, 'notices') },
    creators: { deliver: (a) => tell(`creator of ${a._id}`) },
    dueHistory: { observe: (a, via) => tell(`due time of ${a._id} seen via ${via}`) },
    assignments: { consider: (a, change) => tell(`assignee of ${a._id}, by ${change?.by.userId}, before ${change?.previousAssignee}`, 'assignments') },
    urgent: {
      consider: (a, subs, change) =>
        tell(`urgent ${a._id} to ${subs.map((s) => s.channelId).join(' ')} (was urgent: ${change?.before?.urgent ?? 'new'})`, 'urgent'),
    },
    urgentSubscriptions: () => urgentAlertSubscriptionsOf({ listSubscriptions: async () => [channel('C-digest', false), channel('C-urgent', true)] }),
    redraw: { follow: (a, options) => tell(`posts of ${a._id} drawn, but not ${options?.drawnAt?.ts}`, 'redraw') },
    changes: { tell: (a, change) => tell(`assignee of ${a._id}: ${change.kind} by ${change.by.userId}`, 'changes') },
    logger,
  };
  return { told, warnings, after: createAfterWrite(deps) };
}

describe('what follows a change made through Slack', () => {
  it('a completion: the completion notice (made in Slack) and whoever created the action', async () => {
    const { told, after } = world();
    after.announceCompletion(action);
    await settled();
    expect(told).toEqual(['completion notice of a1, made in Slack', 'creator of a1']);
  });

  it('a write: the due time recorded, the assignee told with who was before, urgent alert to urgent channels only, then every post drawn again but the one clicked', async () => {
    const { told, warnings, after } = world();
    after.announceWrite(action, { by: priya, before: { ...action, urgent: false, assigned_to: 'care-alex' } });
    await settled();
    expect(told).toEqual([
      'due time of a1 seen via slack',
      'assignee of a1, by U-priya, before care-alex',
      'urgent a1 to C-urgent (was urgent: false)',
      'posts of a1 drawn, but not 1.2',
    ]);
    expect(warnings).toEqual([]);
  });

  it('a new action: nobody was assigned before, and it was not urgent before', async () => {
    const { told, after } = world();
    after.announceWrite(action, { by: priya, before: null });
    await settled();
    expect(told).toContain('assignee of a1, by U-priya, before null');
    expect(told).toContain('urgent a1 to C-urgent (was urgent: new)');
  });

  it('a failed DM or alert still has the posts drawn again, and is left to the poll (logged, never thrown)', async () => {
    const { told, warnings, after } = world({ urgent: true, redraw: true });
    expect(() => after.announceWrite(action, { by: priya, before: action })).not.toThrow();
    await settled();
    expect(told.at(-1)).toBe('posts of a1 drawn, but not 1.2');
    expect(warnings).toEqual(['an assignment DM or urgent alert will be retried by the poller', 'posts about an action will be drawn again by the poller']);
  });

  it('a change by someone else: the assignee is told; a failure is logged', async () => {
    const { told, warnings, after } = world({ changes: true, notices: true });
    after.announceChange(action, { kind: 'take', by: priya, assignee: 'care-sam' });
    after.announceCompletion(action);
    await settled();
    expect(told).toEqual(['assignee of a1: take by U-priya', 'completion notice of a1, made in Slack', 'creator of a1']);
    expect(warnings).toEqual(['a change DM could not be sent now', 'completion notice will be retried by the poller']);
  });
});
