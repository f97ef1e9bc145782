/**
 * `/care settings safeguarding`: admins name the action tags and notification
 * groups that mean safeguarding, and the safeguarding officers. Kept in the
 * home's settings (safeguarding.ts); each change audited (`safeguarding.set`,
 * Ids only, never task text).
 */
import type { Action } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { type NameProblem, slackIdsOfPeople } from '../shift-work/channel-setup.js';
import type { DirectoryService } from '../people/directory.js';
import type { Actor, IdentityService } from '../people/identity.js';
import { isSafeguarding, NO_SAFEGUARDING, SAFEGUARDING_SETTING, type SafeguardingSettings, safeguardingOf } from './safeguarding.js';
import type { NameRef, WorkspaceNames } from '../people/workspace-names.js';

export type SafeguardingChange =
  | { kind: 'tags'; tags: string[] }
  | { kind: 'groups'; names: string[] }
  | { kind: 'officers'; people: NameRef[] }
  | { kind: 'off' };

export type SafeguardingChangeResult = { kind: 'set'; settings: SafeguardingSettings } | { kind: 'no-such-group'; name: string } | NameProblem;

export interface SafeguardingSettingsService {
  show(admin: Actor): Promise<SafeguardingSettings>;
  change(admin: Actor, change: SafeguardingChange): Promise<SafeguardingChangeResult>;
  /** Whether this action is about safeguarding (anyone may ask: it decides where the app posts). */
  covers(action: Pick<Action, 'user_tags' | 'notify_on_complete'>): Promise<boolean>;
  /** Whether this person may see a safeguarding action's History: an officer, or an admin. */
  mayReadHistory(person: Actor): Promise<boolean>;
}

export function createSafeguardingSettings(deps: {
  store: WorkspaceStore;
  identity: IdentityService;
  names: WorkspaceNames;
  directory: Pick<DirectoryService, 'groupByName'>;
}): SafeguardingSettingsService {
  const { store, identity } = deps;

  async function save(admin: Actor, next: SafeguardingSettings, details: Record<string, unknown>) {
    const empty = !next.tags.length && !next.groups.length && !next.officers.length;
    await store.setHomeSetting(SAFEGUARDING_SETTING, empty ? null : JSON.stringify(next), admin.userId);
    await store.appendAudit({ userId: admin.userId, verb: 'safeguarding.set', details });
  }

  return {
    async covers(action) {
      return isSafeguarding(action, await safeguardingOf(store));
    },

    async mayReadHistory(person) {
      if ((await safeguardingOf(store)).officers.includes(person.userId)) return true;
      return identity.isAdmin(person);
    },

    async show(admin) {
      await identity.requireAdmin(admin);
      return safeguardingOf(store);
    },

    async change(admin, change) {
      await identity.requireAdmin(admin);
      const current = await safeguardingOf(store);
      let next: SafeguardingSettings;
      switch (change.kind) {
        case 'off':
          next = NO_SAFEGUARDING;
          await save(admin, next, { off: true });
          break;
        case 'tags':
          next = { ...current, tags: change.tags };
          await save(admin, next, { tags: change.tags });
          break;
        case 'groups': {
          const groups: { id: string; name: string }[] = [];
          for (const name of change.names) {
            const found = await deps.directory.groupByName(name);
            if (!found) return { kind: 'no-such-group', name };
            groups.push(found);
          }
          next = { ...current, groups };
          await save(admin, next, { groups: groups.map((g) => g.id) });
          break;
        }
        case 'officers': {
          const people = await slackIdsOfPeople(deps.names, change.people);
          if ('kind' in people) return people;
          next = { ...current, officers: people.ids };
          await save(admin, next, { officers: people.ids });
          break;
        }
      }
      return { kind: 'set', settings: next };
    },
  };
}
