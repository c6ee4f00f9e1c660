import { createInterface } from 'node:readline';
import { runCli } from './cli.js';
import { ExitCode } from './exit-code.js';

/*
 * The process entry of `troupe` (bin/troupe.js imports it). Everything testable lives in
 * runCli; this file only wires the process: streams, signals and the exit code.
 */

const interrupt = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // The first Ctrl-C aborts the run cleanly; a second one gives up waiting for it.
  if (interrupts > 1) process.exit(ExitCode.Interrupted);
  interrupt.abort();
});
// A closed stdout (`troupe run … | head -1`) stops the run instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') interrupt.abort();
  else throw error;
});

/** Asks on the terminal; only offered when standard input is one. */
function prompt(question: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  return new Promise((resolve) => {
    lines.question(question, (answer) => {
      lines.close();
      resolve(answer);
    });
  });
}

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    signal: interrupt.signal,
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    onTerminate: (listener) => {
      process.on('SIGTERM', listener);
      return () => void process.off('SIGTERM', listener);
    },
    ...(process.stdin.isTTY === true ? { prompt } : {}),
  });
} catch (error) {
  process.stderr.write(`troupe: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = ExitCode.RunFailed;
}

// Everything is written (stdout and stderr are synchronous on Linux pipes and terminals). Should
// something still hold the event loop open, such as a tool that ignores its abort signal, do not
// hang: this timer is unref'd, so it only fires in that case.
setTimeout(() => process.exit(), 2000).unref();
