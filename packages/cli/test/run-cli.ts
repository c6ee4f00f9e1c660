import type { CliIo } from '../src/cli-io.js';

/** A {@link CliIo} that records what was written, for calling commands in-process. */
export interface CapturedIo extends CliIo {
  readonly out: string[];
  readonly err: string[];
  readonly controller: AbortController;
  stdoutText(): string;
  stderrText(): string;
}

/** A captured io; `onStdout` sees each write (to react to output, as a user would). */
export function captureIo(options: { env?: Record<string, string>; onStdout?: (text: string, io: CapturedIo) => void } = {}): CapturedIo {
  const controller = new AbortController();
  const out: string[] = [];
  const err: string[] = [];
  const io: CapturedIo = {
    out,
    err,
    controller,
    signal: controller.signal,
    env: options.env ?? {},
    stdout: (text) => {
      out.push(text);
      options.onStdout?.(text, io);
    },
    stderr: (text) => void err.push(text),
    stdoutText: () => out.join(''),
    stderrText: () => err.join(''),
  };
  return io;
}

/** The path of a fixture file. */
export function fixturePath(name: string): string {
  return new URL(`./fixtures/${name}`, import.meta.url).pathname;
}
