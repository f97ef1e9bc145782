/** Every migration, in order. Append new ones at the end; never edit or remove one. */
import { migration001 } from './001-initial.js';
import { migration002 } from './002-seen-requests.js';
import { migration003 } from './003-summary-settings.js';
import { migration004 } from './004-installations.js';
import { migration005 } from './005-seen-events.js';
import { migration006 } from './006-one-person-per-care-user.js';
import { migration007 } from './007-delivery-doubt.js';
import { migration008 } from './008-bot-token-refreshed.js';
import { migration009 } from './009-home-settings.js';
import { migration010 } from './010-retention.js';
import { migration011 } from './011-due-history.js';
import { migration012 } from './012-action-notes.js';
import { migration013 } from './013-episode-answers.js';
import { migration014 } from './014-job-due.js';
import { migration015 } from './015-job-state.js';
import { migration016 } from './016-one-workspace-key.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
];
