import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createLogger, type LogLevel } from '../../src/logging/logger.js';
import { startSandbox } from './index.js';

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--seed demo|empty|<n actions>]
  [--seed-value <int>] [--account-id ID] [--api-key KEY] [--api-secret SECRET]
  [--accounts 1] [--rate-limit 10 (0 = unlimited)] [--data file.json] [--controls] [--start-time ISO]
  [--log-level debug|info|warn|error|silent]`;

const argsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(0),
  host: z.string().default('127.0.0.1'),
  seed: z
    .string()
    .default('demo')
    .refine((s) => s === 'demo' || s === 'empty' || /^\d+$/.test(s), 'must be demo, empty or a number of actions')
    .transform((s) => (s === 'demo' || s === 'empty' ? s : Number(s))),
  'seed-value': z.coerce.number().int().optional(),
  'account-id': z.string().min(1).optional(),
  'api-key': z.string().min(1).optional(),
  'api-secret': z.string().min(1).optional(),
  accounts: z.coerce.number().int().min(1).max(10_000).default(1),
  'rate-limit': z.coerce.number().min(0).default(10),
  data: z.string().optional(),
  controls: z.boolean().default(false),
  'start-time': z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO date/time')
    .optional(),
  'log-level': z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'seed-value': { type: 'string' },
      'account-id': { type: 'string' },
      'api-key': { type: 'string' },
      'api-secret': { type: 'string' },
      accounts: { type: 'string' },
      'rate-limit': { type: 'string' },
      data: { type: 'string' },
      controls: { type: 'boolean' },
      'start-time': { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
    console.error(USAGE);
    process.exit(2);
  }
  const a = parsed.data;
  const logger = createLogger({ level: a['log-level'] as LogLevel, base: { component: 'sandbox' } });
  const sandbox = await startSandbox({
    port: a.port,
    host: a.host,
    seed: a.seed,
    seedValue: a['seed-value'],
    accountId: a['account-id'],
    apiKey: a['api-key'],
    apiSecret: a['api-secret'],
    accounts: a.accounts,
    rateLimit: a['rate-limit'],
    dataFile: a.data,
    controls: a.controls,
    startTime: a['start-time'] ? new Date(a['start-time']) : undefined,
    logger,
  });
  // The one line of stdout: how to reach and sign for this sandbox (with several accounts, every account).
  console.log(
    JSON.stringify({
      url: sandbox.url,
      controlsUrl: a.controls ? sandbox.controlsUrl : null,
      accountId: sandbox.credentials.accountId,
      apiKey: sandbox.credentials.apiKey,
      apiSecret: sandbox.credentials.apiSecret,
      ...(a.accounts > 1 ? { accounts: sandbox.accounts.map(({ accountId, apiKey, apiSecret, name }) => ({ accountId, apiKey, apiSecret, name })) } : {}),
    }),
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    sandbox.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('stop failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
