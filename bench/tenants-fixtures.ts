/**
 * What bench/tenants.ts and its memory probe (bench/tenants-memory.ts) share:
 * the generated Slack workspaces (one per care account), the store rows an
 * install and a connect would have left (written directly: installing through
 * OAuth 200 times is not what is measured), and one instance's settings.
 */
import { type CareHost, parseCareApiHosts } from '../src/services/admin/care-hosts.js';
import type { MultiAppSettings } from '../src/compose-multi.js';
import { KeyRing } from '../src/crypto/key-ring.js';
import type { Logger } from '../src/logging/logger.js';
import type { SandboxAccountInfo } from '../dev/sandbox/index.js';
import type { WorkspaceInstall } from '../dev/slack-fake/index.js';
import { BOT_SCOPES } from '../src/slack/install/oauth-settings.js';
import type { Store } from '../src/store/index.js';

export const TZ = 'Europe/London';
/** A Tuesday; the digests are at 08:00 London time (07:00 UTC, summer time). */
export const DIGEST_AT = new Date('2027-06-15T07:00:00Z');
export const CHANNELS_PER_WORKSPACE = 3;
export const PEOPLE_PER_WORKSPACE = 4;
export const OAUTH = { clientId: '111.222', clientSecret: 'bench-client-secret', stateSecret: 'bench-state-secret-0123456789' };
export const SIGNING_SECRET = 'bench-signing-secret';

const pad = (i: number) => String(i).padStart(4, '0');
export const teamIdOf = (i: number) => `T0BENCH${pad(i)}`;
export const botTokenOf = (i: number) => `xoxb-${teamIdOf(i)}-bench-bot-token`;
export const channelIdOf = (i: number, c: number) => `C${pad(i)}DIGEST${c}`;

/** Workspace i (0-based): four of care account i's staff (same emails), three digest channels the bot is in. */
export function benchWorkspace(i: number, account: SandboxAccountInfo): WorkspaceInstall {
  const bot = `U${pad(i)}BOT`;
  const users = account.people.slice(0, PEOPLE_PER_WORKSPACE).map((p, k) => ({
    id: `U${pad(i)}P${k}`,
    name: `${p.first_name.toLowerCase()}${k}`,
    realName: `${p.first_name} ${p.last_name}`,
    email: p.email,
    tz: TZ,
    ...(k === 0 ? { isAdmin: true, isOwner: true } : {}),
  }));
  const members = [...users.map((u) => u.id), bot];
  return {
    team: { id: teamIdOf(i), name: `${account.name} ${i}`, domain: `bench-${i}` },
    bot: { userId: bot, botId: `B${pad(i)}BOT`, appId: 'A0CAREAPP', name: 'care-actions', scopes: [...BOT_SCOPES] },
    users,
    channels: Array.from({ length: CHANNELS_PER_WORKSPACE }, (_, c) => ({ id: channelIdOf(i, c + 1), name: `digest-${c + 1}`, members })),
    botToken: botTokenOf(i),
  };
}

/**
 * The rows of workspace i: its installation (bot token), its care connection
 * (account i) and three digests at 08:00 daily: everything, urgent only (with
 * live alerts), everything again (two distinct queries per workspace).
 */
export async function seedWorkspace(store: Store, i: number, w: WorkspaceInstall, careUrl: string, account: SandboxAccountInfo): Promise<void> {
  const teamId = w.team.id;
  const admin = w.users[0]!.id;
  await store.saveInstallation({
    isEnterpriseInstall: false,
    teamId,
    teamName: w.team.name,
    appId: w.bot.appId,
    bot: { token: botTokenOf(i), scopes: w.bot.scopes, id: w.bot.botId, userId: w.bot.userId },
    user: { id: admin },
  });
  await store.setCareConnection({
    workspaceId: teamId,
    baseUrl: careUrl,
    accountId: account.accountId,
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
    connectedBy: admin,
  });
  for (const [c, channel] of w.channels.entries()) {
    const urgentOnly = c === 1;
    await store.upsertSubscription({
      teamId,
      channelId: channel.id,
      time: '08:00',
      days: 'daily',
      timeZone: TZ,
      filters: urgentOnly ? { urgentOnly: true } : {},
      showTaskText: false,
      postWhenEmpty: true,
      urgentAlerts: urgentOnly,
      channelPrivate: false,
      setUpBy: admin,
      setUpAt: DIGEST_AT.getTime() - 86_400_000,
    });
  }
}

/** A PostgreSQL URL whose connections use `schema`. */
export function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** One instance: the shared database and key, its own name; care clients paced at the real limit (10 req/s per key). */
function careApiHostsOf(text: string): CareHost[] {
  const parsed = parseCareApiHosts(text);
  if (!parsed.ok) throw new Error(`CARE_API_HOSTS ${parsed.problem}`);
  return parsed.hosts;
}

export function instanceSettings(o: {
  instanceId: string;
  databaseUrl: string;
  dataDir: string;
  key: Buffer;
  slackApiUrl: string;
  now: () => Date;
  logger: Logger;
  /** A workspace's runs of one kind at once on this instance (the app's default, 8, when unset). */
  jobConcurrency?: number | undefined;
  /** The sandbox's host:port (on 127.0.0.1): allowed explicitly, as CARE_API_HOSTS does. */
  careApiHost: string;
}): MultiAppSettings {
  return {
    slack: { signingSecret: SIGNING_SECRET, ...OAUTH, apiUrl: o.slackApiUrl },
    keyRing: new KeyRing([o.key]),
    care: { rateLimitPerSecond: 10 },
    store: { databaseUrl: o.databaseUrl, dataDir: o.dataDir },
    timezone: TZ,
    logger: o.logger,
    now: o.now,
    jobs: { instanceId: o.instanceId, pollSeconds: 60 },
    ...(o.jobConcurrency ? { jobConcurrency: o.jobConcurrency } : {}),
    careApiHosts: careApiHostsOf(o.careApiHost),
  };
}
