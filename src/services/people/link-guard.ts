/**
 * One care user has at most one Slack person per workspace. A second person
 * linked to someone's care account sees that person's residents and tasks as
 * their own, so every way of linking (an admin's approval, `/care link @person
 * <id>`, linking yourself by email) asks here first; the store's unique index
 * (migration 005) refuses what races past the check.
 */
import { isStoreError, type WorkspaceStore } from '../../store/index.js';
import { UserFacingError } from '../errors.js';
import { escapeMrkdwn } from '../mrkdwn-escape.js';
import type { SlackProfiles } from './slack-profiles.js';

/** Names and emails put into mrkdwn: Slack's three control characters escaped. */

/**
 * That care user is already linked to another Slack person of the workspace.
 * `message` is for a reply (a mention); `plain` for a form's inline error.
 */
export class CareUserTakenError extends UserFacingError {
  override name = 'CareUserTakenError';
  constructor(
    readonly careUserName: string,
    /** The Slack user who has it. */
    readonly linkedTo: string,
    readonly plain: string,
  ) {
    super(
      `*${escapeMrkdwn(careUserName)}* is already linked to <@${linkedTo}>: unlink first (the Unlink button in \`/care links\`, or \`/care unlink @person\`), then link again.`,
      'invalid',
    );
  }
}

export interface LinkGuard {
  /** Refuses (CareUserTakenError) when the care user is linked to someone else of the workspace than `slackUserId`. */
  ensureFree(careUserId: string, slackUserId: string): Promise<void>;
  /** `write` (a link) after ensureFree; a refusal by the store (someone linked them meanwhile) becomes the same error. */
  link<T>(careUserId: string, slackUserId: string, write: () => Promise<T>): Promise<T>;
}

export function createLinkGuard(deps: {
  store: WorkspaceStore;
  profiles: SlackProfiles;
  /** The workspace it guards (bound at composition). */
  teamId: () => Promise<string>;
  careUserName: (careUserId: string) => Promise<string | undefined>;
}): LinkGuard {
  async function taken(careUserId: string, linkedTo: string): Promise<CareUserTakenError> {
    const [name, handle] = await Promise.all([
      deps.careUserName(careUserId).catch(() => undefined),
      deps.profiles.get(linkedTo).then(
        (p) => p.handle,
        () => undefined,
      ),
    ]);
    const careUser = name ?? `Care user ${careUserId}`;
    return new CareUserTakenError(careUser, linkedTo, `${careUser} is already linked to @${handle ?? linkedTo}: unlink first (/care links), then link again.`);
  }

  const guard: LinkGuard = {
    async ensureFree(careUserId, slackUserId) {
      const teamId = await deps.teamId();
      const other = (await deps.store.getLinksByCareUser(careUserId)).find((l) => l.teamId === teamId && l.slackUserId !== slackUserId);
      if (other) throw await taken(careUserId, other.slackUserId);
    },

    async link(careUserId, slackUserId, write) {
      await guard.ensureFree(careUserId, slackUserId);
      try {
        return await write();
      } catch (err) {
        if (!isStoreError(err, 'care-user-taken')) throw err;
        await guard.ensureFree(careUserId, slackUserId);
        throw new UserFacingError('Someone else was linked to that care user a moment ago. Type `/care links` to see who.', 'invalid');
      }
    },
  };
  return guard;
}
