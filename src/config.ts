import { z } from 'zod';
import { parseKeyRing } from './crypto/key-ring.js';
import { parseCareApiHosts } from './services/admin/care-hosts.js';
import { careWebTemplateProblem } from './services/care-web-link.js';
import { isValidTimeZone } from './time/zones.js';
import { defaultPollSeconds, MIN_POLL_SECONDS } from './jobs/poll-interval.js';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const required = (what: string) =>
  z
    .string({ error: `is required (${what})` })
    .trim()
    .min(1, `is required (${what})`);

const CARE_URL_HINT = 'e.g. https://api.carehq.co.uk/v1';

const EnvSchema = z.object({
  // Required in single-workspace mode, refused in multi-workspace mode (checked below).
  SLACK_BOT_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xoxb-'), 'must start with xoxb-'),
  // Optional in single-workspace mode: the bot token's team (T…), so a first start need not ask Slack (auth.test); refused in multi-workspace mode.
  SLACK_TEAM_ID: optionalString.refine((v) => v === undefined || /^T[A-Z0-9]+$/.test(v), 'must be a Slack team id (T followed by capitals and digits)'),
  SLACK_SIGNING_SECRET: required("the app's signing secret"),
  SLACK_APP_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xapp-'), 'must start with xapp- (Socket Mode app token)'),
  SLACK_API_URL: optionalString.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  // The care account of single-workspace mode (required there, checked below); in multi-workspace mode each workspace connects its own.
  CARE_API_BASE_URL: optionalString.refine((v) => v === undefined || URL.canParse(v), `must be a URL (${CARE_URL_HINT})`),
  CARE_ACCOUNT_ID: optionalString,
  CARE_API_KEY: optionalString,
  CARE_API_SECRET: optionalString,
  // Multi-workspace mode ("Add to Slack"): all four set and no SLACK_BOT_TOKEN (checked below).
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_STATE_SECRET: optionalString.refine(
    (v) => v === undefined || v.length >= 16,
    'must be at least 16 characters: it signs the OAuth state (e.g. openssl rand -hex 32)',
  ),
  ENCRYPTION_KEY: optionalString.superRefine((v, ctx) => {
    if (v === undefined) return;
    try {
      parseKeyRing(v);
    } catch (error) {
      // KeyRingError names the key's position, never its value.
      ctx.addIssue({ code: 'custom', message: `is not usable: ${(error as Error).message}` });
    }
  }),
  CARE_WEB_URL: optionalString.superRefine((v, ctx) => {
    const problem = v === undefined ? null : careWebTemplateProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  // Many workspaces: the care API hosts admins may connect to (an allow-list); unset = any public https host.
  CARE_API_HOSTS: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const parsed = parseCareApiHosts(v);
    if (parsed.ok) return parsed.hosts;
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  }),
  // Days after an action is completed that the app's own posts and DMs about it are edited down to a neutral
  // line: 0 at once, off never (many workspaces: the default until a workspace sets its own).
  RETENTION_DAYS: z
    .string()
    .default('30')
    .transform((v, ctx) => {
      const word = v.trim().toLowerCase();
      if (word === 'off') return 'off' as const;
      if (/^\d{1,4}$/.test(word) && Number(word) <= 3650) return Number(word);
      ctx.addIssue({ code: 'custom', message: 'must be a whole number of days from 0 to 3650 (0: at once), or off to keep messages' });
      return z.NEVER;
    }),
  CARE_RATE_LIMIT: z.coerce.number().int('must be a whole number').positive('must be above 0').default(10),
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || /^(postgres|postgresql):\/\//.test(v),
    'must start with postgres:// or postgresql:// (leave it unset for SQLite under DATA_DIR)',
  ),
  DATA_DIR: z.string().default('./data'),
  APP_TIMEZONE: z.string().default('Europe/London').refine(isValidTimeZone, 'must be an IANA time zone such as Europe/London'),
  ADMIN_SLACK_USER_IDS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((ids) => ids.every((id) => /^[UW][A-Z0-9]+$/.test(id)), 'must be a comma list of Slack user Ids (U...)'),
  PORT: z.coerce.number().int('must be a whole number').min(0).max(65535, 'must be a port number').default(3000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent'], { error: 'must be one of debug, info, warn, error, silent' }).default('info'),
  // Unset: as often as 3% of CARE_RATE_LIMIT pays for, at least 6 s apart (jobs/poll-interval.ts); 6 s at 10 requests a second.
  COMPLETION_POLL_SECONDS: optionalString.pipe(
    z.coerce
      .number<string | undefined>({ error: 'must be a whole number of seconds' })
      .int('must be a whole number of seconds')
      .min(MIN_POLL_SECONDS, `must be at least ${MIN_POLL_SECONDS}`)
      .optional(),
  ),
  INSTANCE_ID: optionalString,
  METRICS_PORT: optionalString.pipe(
    z.coerce
      .number<string | undefined>({ error: 'must be a port number' })
      .int('must be a whole number')
      .min(1, 'must be a port number')
      .max(65535, 'must be a port number')
      .optional(),
  ),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters (e.g. openssl rand -hex 32)'),
  // Many workspaces: the app is in Slack's Marketplace (approved), so Slack's 2025 limit on history reads of
  // distributed apps (1 a minute, 15 a page) does not apply to it.
  SLACK_MARKETPLACE_APPROVED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
});

/** What multi-workspace mode needs, in the order problems are reported. */
export const MULTI_WORKSPACE_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'ENCRYPTION_KEY'] as const;
const OAUTH_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
const SINGLE_REQUIRED = {
  SLACK_BOT_TOKEN: 'the bot token, xoxb-...; or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and ENCRYPTION_KEY to serve many workspaces',
  CARE_API_BASE_URL: CARE_URL_HINT,
  CARE_ACCOUNT_ID: 'the care account Id',
  CARE_API_KEY: 'the care API key',
  CARE_API_SECRET: 'the care API secret',
} as const;

type Env = z.infer<typeof CheckedEnvSchema>;

const present = (env: Record<string, string | undefined>, name: string) => (env[name] ?? '').trim() !== '';

/**
 * The mode: multi-workspace when any of the OAuth variables is set (then all
 * four multi-workspace variables are required and SLACK_BOT_TOKEN is refused),
 * else single-workspace. ENCRYPTION_KEY alone does not choose a mode.
 */
const modeOf = (env: Record<string, string | undefined>): 'single' | 'multi' => (OAUTH_VARIABLES.some((name) => present(env, name)) ? 'multi' : 'single');

/** What each mode requires, judged on the raw env so it is reported together with every other problem. */
function modeProblems(env: Record<string, string | undefined>): string[] {
  if (modeOf(env) === 'single') {
    return (Object.entries(SINGLE_REQUIRED) as [string, string][])
      .filter(([name]) => !present(env, name))
      .map(([name, what]) => `${name} is required (${what})`);
  }
  const given = MULTI_WORKSPACE_VARIABLES.filter((name) => present(env, name)).join(', ');
  const problems = MULTI_WORKSPACE_VARIABLES.filter((name) => !present(env, name)).map(
    (name) => `${name} is required for multi-workspace mode (${given} set; set all four, or none of the SLACK_CLIENT_/SLACK_STATE_ ones for one workspace)`,
  );
  if (present(env, 'SLACK_APP_TOKEN'))
    problems.push(
      'SLACK_APP_TOKEN must be unset in multi-workspace mode: Socket Mode serves one workspace; many workspaces reach the app over HTTP (Request URL https://<your host>/slack/events)',
    );
  if (present(env, 'SLACK_TEAM_ID')) problems.push('SLACK_TEAM_ID must be unset in multi-workspace mode (each workspace is known by its installation)');
  if (present(env, 'SLACK_BOT_TOKEN'))
    problems.push(
      'SLACK_BOT_TOKEN must be unset in multi-workspace mode (each workspace gets its bot token by installing the app); or unset SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET for one workspace',
    );
  return problems;
}

/** Checks between variables, reported like the others. */
const CheckedEnvSchema = EnvSchema.superRefine((env, ctx) => {
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT (leave it empty to serve /metrics on PORT)' });
}).transform((env) => ({ ...env, COMPLETION_POLL_SECONDS: env.COMPLETION_POLL_SECONDS ?? defaultPollSeconds(env.CARE_RATE_LIMIT) }));

type Common = Omit<Env, keyof typeof SINGLE_REQUIRED | (typeof MULTI_WORKSPACE_VARIABLES)[number]>;

/** One workspace, one care account, both from the environment (as before multi-workspace mode). */
export type Config = Common & {
  mode: 'single';
  SLACK_BOT_TOKEN: string;
  CARE_API_BASE_URL: string;
  CARE_ACCOUNT_ID: string;
  CARE_API_KEY: string;
  CARE_API_SECRET: string;
  /** Optional here: the store may keep secrets encrypted with it. */
  ENCRYPTION_KEY: string | undefined;
};

/** Many workspaces installed through "Add to Slack"; each connects its own care account (CARE_* variables are not used). */
export type MultiWorkspaceConfig = Common & {
  mode: 'multi';
  /** Refused in this mode. */
  SLACK_BOT_TOKEN: undefined;
  SLACK_CLIENT_ID: string;
  SLACK_CLIENT_SECRET: string;
  SLACK_STATE_SECRET: string;
  /** One or more keys (crypto/key-ring.ts parseKeyRing); already checked to parse. */
  ENCRYPTION_KEY: string;
};

export type AppConfig = Config | MultiWorkspaceConfig;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Read the configuration of either mode from env; one clear line per missing or invalid variable. */
export function loadAppConfig(env: Record<string, string | undefined>): AppConfig {
  const result = CheckedEnvSchema.safeParse(env);
  const problems = [...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'} ${issue.message}`)), ...modeProblems(env)];
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  const data = result.data;
  // modeProblems guarantees the fields each mode needs.
  if (modeOf(env) === 'multi') return { ...data, mode: 'multi' } as MultiWorkspaceConfig;
  return { ...data, mode: 'single' } as Config;
}

/**
 * Single-workspace configuration, as main.ts starts today. Multi-workspace
 * variables are checked as in loadAppConfig; a complete multi-workspace set is
 * refused here until start-up serves that mode (it then uses loadAppConfig).
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const config = loadAppConfig(env);
  if (config.mode === 'single') return config;
  throw new ConfigError([
    'SLACK_CLIENT_ID multi-workspace mode is configured, but this start-up serves one workspace only (set SLACK_BOT_TOKEN and unset the OAuth variables)',
  ]);
}
