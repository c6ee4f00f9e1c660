import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';

/** The built page: the package's `dist/ui` (the same from `dist/server` and from `src/server`, as tests run it). */
export const UI_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Answers a GET for the page's files from `dir` (any other path gets `index.html`, the page routes
 * itself); a path that leaves `dir` is not served. Resolves false when the page was not built.
 */
export async function serveStatic(pathname: string, response: ServerResponse, dir: string = UI_DIR): Promise<boolean> {
  const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  const file = relative === '' || !relative.includes('.') ? 'index.html' : relative;
  const full = join(dir, file);
  if (!full.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`)) return false;
  const body = await readFile(full).catch(() => undefined);
  if (body === undefined) return false;
  response.writeHead(200, {
    'content-type': TYPES[extname(full)] ?? 'application/octet-stream',
    // Hashed asset names may be kept; the page itself is always asked again.
    'cache-control': file === 'index.html' ? 'no-store' : 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
  });
  response.end(body);
  return true;
}
