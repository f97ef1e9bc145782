/**
 * A person of another workspace is refused, whatever the payload kind. A request acts in the installation Bolt
 * authorised it for (`authorizedWorkspace`, workspace-on-context.ts).
 *
 * Identity and workspace must agree: where the payload says the person is of
 * another workspace (an interaction's `user.team_id` or `team.id`, an event's
 * `user_team`), nothing runs. They are told that this app is not set up for
 * their workspace. So wherever a listener runs, the payload's team is the
 * workspace it acts in, and its services and store are that workspace's.
 *
 * An org-wide install spans the org's workspaces, whose Ids the payload does
 * not tie to the org: there only the enterprise is checked.
 */
import type { AnyMiddlewareArgs, App, Context } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import { safeRespond } from '../respond.js';
import { messageModal } from '../views/simple-modals.js';
import { authorizedWorkspace } from '../workspace-on-context.js';

export const NOT_YOUR_WORKSPACE =
  'This app is not set up for your workspace: the Care Actions you used belongs to another organisation’s Slack, so it cannot act for you. Ask an admin of your own workspace about installing Care Actions there.';

type Body = Record<string, unknown>;
const idOf = (value: unknown): string | undefined => {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
};
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Pure: the workspace the payload says its person is of, when that is not the one the request acts in; undefined when they agree. */
export function foreignTeamOf(context: Context, body: Body): string | undefined {
  const workspaceId = authorizedWorkspace(context);
  if (!workspaceId) return undefined;
  if (context.isEnterpriseInstall) {
    const enterprise = idOf(body.enterprise) ?? str((body.team as { enterprise_id?: unknown } | null | undefined)?.enterprise_id) ?? str(body.enterprise_id);
    return enterprise && enterprise !== workspaceId ? enterprise : undefined;
  }
  const event = body.type === 'event_callback' ? (body.event as Body | undefined) : undefined;
  const claimed = event
    ? [str(event.user_team)]
    : [str((body.user as { team_id?: unknown } | undefined)?.team_id), idOf(body.team), 'command' in body ? str(body.team_id) : undefined];
  return claimed.find((team) => team !== undefined && team !== workspaceId);
}

type AnyArgs = AnyMiddlewareArgs & {
  context: Context;
  next: () => Promise<void>;
  client: import('@slack/web-api').WebClient;
  ack?: (response?: unknown) => Promise<void>;
  respond?: (message: Record<string, unknown>) => Promise<unknown>;
};

/** Answer a person of another workspace, in the way the payload allows, and run nothing else. */
async function refuse(args: AnyArgs, body: Body, logger: Logger): Promise<void> {
  const ack = typeof args.ack === 'function' ? args.ack : undefined;
  if (body.type === 'view_submission') {
    await ack?.({ response_action: 'update', view: messageModal('Care Actions', NOT_YOUR_WORKSPACE) });
    return;
  }
  if (body.type === 'block_suggestion') {
    await ack?.({ options: [] });
    return;
  }
  if ('command' in body) {
    await ack?.({ response_type: 'ephemeral', text: NOT_YOUR_WORKSPACE });
    return;
  }
  await ack?.();
  if (!ack || body.type === 'view_closed') return; // an event: nobody to answer
  if (await safeRespond(args.respond, { response_type: 'ephemeral', replace_original: false, text: NOT_YOUR_WORKSPACE }, logger)) return;
  const trigger = str(body.trigger_id);
  if (trigger)
    await args.client.views
      .open({ trigger_id: trigger, view: messageModal('Care Actions', NOT_YOUR_WORKSPACE) })
      .catch((error: unknown) => logger.warn('could not tell someone of another workspace why nothing happened', { error }));
}

/** Registered before every other middleware: a request whose person is of another workspace runs nothing. */
export function registerWorkspaceCheck(app: App, logger: Logger): void {
  app.use(async (raw) => {
    const args = raw as unknown as AnyArgs;
    const body = args.body as unknown as Body;
    const foreign = foreignTeamOf(args.context, body);
    if (!foreign) return args.next();
    logger.info('a request from a person of another workspace was refused', { team: authorizedWorkspace(args.context), personTeam: foreign, type: body.type });
    await refuse(args, body, logger);
  });
}
