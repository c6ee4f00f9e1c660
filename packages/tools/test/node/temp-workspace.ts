import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh temporary directory with `files` (relative path → content) written into it. */
export async function tempWorkspace(
  files: Record<string, string | Uint8Array> = {},
): Promise<{ root: string; path(rel: string): string; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'troupe-tools-'));
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  }
  return { root, path: (rel) => join(root, rel), remove: () => rm(root, { recursive: true, force: true, maxRetries: 5 }) };
}

/** The text of a result's content (its text parts joined). */
export function textOf(content: string | readonly { type: string; text?: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
}
