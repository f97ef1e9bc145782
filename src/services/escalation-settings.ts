/**
 * A care home's escalation ladder (`/care escalation`), kept in its settings
 * under `escalation` (JSON: afterMinutes, steps, managersChannel?, seniors by
 * shift name); the default (15 minutes; thread, seniors, managers; nobody
 * named) until admins set it. Read by the escalation job, and by others that
 * need the managers' channel (escalationOf). Changes: admins only, each audited.
 */
import type { WorkspaceStore } from '../store/index.js';
import type { Shift } from '../time/shifts.js';
import type { ChannelPolicy } from './channel-policy.js';
import { type NameProblem, slackIdsOfPeople } from './channel-setup.js';
import { type EscalationSettings, type EscalationStep, MAX_AFTER_MINUTES, MIN_AFTER_MINUTES, readEscalation } from './escalation-ladder.js';
import type { Actor, IdentityService } from './identity.js';
import { shiftsOf } from './shift-settings.js';
import type { NameRef, WorkspaceNames } from './workspace-names.js';

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
  | { kind: 'steps'; steps: EscalationStep[] }
  | { kind: 'managers'; channel: NameRef }
  | { kind: 'seniors'; shift: string; people: NameRef[] };

export type EscalationChangeResult =
  | { kind: 'set'; view: EscalationView }
  | { kind: 'bad-minutes'; minutes: number }
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
    await store.setHomeSetting(ESCALATION_SETTING, JSON.stringify(next), admin.userId);
    await store.appendAudit({ teamId: admin.teamId, userId: admin.userId, verb: 'escalation.set', details });
  }

  const peopleIds = (refs: NameRef[]) => slackIdsOfPeople(deps.names, refs);

  return {
    async show(admin) {
      await identity.requireAdmin(admin);
      return view();
    },

    async change(admin, change) {
      await identity.requireAdmin(admin);
      const current = await escalationOf(store);
      switch (change.kind) {
        case 'after': {
          if (!Number.isInteger(change.minutes) || change.minutes < MIN_AFTER_MINUTES || change.minutes > MAX_AFTER_MINUTES)
            return { kind: 'bad-minutes', minutes: change.minutes };
          await save(admin, { ...current, afterMinutes: change.minutes }, { afterMinutes: change.minutes });
          break;
        }
        case 'steps': {
          await save(admin, { ...current, steps: change.steps }, { steps: change.steps });
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
          await save(admin, { ...current, managersChannel: channelId }, { managersChannel: channelId });
          break;
        }
        case 'seniors': {
          const shifts = await shiftsOf(store);
          const shift = shifts.find((s) => s.name.toLowerCase() === change.shift.toLowerCase());
          if (!shift) return { kind: 'no-such-shift', shift: change.shift, shifts: shifts.map((s) => s.name) };
          const people = await peopleIds(change.people);
          if ('kind' in people) return people;
          const seniors = { ...current.seniors };
          if (people.ids.length) seniors[shift.name] = people.ids;
          else delete seniors[shift.name];
          await save(admin, { ...current, seniors }, { shift: shift.name, seniors: people.ids });
          break;
        }
      }
      return { kind: 'set', view: await view() };
    },
  };
}
