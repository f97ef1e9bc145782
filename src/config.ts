import { z } from 'zod';
import { careWebTemplateProblem } from './services/care-web-link.js';
import { isValidTimeZone } from './time/zones.js';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const url = (what: string) =>
  z
    .string({ error: `is required (${what})` })
    .trim()
    .min(1, `is required (${what})`)
    .url(`must be a URL (${what})`);

const required = (what: string) =>
  z
    .string({ error: `is required (${what})` })
    .trim()
    .min(1, `is required (${what})`);

const EnvSchema = z.object({
  SLACK_BOT_TOKEN: required('the bot token, xoxb-...').refine((v) => v.startsWith('xoxb-'), 'must start with xoxb-'),
  SLACK_SIGNING_SECRET: required("the app's signing secret"),
  SLACK_APP_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xapp-'), 'must start with xapp- (Socket Mode app token)'),
  SLACK_API_URL: optionalString.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  CARE_API_BASE_URL: url('e.g. https://api.carehq.co.uk/v1'),
  CARE_ACCOUNT_ID: required('the care account Id'),
  CARE_API_KEY: required('the care API key'),
  CARE_API_SECRET: required('the care API secret'),
  CARE_WEB_URL: optionalString.superRefine((v, ctx) => {
    const problem = v === undefined ? null : careWebTemplateProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
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
  COMPLETION_POLL_SECONDS: z.coerce.number().int().min(5, 'must be at least 5').default(60),
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
});

/** Checks between variables, reported like the others. */
const CheckedEnvSchema = EnvSchema.superRefine((env, ctx) => {
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT (leave it empty to serve /metrics on PORT)' });
});

export type Config = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Read the configuration from env; one clear line per missing or invalid variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const result = CheckedEnvSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'} ${issue.message}`);
  throw new ConfigError(problems);
}
