import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { App } from '@slack/bolt';
import { boltLogger } from './receivers/bolt-logger.js';
import type { SlackPacer } from './web-api/slack-pacer.js';
import type { BotTokenSource } from './token-rotation/bot-token.js';
import { type SlackFetch, slackClientOptions } from './web-api/web-clients.js';
import type { SlackDeps } from './deps.js';
import { createHttpReceiver, type HttpReceiverOptions } from './receivers/http-receiver.js';
import type { Logger } from '../logging/logger.js';
import { registerCompleteReopen } from './listeners/actions/complete-reopen.js';
import { registerEditButton } from './listeners/actions/edit-action.js';
import { registerHomePageButtons } from './listeners/actions/home-pages.js';
import { registerLinkRequestButtons } from './listeners/actions/link-requests.js';
import { registerMoreOptionsButton } from './listeners/actions/more-options.js';
import { registerNewActionButton } from './listeners/actions/new-action.js';
import { registerOpenInCare } from './listeners/actions/open-in-care.js';
import { registerReminderWhen } from './listeners/actions/reminder-when.js';
import { registerRetryDeliveryButton } from './listeners/actions/retry-delivery.js';
import { registerShareLiterature } from './listeners/actions/share-literature.js';
import { registerSummaryButtons } from './listeners/actions/summary-buttons.js';
import { registerSnooze } from './listeners/actions/snooze.js';
import { registerTakeItButton } from './listeners/actions/take-it.js';
import { registerFollowUpButtons } from './listeners/actions/follow-up.js';
import { registerAnswerButtons } from './listeners/actions/answer-buttons.js';
import { registerAnswerSubmits } from './listeners/views/answer-submit.js';
import { registerReassignUndoButton } from './listeners/actions/reassign-undo.js';
import { registerReassignWorkButton } from './listeners/actions/reassign-work.js';
import { registerHomeLocationMenu } from './listeners/actions/home-location.js';
import { registerUndoButton } from './listeners/actions/undo.js';
import { registerViewButton } from './listeners/actions/view-card.js';
import { registerHistoryButton } from './listeners/actions/history.js';
import { registerShowTasksButton } from './listeners/actions/show-tasks.js';
import { registerHandoverAcceptButton } from './listeners/actions/handover-accept.js';
import { registerHandoverUndoButton } from './listeners/actions/handover-undo.js';
import { registerUnlinkButton } from './listeners/actions/unlink.js';
import { registerForgetPersonButtons } from './listeners/actions/forget-person.js';
import { registerCareCommand } from './listeners/commands/index.js';
import { registerAppHomeOpened } from './listeners/events/app-home-opened.js';
import { registerAssigneeOptions } from './listeners/options/assignees.js';
import { registerCareUserOptions } from './listeners/options/care-users.js';
import { registerNotifyGroupOptions } from './listeners/options/notify-groups.js';
import { registerCreateFromMessage } from './listeners/shortcuts/create-from-message.js';
import { registerActionFormSubmit } from './listeners/views/action-form-submit.js';
import { registerApproveLinkModal } from './listeners/views/approve-link-submit.js';
import { registerSummaryModal } from './listeners/views/summary-submit.js';
import { registerSnoozeConfirmSubmit } from './listeners/views/snooze-confirm-submit.js';
import { registerNoteMenu } from './listeners/actions/note-menu.js';
import { registerNoteSubmit } from './listeners/views/note-submit.js';
import { registerSnoozeSubmit } from './listeners/views/snooze-submit.js';
import { registerReassignSubmit } from './listeners/views/reassign-submit.js';
import type { ReplayGuard } from './receivers/replay-guard.js';
import { SocketModeConnections, type SocketRoute } from './receivers/socket-receiver.js';
import { registerWorkspaceCheck } from './tenancy/request-workspace.js';
import { registerOneWorkspace } from './workspace-on-context.js';
import { registerOneWorkspaceUninstall } from './listeners/events/uninstalled.js';

export interface SlackAppOptions {
  /** One workspace: its bot token. Many: leave it out and give `oauth` (each request is authorised by its installation). */
  botToken?: string | undefined;
  /** Multi-workspace mode (HTTP only): "Add to Slack" and the installation store Bolt authorises requests from. */
  oauth?: HttpReceiverOptions['oauth'];
  /** Registered before every listener: a deployment serving many workspaces resolves the request's workspace here and puts it on the context (tenancy/). */
  beforeListeners?: ((app: App) => void) | undefined;
  /** Where the receiver and unhandled listener errors are logged (default: deps.logger). */
  logger?: Logger | undefined;
  signingSecret: string;
  /** Socket Mode when set (xapp-...); HTTP receiver otherwise. */
  appToken?: string | undefined;
  /** Another Web API (the local Slack fake), e.g. http://127.0.0.1:PORT/api/ */
  slackApiUrl?: string | undefined;
  /** Answers GET /healthz: 200 when every check passes, 503 otherwise. */
  health?: () => Promise<Record<string, { ok: boolean; detail?: string }>>;
  /** HTTP only: refuses a replayed signed request and a timestamp more than 5 minutes ahead (see replay-guard.ts). */
  replayGuard?: ReplayGuard | undefined;
  /** Socket Mode only: connections held open at once (default 2, see socket-receiver.ts). */
  socketConnections?: number | undefined;
  /** Metrics: GET /metrics (when served on this port), the Web API's fetch, and each ack's latency. */
  metrics?: SlackAppMetrics | undefined;
  /** Paces Bolt's own Web API calls with every other client of the process (slack-pacer.ts). */
  pacer?: SlackPacer | undefined;
  /**
   * One workspace: the app was uninstalled from it (`app_uninstalled`, or the bot's tokens revoked). Many
   * workspaces leave it out: the tenancy middleware forgets the workspace the event names.
   */
  onUninstalled?: ((workspaceId: string, why: 'app_uninstalled' | 'tokens_revoked') => Promise<void>) | undefined;
  /** Token rotation (many workspaces): Bolt's per-request client calls with the current token of the workspace whose token it was given. */
  botTokens?: ((token: string) => BotTokenSource | undefined) | undefined;
}

export interface SlackAppMetrics {
  route?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  fetch?: SlackFetch | undefined;
  onAck?: ((transport: 'http' | 'socket', ms: number) => void) | undefined;
}

export interface SlackApp {
  app: App;
  start(port: number, host?: string): Promise<{ port: number }>;
  stop(): Promise<void>;
}

async function healthRoute(check: SlackAppOptions['health'], res: ServerResponse) {
  const checks = check ? await check().catch(() => ({ app: { ok: false, detail: 'health check failed' } })) : {};
  const ok = Object.values(checks).every((c) => c.ok);
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok, checks }));
}

/**
 * The Bolt app with every listener registered; thin listeners over the services of the request's
 * workspace, which they read from Bolt's context (workspace-on-context.ts: `depsOf`).
 * One workspace: `deps` are its services, put on every request's context. Many (`oauth`): leave
 * `deps` out; the tenancy middleware (`beforeListeners`) puts each request's workspace's there.
 */
export function createSlackApp(options: SlackAppOptions, deps?: SlackDeps): SlackApp {
  if (!options.oauth && !deps)
    throw new Error("createSlackApp: one workspace needs its deps (many workspaces: give `oauth` and put each workspace's deps in `beforeListeners`)");
  const appLogger = options.logger ?? deps?.logger;
  if (!appLogger) throw new Error("createSlackApp: give `logger` (or the one workspace's deps)");
  const logger = boltLogger(appLogger);
  const { metrics } = options;
  const customRoutes: SocketRoute[] = [
    { path: '/healthz', method: ['GET'], handler: (_req: IncomingMessage, res: ServerResponse) => void healthRoute(options.health, res) },
  ];
  if (metrics?.route) customRoutes.push({ path: '/metrics', method: ['GET'], handler: metrics.route });
  const onAck = metrics?.onAck;
  // Socket Mode requests are not signed: the replay guard is for HTTP only.
  const sockets = options.appToken
    ? new SocketModeConnections({
        appToken: options.appToken,
        connections: options.socketConnections,
        slackApiUrl: options.slackApiUrl,
        logger,
        routes: customRoutes,
        fetch: metrics?.fetch,
        onAck: onAck && ((ms) => onAck('socket', ms)),
      })
    : undefined;
  const receiver =
    sockets ??
    createHttpReceiver({
      signingSecret: options.signingSecret,
      customRoutes,
      boltLogger: logger,
      replayGuard: options.replayGuard,
      logger: appLogger,
      oauth: options.oauth,
      onAck: onAck && ((ms) => onAck('http', ms)),
    });
  const app = new App({
    ...(options.botToken ? { token: options.botToken } : {}),
    receiver,
    logger,
    clientOptions: slackClientOptions('interactive', {
      apiUrl: options.slackApiUrl,
      fetch: metrics?.fetch,
      pacer: options.pacer,
      botTokens: options.botTokens,
    }),
  });

  // Identity and workspace agree, or nothing runs (a person of another workspace through Slack Connect).
  registerWorkspaceCheck(app, appLogger);
  // The request's workspace and its deps on its context (workspace-on-context.ts): one workspace's here, many's in the tenancy middleware.
  if (!options.oauth) registerOneWorkspace(app, deps);
  if (!options.oauth && options.onUninstalled) registerOneWorkspaceUninstall(app, options.onUninstalled);
  options.beforeListeners?.(app);
  registerCareCommand(app);
  registerCompleteReopen(app);
  registerViewButton(app);
  registerHistoryButton(app);
  registerUndoButton(app);
  registerTakeItButton(app);
  registerFollowUpButtons(app);
  registerAnswerButtons(app);
  registerAnswerSubmits(app);
  registerReassignWorkButton(app);
  registerReassignUndoButton(app);
  registerHomeLocationMenu(app);
  registerEditButton(app);
  registerSnooze(app);
  registerSnoozeSubmit(app);
  registerReassignSubmit(app);
  registerSnoozeConfirmSubmit(app);
  registerNoteMenu(app);
  registerNoteSubmit(app);
  registerOpenInCare(app);
  registerNewActionButton(app);
  registerHomePageButtons(app);
  registerShareLiterature(app);
  registerUnlinkButton(app);
  registerForgetPersonButtons(app);
  registerShowTasksButton(app);
  registerHandoverAcceptButton(app);
  registerHandoverUndoButton(app);
  registerRetryDeliveryButton(app);
  registerLinkRequestButtons(app);
  registerMoreOptionsButton(app);
  registerReminderWhen(app);
  registerActionFormSubmit(app);
  registerApproveLinkModal(app);
  registerSummaryButtons(app);
  registerSummaryModal(app);
  registerNotifyGroupOptions(app);
  registerCareUserOptions(app);
  registerAssigneeOptions(app);
  registerCreateFromMessage(app);
  registerAppHomeOpened(app);

  // Anything a listener did not handle: log without payloads; the person already got an ack.
  app.error(async (error) => {
    appLogger.error('unhandled error in a Slack listener', { code: (error as { code?: string }).code, error: { name: error.name, message: error.message } });
  });

  return {
    app,
    async start(port, host = '127.0.0.1') {
      // Socket Mode: the port serves /healthz only; Slack's requests come over the app's own connections.
      if (sockets) return sockets.start(port, host);
      const server = (await app.start({ port, host })) as Server;
      const address = server.address();
      return { port: typeof address === 'object' && address ? address.port : port };
    },
    async stop() {
      await app.stop();
    },
  };
}
