/** The page's own files from dev/playground/public (an allow-list by name and type, no directories). */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** The file for a URL path, or null when there is none (unknown name, type or traversal). */
export async function loadStaticFile(urlPath: string, dir = PUBLIC_DIR): Promise<StaticFile | null> {
  const name = urlPath === '/' ? 'index.html' : urlPath.slice(1);
  if (!/^[a-z0-9][a-z0-9-]*\.(html|css|js|svg)$/.test(name)) return null;
  const contentType = TYPES[path.extname(name)];
  if (!contentType) return null;
  try {
    return { body: await readFile(path.join(dir, name)), contentType };
  } catch {
    return null;
  }
}
