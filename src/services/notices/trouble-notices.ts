/**
 * Telling a workspace's admins, once, that its scheduled work keeps failing
 * (the care API is down, its key was revoked...) and, once, that it works
 * again. One DM per admin per trouble episode, through the delivery ledger,
 * so neither a second instance nor the next failing poll tells them again.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import type { Deliverer } from './delivery.js';

export interface Trouble {
  /** When the episode began (ms): the episode's identity. */
  since: number;
  failures: number;
  error?: string;
  kind?: string;
}

/** Where a deployment's care account is connected: a workspace's Home tab (many workspaces) or the environment (one). */
export type ReconnectWhere = 'home-tab' | 'environment';

const RECONNECT: Record<ReconnectWhere, string> = {
  'home-tab': "a Care Actions admin reconnects it from the app's *Home* tab",
  environment: 'whoever runs Care Actions sets the new key and secret (CARE_API_KEY, CARE_API_SECRET) and restarts it',
};

export interface WorkspaceTroubleDeps {
  teamId: string;
  /** Where a changed or revoked key is put right (default: the Home tab). */
  reconnect?: ReconnectWhere;
  deliverer: Deliverer;
  /** The DM channel with a person (dm-channels.ts). */
  dm: (userId: string) => Promise<string>;
  /** Who to tell: the workspace's Care Actions admins. */
  admins: () => string[];
  /** The workspace's time zone: the DMs say when ("09:14 on Mon 23 Nov") in it. */
  timezone: string;
}

const WHAT: Record<string, string> = {
  'changes-poll': 'completion notices, urgent alerts and assignment DMs',
  digests: 'channel digests',
  summaries: 'morning summaries',
};

/** Pure: the DM's words. */
export function troubleText(trouble: Trouble, at: string, reconnect: ReconnectWhere = 'home-tab'): string {
  const paused = WHAT[trouble.kind ?? ''] ?? 'scheduled work';
  return [
    `:warning: Care Actions cannot work with your care system since ${at}: ${trouble.error ?? 'it did not answer'}.`,
    `Its ${paused} wait and catch up by themselves once it answers; nothing is lost. Nothing else is needed if the care system is only down for a while.`,
    `If its API key was changed or revoked, ${RECONNECT[reconnect]}. You are told once; another message follows when it works again.`,
  ].join('\n');
}

export function recoveredText(at: string): string {
  return `:white_check_mark: Care Actions works with your care system again (since ${at}); what waited is on its way.`;
}

/** "09:14 on Mon 23 Nov" in `timezone`. */
export const troubleTime = (ms: number, timezone: string): string => format(new TZDate(ms, timezone), "HH:mm 'on' EEE d MMM");

export function createWorkspaceTrouble(deps: WorkspaceTroubleDeps) {
  const at = (ms: number) => troubleTime(ms, deps.timezone);
  const tell = async (kind: string, occurrence: string, text: string) => {
    const results = await Promise.all(
      deps
        .admins()
        .map((userId) =>
          deps.deliverer.deliver({ kind, actionId: '-', occurrence, recipient: `user:${deps.teamId}/${userId}` }, () => deps.dm(userId), { text }),
        ),
    );
    if (results.includes('failed')) throw new Error(`a ${kind} DM to an admin could not be sent`);
  };
  return {
    /** The first failure of an episode: rejects when a DM could not be sent (the scheduler tries again at the next failure). */
    troubled: (trouble: Trouble) => tell('workspace-trouble', String(trouble.since), troubleText(trouble, at(trouble.since), deps.reconnect)),
    recovered: (trouble: Trouble, now: number) => tell('workspace-recovered', String(trouble.since), recoveredText(at(now))),
  };
}
