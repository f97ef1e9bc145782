/** What each service that DMs people about an action (assignment, change and creator notices) is built from. */
import type { WebClient } from '@slack/web-api';
import type { CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import type { Deliverer } from './delivery.js';
import type { IdentityService } from '../people/identity.js';
import type { MessageRenderers } from '../renderers.js';
import type { SlackProfiles } from '../people/slack-profiles.js';

export interface DmNoticeDeps<R extends keyof MessageRenderers> {
  care: CareClient;
  store: WorkspaceStore;
  slack: WebClient;
  identity: IdentityService;
  profiles: SlackProfiles;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, R>;
  logger: Logger;
  now: () => Date;
  /** A claim left pending this long is taken over (the deliverer's). */
  staleAfterMs: number;
  /** The workspace whose people it tells (bound at composition: the team of its DMs' recipients). */
  teamId: () => Promise<string>;
}
