/**
 * Run the playground page against the in-memory test double (for working on
 * the page itself): `npx tsx dev/playground/cli.ts [port]`.
 */
import { createLogger } from '../../src/logging/logger.js';
import { createMemoryBackend } from './memory-backend.js';
import { startPlayground } from './server.js';

const port = Number(process.argv[2] ?? 3100);
const playground = await startPlayground({ port, backend: createMemoryBackend(), logger: createLogger({ level: 'info' }) });
console.log(`Playground (in-memory backend): ${playground.url}`);
const stop = () => void playground.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
