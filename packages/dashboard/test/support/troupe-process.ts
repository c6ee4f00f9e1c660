/**
 * A real `troupe worker` child process for the distributed tests: the CLI's built bin run by file
 * path (the CLI depends on this package, so its tests may run it but never import it), in its own
 * process group so that stopping it also stops anything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The CLI's bin (`troupe`), which runs the CLI's dist/ (nx builds it before these tests). */
export const TROUPE_BIN = fileURLToPath(new URL('../../../cli/bin/troupe.js', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('../../../cli/dist/main.js', import.meta.url));

/** A running `troupe worker`. */
export interface TroupeWorker {
  /** The id it was given (`--id`). */
  readonly id: string;
  readonly child: ChildProcess;
  /** Stops its process group (SIGTERM, then SIGKILL if it has not exited) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `troupe worker <graph> --nats <url> --namespace <namespace> --id <id>` and resolves once
 * it prints its `ready` line (it takes tasks from then on); rejects with what it wrote if it
 * exits first.
 */
export async function startTroupeWorker(options: { graph: string; nats: string; namespace: string; id: string }): Promise<TroupeWorker> {
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build @troupe/cli first (nx does before this package's tests)`);
  // Plain output: nx sets FORCE_COLOR for the tasks it runs, which would win over NO_COLOR.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    [
      TROUPE_BIN,
      'worker',
      options.graph,
      '--nats',
      options.nats,
      '--namespace',
      options.namespace,
      '--id',
      options.id,
      '--grace',
      '1000',
      '--log-level',
      'warn',
    ],
    { env: { ...inherited, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let written = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: string): void => {
      written += chunk;
      if (/^worker \S+ ready: /m.test(written)) resolve();
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => void (written += chunk));
    child.once('error', reject);
    void exited.then(() => reject(new Error(`troupe worker exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${written}`)));
  });
  const signal = (name: NodeJS.Signals): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, name); // the whole group: the worker and anything it started
    } catch {
      // already gone
    }
  };
  return {
    id: options.id,
    child,
    stop: async () => {
      signal('SIGTERM');
      // A worker stops within its grace period; SIGKILL only if it hangs, so afterEach never does.
      const timer = setTimeout(() => signal('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
