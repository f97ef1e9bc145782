/**
 * A protocol-faithful Slack fake: a local Web API for the real Bolt/WebClient
 * (`clientOptions.slackApiUrl = fake.apiUrl`) and a driver that acts like
 * people in Slack by sending the app signed requests.
 */
export { startSlackFake, type SlackFake, type SlackFakeOptions, type WorkspaceInstall } from './start-fake.js';
export { DEFAULT_OAUTH_APP, OAUTH_CODE_LIFETIME_MS, type OAuthAppConfig } from './oauth.js';
export type { TokenRefreshRecord, TokenRotationConfig } from './oauth-refresh.js';
export type { InstallResult } from './driver/install.js';
export { createSlackDriver, SlackDriver, type SlackDriverOptions, type DriverResult, type ConfirmAnswer } from './driver/driver.js';
export { ModalHandle, REQUIRED_FIELD, type SubmitResult } from './driver/modal-handle.js';
export { TROUBLE_CONNECTING, type SubmitOutcome } from './driver/apply-ack.js';
export type { Where } from './driver/locate.js';
export type { PersonInput } from './driver/state-values.js';
export type { AppAnswer } from './driver/send.js';
export type { Delivery, Transport } from './driver/transport.js';
export type { FakeSocketMode, SocketConnectionInfo, EnvelopeRecord, SocketAnswer } from './socket/socket-mode.js';
export type { DisconnectReason, EnvelopeType } from './socket/messages.js';
export { slackSignature } from './driver/sign.js';
export {
  demoWorkspace,
  secondDemoWorkspace,
  DEFAULT_BOT_SCOPES,
  type Workspace,
  type WorkspaceUser,
  type WorkspaceChannel,
  type OrgWideInstall,
} from './workspace.js';
export { manualClock, systemClock, type Clock, type ManualClock } from './clock.js';
export { DEFAULT_POST_RATE_LIMIT, type PostRateLimit } from './rate-limiter.js';
export { RATE_TIERS, TIER_PER_MINUTE, type RateTier } from './api/rate-tiers.js';
export { DISTRIBUTED_PAGE_LIMIT, DISTRIBUTED_READS_PER_MINUTE, type AppDistribution } from './app-distribution.js';
export type { RateLimitReport, RateLimitedCall, RepeatedCall, HistoryReadMinute } from './rate-limit-log.js';
export type { Faults, FaultFailure, FaultConfig } from './faults.js';
export type { AckStats } from './ack-stats.js';
export type { ChannelMessage, OpenModal, UploadedFile } from './readers.js';
export type { WaitOptions } from './wait-for.js';
export { LIMITS } from './block-kit/limits.js';
export { TRIGGER_LIFETIME_MS } from './triggers.js';
export { RESPONSE_URL_LIFETIME_MS, RESPONSE_URL_MAX_USES } from './response-urls.js';
export type * from './types.js';
