/**
 * Real `troupe` child processes for the tests (a `troupe worker`, a `troupe run` hosting a run):
 * the CLI's built bin run by file path (the CLI depends on this package, so its tests may run it
 * but never import it), each in its own process group so that stopping it also stops anything it
 * started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The CLI's bin (`troupe`), which runs the CLI's dist/ (nx builds it before these tests). */
export const TROUPE_BIN = fileURLToPath(new URL('../../../cli/bin/troupe.js', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('../../../cli/dist/main.js', import.meta.url));

/** A running `troupe` child process. */
export interface TroupeProcess {
  readonly child: ChildProcess;
  /** Resolves, with its exit code, once it has exited. */
  readonly exited: Promise<number | null>;
  /** Resolves once what it wrote (stdout and stderr) matches `pattern`; rejects with all of it if it exits first. */
  matching(pattern: RegExp): Promise<void>;
  /** What it wrote so far (stdout and stderr), for a failure message. */
  written(): string;
  /** Stops its process group (SIGTERM, then SIGKILL if it has not exited) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts `node <cli>/bin/troupe.js …args` in `cwd` (default: this one) and returns at once. */
export function startTroupe(args: readonly string[], options: { cwd?: string } = {}): TroupeProcess {
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build @troupe/cli first (nx does before this package's tests)`);
  // Plain output: nx sets FORCE_COLOR for the tasks it runs, which would win over NO_COLOR.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const child = spawn(process.execPath, [TROUPE_BIN, ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { ...inherited, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let written = '';
  const watchers = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (code) => {
      resolve(code);
      for (const watcher of watchers) watcher();
    });
  });
  const take = (chunk: string): void => {
    written += chunk;
    for (const watcher of watchers) watcher();
  };
  child.stdout?.setEncoding('utf8').on('data', take);
  child.stderr?.setEncoding('utf8').on('data', take);
  const over = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const matching = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(written)) resolve();
        else if (over()) reject(new Error(`troupe ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before writing ${pattern}:\n${written}`));
        else return;
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });
  const signal = (name: NodeJS.Signals): void => {
    if (child.pid === undefined || over()) return;
    try {
      process.kill(-child.pid, name); // the whole group: the process and anything it started
    } catch {
      // already gone
    }
  };
  return {
    child,
    exited,
    matching,
    written: () => written,
    stop: async () => {
      signal('SIGTERM');
      // It stops within its grace period; SIGKILL only if it hangs, so an afterEach never does.
      const timer = setTimeout(() => signal('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A `troupe worker` taking tasks. */
export interface TroupeWorker extends TroupeProcess {
  /** The id it was given (`--id`). */
  readonly id: string;
}

/**
 * Starts `troupe worker <graph> --nats <url> --namespace <namespace> --id <id>` and resolves once
 * it prints its `ready` line (it takes tasks from then on); rejects with what it wrote if it
 * exits first.
 */
export async function startTroupeWorker(options: { graph: string; nats: string; namespace: string; id: string }): Promise<TroupeWorker> {
  const worker = startTroupe([
    'worker',
    options.graph,
    ...['--nats', options.nats, '--namespace', options.namespace, '--id', options.id, '--grace', '1000', '--log-level', 'warn'],
  ]);
  try {
    await worker.matching(/^worker \S+ ready: /m);
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return { ...worker, id: options.id };
}
