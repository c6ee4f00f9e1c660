import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** bin/troupe.js, the installed command's shim. */
export const TROUPE_BIN = fileURLToPath(new URL('../bin/troupe.js', import.meta.url));

/** Where the fixture graph files are; the child runs there so paths in messages stay short. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** How a `troupe` child process ended, and everything it wrote. */
export interface TroupeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/troupe.js …args` in the fixtures directory, with `env` added to the environment.
 * `onStdout` sees the stdout written so far after each chunk, with the child, so a test can act
 * on output (send SIGINT) without sleeping.
 */
export function spawnTroupe(
  args: readonly string[],
  options: { onStdout?: (stdout: string, child: ChildProcess) => void; env?: Record<string, string> } = {},
): Promise<TroupeExit> {
  const child = spawn(process.execPath, [TROUPE_BIN, ...args], { cwd: FIXTURES, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
