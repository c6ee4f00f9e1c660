/**
 * Drives test/store/fixtures/waiting-run-process.mjs, a real child process running a small graph
 * (ask a question, then run a `note` tool) on the file run store, for the store's process tests.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./fixtures/waiting-run-process.mjs', import.meta.url));

/** One line the child printed. */
export type ChildSays = Record<string, unknown>;

/** A running child: what it said, in order, and how to talk to it. */
export interface RunProcess {
  /** Resolves with the next line it prints (rejects when it exits first). */
  next(): Promise<ChildSays>;
  send(line: string): void;
  /** SIGKILLs it if it still runs (cleanup after a failed assertion). */
  kill(): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the fixture in `mode` with `args`; `notes` is the file its `note` tool appends to. */
export function runProcess(mode: string, args: string[], notes: string): RunProcess {
  const child = spawn(process.execPath, [script, mode, ...args], { env: { ...process.env, NOTES: notes }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: ChildSays[] = [];
  const takers: ((line: ChildSays | undefined) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const said = JSON.parse(text) as ChildSays;
    const taker = takers.shift();
    if (taker === undefined) lines.push(said);
    else taker(said);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const taker of takers.splice(0)) taker(undefined);
      resolve({ code, signal });
    }),
  );
  return {
    exited,
    send: (line) => child.stdin.write(`${line}\n`),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    next: () => {
      const said = lines.shift();
      if (said !== undefined) return Promise.resolve(said);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error(`the ${mode} process has exited`));
      return new Promise((resolve, reject) =>
        takers.push((line) => (line === undefined ? reject(new Error(`the ${mode} process exited before saying more`)) : resolve(line))),
      );
    },
  };
}

/** Runs the graph in a child process until it waits for an answer; the run's id. */
export async function startWaitingRun(dir: string, notes: string): Promise<string> {
  const start = runProcess('start', [dir], notes);
  const said = await start.next();
  await start.exited;
  return String(said['runId']);
}
