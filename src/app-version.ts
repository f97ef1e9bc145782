import { readFileSync } from 'node:fs';

/** The package's version (package.json sits one folder up from both src/ and dist/). */
export function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
