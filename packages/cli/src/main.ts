import { emitKeypressEvents } from 'node:readline';
import type { KeyInput, KeyPress, Terminal } from './cli-io.js';
import { runCli } from './cli.js';
import { ExitCode } from './exit-code.js';

/*
 * The process entry of `troupe` (bin/troupe.js imports it). Everything testable lives in
 * runCli; this file only wires the process: streams, the terminal, signals and the exit code.
 */

const interrupt = new AbortController();
let interrupts = 0;
/** Ctrl-C, as SIGINT or as a key read in raw mode: the first aborts the run cleanly, a second one gives up waiting for it. */
function onInterrupt(): void {
  interrupts += 1;
  if (interrupts > 1) process.exit(ExitCode.Interrupted);
  interrupt.abort();
}
process.on('SIGINT', onInterrupt);
// A closed stdout (`troupe run … | head -1`) stops the run instead of crashing on EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') interrupt.abort();
  else throw error;
});

/** Key presses from standard input in raw mode (nothing echoed); Ctrl-C interrupts instead of being delivered. */
const keys: KeyInput = {
  listen(onKey) {
    const stdin = process.stdin;
    emitKeypressEvents(stdin);
    const onKeypress = (sequence: string | undefined, key: Partial<KeyPress> | undefined): void => {
      if (key?.ctrl === true && key.name === 'c') {
        onInterrupt();
        return;
      }
      onKey({
        sequence: key?.sequence ?? sequence ?? '',
        ...(key?.name === undefined ? {} : { name: key.name }),
        ...(key?.ctrl === true ? { ctrl: true } : {}),
        ...(key?.meta === true ? { meta: true } : {}),
      });
    };
    stdin.setRawMode(true);
    stdin.on('keypress', onKeypress);
    stdin.resume();
    return () => {
      stdin.off('keypress', onKeypress);
      stdin.setRawMode(false);
      stdin.pause();
    };
  },
};

const terminal: Terminal | undefined =
  process.stderr.isTTY === true ? { stream: process.stderr, ...(process.stdin.isTTY === true ? { keys } : {}) } : undefined;

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    signal: interrupt.signal,
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    ...(terminal === undefined ? {} : { terminal }),
    stdin: process.stdin,
    onTerminate: (listener) => {
      process.on('SIGTERM', listener);
      return () => void process.off('SIGTERM', listener);
    },
  });
} catch (error) {
  process.stderr.write(`troupe: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = ExitCode.RunFailed;
}

// Everything is written (stdout and stderr are synchronous on Linux pipes and terminals). Should
// something still hold the event loop open, such as a tool that ignores its abort signal, do not
// hang: this timer is unref'd, so it only fires in that case.
setTimeout(() => process.exit(), 2000).unref();
