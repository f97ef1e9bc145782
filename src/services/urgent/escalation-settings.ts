/**
 * A care home's escalation ladder (`/care escalation`), kept in its settings
 * under `escalation` (JSON: afterMinutes, steps, managersChannel?, seniors by
 * shift name); the default (15 minutes; thread, seniors, managers; nobody
 * named) until admins set it. Read by the escalation job, and by others that
 * need the managers' channel (escalationOf). Changes: admins only, each audited.
 */
import type { WorkspaceStore } from '../../store/index.js';
import type { Shift } from '../../time/shifts.js';
import type { ChannelPolicy } from '../channel-policy.js';
import { type NameProblem, slackIdsOfPeople } from '../shift-work/channel-setup.js';
import {
  DEFAULT_FOLLOWUP_MINUTES,
  type EscalationSettings,
  type EscalationStep,
  isRepeatWithin,
  type LadderRepeat,
  MAX_AFTER_MINUTES,
  MIN_AFTER_MINUTES,
  readEscalation,
} from './escalation-ladder.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { shiftsOf } from '../shift-work/shift-settings.js';
import type { NameRef, WorkspaceNames } from '../people/workspace-names.js';

export const ESCALATION_SETTING = 'escalation';

export type { EscalationSettings, EscalationStep } from './escalation-ladder.js';

/** The home's ladder as set (the default until set). */
export async function escalationOf(store: Pick<WorkspaceStore, 'getHomeSetting'>): Promise<EscalationSettings> {
  return readEscalation((await store.getHomeSetting(ESCALATION_SETTING))?.value);
}

/** The managers' channel admins named for escalation, if any (the handover reads it too). */
export async function managersChannelOf(store: Pick<WorkspaceStore, 'getHomeSetting'>): Promise<string | undefined> {
  return (await escalationOf(store)).managersChannel;
}

/** What the ladder looks like to an admin: the settings and the home's shift names (for the seniors). */
export interface EscalationView {
  settings: EscalationSettings;
  shifts: readonly Shift[];
}

export type EscalationChange =
  | { kind: 'after'; minutes: number }
  /** Follow-up of taken work: minutes, or null (off). */
  | { kind: 'followup'; minutes: number | null }
  | { kind: 'steps'; steps: EscalationStep[] }
  | { kind: 'managers'; channel: NameRef }
  | { kind: 'seniors'; shift: string; people: NameRef[] }
  /** The last step again every N minutes, at most K times (null: once). */
  | { kind: 'repeat'; repeat: LadderRepeat | null };

export type EscalationChangeResult =
  | { kind: 'set'; view: EscalationView }
  | { kind: 'bad-minutes'; minutes: number; followup?: true }
  | { kind: 'bad-repeat'; repeat: LadderRepeat }
  /** The app is not in the managers' channel, so it could never post there. */
  | { kind: 'not-member'; channelId: string }
  | { kind: 'no-such-shift'; shift: string; shifts: string[] }
  | NameProblem;

export interface EscalationSettingsService {
  show(admin: Actor): Promise<EscalationView>;
  change(admin: Actor, change: EscalationChange): Promise<EscalationChangeResult>;
}

export function createEscalationSettings(deps: {
  store: WorkspaceStore;
  identity: IdentityService;
  channels: ChannelPolicy;
  names: WorkspaceNames;
}): EscalationSettingsService {
  const { store, identity } = deps;
  const view = async (): Promise<EscalationView> => ({ settings: await escalationOf(store), shifts: await shiftsOf(store) });

  async function save(admin: Actor, next: EscalationSettings, details: Record<string, unknown>) {
    // The follow-up is kept only when it is not the default (a stored ladder reads the same either way).
    const { followupMinutes, ...rest } = next;
    const stored = followupMinutes === DEFAULT_FOLLOWUP_MINUTES ? rest : next;
    await store.setHomeSetting(ESCALATION_SETTING, JSON.stringify(stored), admin.userId);
    await store.appendAudit({ userId: admin.userId, verb: 'escalation.set', details });
  }

  // A change is read and written with nothing between (names and channels are looked up before), one at a time
  // here, so two changes typed together both hold: a change never writes back a ladder read before the other.
  let queue: Promise<unknown> = Promise.resolve();
  function update(admin: Actor, next: (current: EscalationSettings) => EscalationSettings, details: Record<string, unknown>): Promise<void> {
    const run = queue.then(async () => save(admin, next(await escalationOf(store)), details));
    queue = run.catch(() => undefined);
    return run;
  }

  const peopleIds = (refs: NameRef[]) => slackIdsOfPeople(deps.names, refs);

  return {
    async show(admin) {
      await identity.requireAdmin(admin);
      return view();
    },

    async change(admin, change) {
      await identity.requireAdmin(admin);
      switch (change.kind) {
        case 'after': {
          if (!Number.isInteger(change.minutes) || change.minutes < MIN_AFTER_MINUTES || change.minutes > MAX_AFTER_MINUTES)
            return { kind: 'bad-minutes', minutes: change.minutes };
          await update(admin, (current) => ({ ...current, afterMinutes: change.minutes }), { afterMinutes: change.minutes });
          break;
        }
        case 'followup': {
          if (change.minutes !== null && (!Number.isInteger(change.minutes) || change.minutes < MIN_AFTER_MINUTES || change.minutes > MAX_AFTER_MINUTES))
            return { kind: 'bad-minutes', minutes: change.minutes, followup: true };
          await update(admin, (current) => ({ ...current, followupMinutes: change.minutes }), { followupMinutes: change.minutes });
          break;
        }
        case 'repeat': {
          if (change.repeat && !isRepeatWithin(change.repeat)) return { kind: 'bad-repeat', repeat: change.repeat };
          const repeat = change.repeat;
          await update(admin, ({ repeat: _was, ...rest }) => (repeat ? { ...rest, repeat } : rest), { repeat: repeat ?? 'off' });
          break;
        }
        case 'steps': {
          await update(admin, (current) => ({ ...current, steps: change.steps }), { steps: change.steps });
          break;
        }
        case 'managers': {
          let channelId: string;
          if (change.channel.type === 'id') channelId = change.channel.id;
          else {
            const found = await deps.names.channel(change.channel);
            if (found.kind !== 'found') return { kind: 'channel-name', lookup: found };
            channelId = found.match.id;
          }
          // As for digests and routes: a channel the app is not in could never be posted to.
          const member = (await deps.channels.info(channelId).catch(() => null))?.isMember === true;
          if (!member) return { kind: 'not-member', channelId };
          await update(admin, (current) => ({ ...current, managersChannel: channelId }), { managersChannel: channelId });
          break;
        }
        case 'seniors': {
          const shifts = await shiftsOf(store);
          const shift = shifts.find((s) => s.name.toLowerCase() === change.shift.toLowerCase());
          if (!shift) return { kind: 'no-such-shift', shift: change.shift, shifts: shifts.map((s) => s.name) };
          const people = await peopleIds(change.people);
          if ('kind' in people) return people;
          await update(
            admin,
            (current) => {
              const seniors = { ...current.seniors };
              if (people.ids.length) seniors[shift.name] = people.ids;
              else delete seniors[shift.name];
              return { ...current, seniors };
            },
            { shift: shift.name, seniors: people.ids },
          );
          break;
        }
      }
      return { kind: 'set', view: await view() };
    },
  };
}
