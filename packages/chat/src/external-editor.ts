import { spawnSync, type StdioOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of {@link editExternally}. */
export interface ExternalEditorOptions {
  /** Where `EDITOR` and `VISUAL` are read. */
  env: Record<string, string | undefined>;
  /** The text the file starts with. */
  initial?: string;
  /** The editor's standard streams. Default: the terminal's (`inherit`). */
  stdio?: StdioOptions;
}

/** The editor command: `$EDITOR`, else `$VISUAL`, else `vi`. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return [env['EDITOR'], env['VISUAL']].find((value) => value !== undefined && value.trim() !== '') ?? 'vi';
}

/**
 * Opens the editor on a temporary file in the OS temp directory and waits for it to close (the
 * caller suspends its UI around this). Resolves the saved text, or undefined when the file was
 * left empty (blank) — a cancellation — or the editor failed. The temporary file is always removed.
 */
export function editExternally(options: ExternalEditorOptions): { text: string | undefined; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-chat-'));
  const file = join(dir, 'message.md');
  try {
    writeFileSync(file, options.initial ?? '');
    // Through the shell, as git does: EDITOR may carry arguments (`code --wait`).
    const ran = spawnSync('/bin/sh', ['-c', `${editorCommand(options.env)} "$1"`, 'editor', file], {
      stdio: options.stdio ?? 'inherit',
      env: { ...process.env, ...options.env },
    });
    if (ran.status !== 0) return { text: undefined, file };
    const text = readFileSync(file, 'utf8').replace(/\s+$/, '');
    return { text: text.trim() === '' ? undefined : text, file };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
