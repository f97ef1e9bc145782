/**
 * `npm run demo`: the whole product on this machine, nothing to configure.
 * Options: `--port <n>` (or PORT; default 3000, 0 = any free port),
 * `--log-level debug|info|warn|error|silent` (or LOG_LEVEL; default warn).
 * Ctrl-C stops everything and exits 0.
 */
import { createLogger, type LogLevel } from '../../src/logging/logger.js';
import { startDemo } from './start-demo.js';

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

function usage(problem: string): never {
  console.error(`${problem}\nUsage: npm run demo -- [--port <0-65535>] [--log-level ${LEVELS.join('|')}]`);
  process.exit(2);
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): { port: number; logLevel: LogLevel } {
  let port: string | undefined = env.PORT;
  let level: string | undefined = env.LOG_LEVEL;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? usage(`${name} needs a value.`);
    if (name === '--port' || name === '-p') port = value();
    else if (name === '--log-level') level = value();
    else if (name === '--help' || name === '-h') usage('Runs the Care Actions demo: a local Slack playground, the app and a sandbox care system.');
    else usage(`Unknown option ${arg}.`);
  }
  const n = port === undefined || port === '' ? 3000 : Number(port);
  if (!Number.isInteger(n) || n < 0 || n > 65535) usage(`The port must be a whole number from 0 to 65535 (got ${port}).`);
  const logLevel = (level || 'warn') as LogLevel;
  if (!LEVELS.includes(logLevel as (typeof LEVELS)[number])) usage(`The log level must be one of ${LEVELS.join(', ')} (got ${level}).`);
  return { port: n, logLevel };
}

async function main(): Promise<void> {
  const { port, logLevel } = parseArgs(process.argv.slice(2), process.env);
  const logger = createLogger({ level: logLevel, base: { app: 'care-actions-demo' } });
  console.log('Starting the Care Actions demo: sandbox care system, app, Slack stand-in…');
  let demo: Awaited<ReturnType<typeof startDemo>>;
  try {
    demo = await startDemo({ port, logger });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') console.error(`Port ${port} is in use. Try: npm run demo -- --port 3001 (or --port 0 for any free port).`);
    else console.error(`The demo failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const url = demo.url.replace('127.0.0.1', 'localhost');
  console.log(`\nCare Actions demo is running: open ${url}`);
  console.log('  Act as a demo person (top right), type /care help or /care new Call the GP, use Simulate for care-system events.');
  console.log('  Data: a fresh SQLite file under ./data/demo (deleted on the next start). Stop with Ctrl-C.\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the demo…`);
    const force = setTimeout(() => {
      console.error('The demo did not stop within 10 s; exiting anyway.');
      process.exit(1);
    }, 10_000);
    force.unref();
    demo.stop().then(
      () => {
        console.log('Stopped.');
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`Stopping failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('Ctrl-C'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
