/**
 * Bolt's OAuth options for multi-workspace mode ("Add to Slack"), from the
 * configuration: Bolt then serves /slack/install and /slack/oauth_redirect and
 * stores each installation through the `installationStore` the caller adds
 * (installation-store.ts).
 *
 * How a bad or replayed `state` is refused (@slack/oauth 4's InstallProvider,
 * stateVerification on):
 * - /slack/install makes the state and sets it in an HttpOnly, Secure cookie
 *   (`slack-app-oauth-state`, 10 minutes).
 * - /slack/oauth_redirect refuses, before any call to Slack and so storing
 *   nothing, a callback without `state`, one whose `state` differs from the
 *   browser's cookie (not this browser's install), one whose signature does
 *   not verify (forged, or another secret), and one older than 10 minutes.
 *   The answer is the failure page below (400). Every callback answer deletes
 *   the cookie.
 * - Replay: with Bolt's default state store (a JWT signed with
 *   SLACK_STATE_SECRET, no record of use), a request that resends both the
 *   cookie and the state within the 10 minutes passes the state check; only
 *   Slack's single-use `code` then stops it. Pass `stateStore:
 *   oneTimeStateStore(...)` (oauth-state-store.ts) and a state is accepted once:
 *   a second callback with it is refused (400) before Slack is asked, across
 *   instances sharing the store.
 *
 * An org-wide (Enterprise Grid) install is refused after Slack's exchange and
 * before anything is stored (`afterInstallation`): a page (400) tells the person
 * to install the app in each workspace instead (ORG_WIDE_REFUSED).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppOptions, Installation, StateStore } from '@slack/bolt';
import { HISTORY_SCOPES } from '../../services/notices/history-access.js';
import { installPageHtml, resultPageHtml } from './install-pages.js';

/** The bot scopes manifest.yml requires (`oauth_config.scopes.bot`; test/slack/install/oauth-settings.test.ts keeps the two in step). */
export const BOT_REQUIRED_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'users:read.email',
  'im:write',
  'channels:read',
  'groups:read',
  'files:write',
] as const;

/** The bot scopes an installer may decline (`oauth_config.scopes.bot_optional`): the three history scopes. */
export const BOT_OPTIONAL_SCOPES = HISTORY_SCOPES;

/** Every bot scope the install asks for; Slack lets the installer decline the optional ones. */
export const BOT_SCOPES = [...BOT_REQUIRED_SCOPES, ...BOT_OPTIONAL_SCOPES] as const;

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_URI_PATH = '/slack/oauth_redirect';

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
}

export type OAuthSettings = Required<Pick<AppOptions, 'clientId' | 'clientSecret' | 'stateSecret' | 'scopes' | 'installerOptions'>>;

/** The name to greet with: the workspace's, or the org's for an org-wide install. */
export function installedIn(installation: Pick<Installation, 'team' | 'enterprise' | 'isEnterpriseInstall'>): string {
  return (installation.isEnterpriseInstall ? installation.enterprise?.name : installation.team?.name) ?? 'your workspace';
}

export function successSentence(installation: Pick<Installation, 'team' | 'enterprise' | 'isEnterpriseInstall'>): string {
  return `Installed in ${installedIn(installation)}: open Slack and type /care to start; an admin connects the care system from the app's Home tab.`;
}

/**
 * An org-wide (Enterprise Grid) install is refused: care accounts, links, digests and jobs are kept per workspace,
 * and an install keyed by the org would serve none of them. Slack has already granted it when the redirect comes
 * back; nothing of it is stored, and the person is told to install the app in each workspace instead.
 */
export const ORG_WIDE_REFUSED = `Care Actions was not installed: it cannot be installed for a whole Enterprise Grid organisation. Install it in each workspace that uses it instead: start again from ${INSTALL_PATH} and, on Slack's page, choose one workspace (not the organisation). Each workspace then connects its own care system.`;

/** What went wrong, in words for the person installing, and what to try; never the error's own text. */
export function failureSentence(code: string | undefined): { status: number; text: string } {
  switch (code) {
    case 'slack_oauth_missing_state':
    case 'slack_oauth_invalid_state':
      return {
        status: 400,
        text: `Care Actions was not installed: this install link has expired or was opened in another browser. Start again from ${INSTALL_PATH} in this browser and finish within 10 minutes.`,
      };
    case 'slack_oauth_missing_code':
      return { status: 400, text: `Care Actions was not installed: Slack sent no authorisation code. Start again from ${INSTALL_PATH}.` };
    case 'slack_oauth_installer_authorization_error':
      return {
        status: 400,
        text: `Care Actions was not installed: the installation was cancelled or not allowed. Start again from ${INSTALL_PATH}; if your workspace needs approval for apps, ask a workspace admin to approve Care Actions.`,
      };
    default:
      return {
        status: 500,
        text: `Care Actions was not installed: something went wrong on our side or at Slack. Try again from ${INSTALL_PATH} in a few minutes; if it keeps failing, tell whoever runs Care Actions for you the time it happened.`,
      };
  }
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(resultPageHtml(title, text));
}

export interface OAuthOptions {
  /** Replaces Bolt's default state store (see above). */
  stateStore?: StateStore | undefined;
  /** Another Slack (the local fake): its Web API for oauth.v2.access, and its authorize page. */
  slackApiUrl?: string | undefined;
  /** Told of an org-wide install that was refused (not stored): to log it, and to give its bot token back to Slack. */
  onOrgWideRefused?: ((installation: Installation) => Promise<void>) | undefined;
}

/** Pure: Bolt's OAuth options (add `installationStore`). */
export function oauthSettings(config: OAuthConfig, options: OAuthOptions = {}): OAuthSettings {
  return {
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    stateSecret: config.stateSecret,
    scopes: [...BOT_SCOPES],
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_URI_PATH,
      // A page with an "Add to Slack" button (it sets the state cookie), not a redirect.
      directInstall: false,
      // Bolt's own page has no language or title (WCAG 2.2 A); ours does (install-pages.ts).
      renderHtmlForInstallPath: installPageHtml,
      // See the file comment for what this refuses.
      stateVerification: true,
      ...(options.stateStore ? { stateStore: options.stateStore } : {}),
      ...(options.slackApiUrl
        ? { clientOptions: { slackApiUrl: options.slackApiUrl }, authorizationUrl: new URL('/oauth/v2/authorize', options.slackApiUrl).href }
        : {}),
      callbackOptions: {
        // Before it is stored: an org-wide install is refused (nothing stored, no "installed" DM).
        afterInstallation: async (installation: Installation, _options: unknown, _req: IncomingMessage, res: ServerResponse) => {
          if (installation.isEnterpriseInstall !== true) return true;
          await options.onOrgWideRefused?.(installation).catch(() => undefined);
          page(res, 400, 'Care Actions was not installed', ORG_WIDE_REFUSED);
          return false;
        },
        success: (installation: Installation, _options: unknown, _req: IncomingMessage, res: ServerResponse) => {
          // Whom to tell what (the first installer, or the admins when someone else installed again) is decided where it is stored.
          page(res, 200, 'Care Actions is installed', successSentence(installation));
        },
        failure: (error: { code?: string }, _options: unknown, _req: IncomingMessage, res: ServerResponse) => {
          const { status, text } = failureSentence(error.code);
          page(res, status, 'Care Actions was not installed', text);
        },
      },
    },
  };
}
