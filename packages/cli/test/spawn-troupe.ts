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

/** A `troupe` child process still running. */
export interface RunningTroupe {
  readonly child: ChildProcess;
  /** Settles when it has exited, with everything it wrote. */
  readonly exited: Promise<TroupeExit>;
  /** Resolves with what the child wrote so far to `stream` once it matches `pattern`; rejects if the child exits first. */
  matching(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  /** What it wrote so far, for a test's failure message. */
  written(): { stdout: string; stderr: string };
}

/** Options of {@link startTroupe} and {@link spawnTroupe}. */
export interface TroupeSpawnOptions {
  onStdout?: (stdout: string, child: ChildProcess) => void;
  env?: Record<string, string>;
  /** Where it runs. Default: the fixtures directory. */
  cwd?: string;
  /** Piped to its standard input. Default: none (it reads end of file at once). */
  stdin?: string | Uint8Array;
}

/**
 * Starts `node bin/troupe.js …args` in the fixtures directory (or `cwd`), with `env` added to the
 * environment, and returns at once: for commands that run until stopped (`troupe worker`) or that
 * a test acts on while they run. `onStdout` sees the stdout written so far after each chunk.
 */
export function startTroupe(args: readonly string[], options: TroupeSpawnOptions = {}): RunningTroupe {
  // Plain output: nx sets FORCE_COLOR for the tasks it runs, which would win over NO_COLOR.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const child = spawn(process.execPath, [TROUPE_BIN, ...args], {
    cwd: options.cwd ?? FIXTURES,
    env: { ...inherited, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.on('error', () => undefined); // a child that exits without reading all of it: EPIPE, not a failure
  child.stdin.end(options.stdin ?? '');
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(stdout, child);
    for (const watcher of watchers) watcher();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const watcher of watchers) watcher();
  });
  const exited = new Promise<TroupeExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
      for (const watcher of watchers) watcher();
    });
  });
  const matching = (stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const text = stream === 'stdout' ? stdout : stderr;
        if (pattern.test(text)) {
          watchers.delete(check);
          resolve(text);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          watchers.delete(check);
          reject(
            new Error(`troupe ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before writing ${pattern} to ${stream}:\n${stdout}\n${stderr}`),
          );
        }
      };
      watchers.add(check);
      check();
    });
  return { child, exited, matching, written: () => ({ stdout, stderr }) };
}

/**
 * Runs `node bin/troupe.js …args` in the fixtures directory (or `cwd`), with `env` added to the environment.
 * `onStdout` sees the stdout written so far after each chunk, with the child, so a test can act
 * on output (send SIGINT) without sleeping.
 */
export function spawnTroupe(args: readonly string[], options: TroupeSpawnOptions = {}): Promise<TroupeExit> {
  return startTroupe(args, options).exited;
}
