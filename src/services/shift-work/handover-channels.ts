/**
 * The channels a care home hands over in, kept in its settings under
 * `handover-channels` (a JSON list), each with its privacy rule as the admin
 * set it up. Task text follows the digests' rule: shown only where the admin
 * opted the channel in (`--show-tasks`), and in a public channel only with a
 * second, explicit step (`--show-tasks --public`), since everyone in the
 * workspace, guests included, can read it. An opt-in given while the channel
 * was private does not carry over once it is public.
 */
import type { WorkspaceStore } from '../../store/index.js';

export const HANDOVER_CHANNELS_SETTING = 'handover-channels';

export interface HandoverChannel {
  channelId: string;
  /** The admin asked for task text here. */
  showTasks: boolean;
  /** The channel was private when it was set up. */
  channelPrivate: boolean;
  /** Task text in a public channel was confirmed (`--public`): the second step. */
  publicConfirmed: boolean;
  setUpBy: string;
  /** When it was set up (ms, the app's clock): the first handover is the next shift change. */
  at: number;
}

/** Whether task text may appear in the channel now, given whether it is private now (null: unknown, hidden). */
export function showTasksNow(ch: HandoverChannel, privateNow: boolean | null): boolean {
  if (!ch.showTasks || privateNow === null) return false;
  if (privateNow) return true;
  return ch.publicConfirmed && !ch.channelPrivate;
}

export async function handoverChannels(store: Pick<WorkspaceStore, 'getHomeSetting'>): Promise<HandoverChannel[]> {
  const row = await store.getHomeSetting(HANDOVER_CHANNELS_SETTING);
  if (!row) return [];
  try {
    const list = JSON.parse(row.value) as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter(
      (c): c is HandoverChannel =>
        typeof c === 'object' && c !== null && typeof (c as HandoverChannel).channelId === 'string' && typeof (c as HandoverChannel).at === 'number',
    );
  } catch {
    return [];
  }
}

export async function saveHandoverChannels(store: Pick<WorkspaceStore, 'setHomeSetting'>, list: HandoverChannel[], by: string): Promise<void> {
  await store.setHomeSetting(HANDOVER_CHANNELS_SETTING, list.length ? JSON.stringify(list) : null, by);
}
