import type { CliIo, KeyPress, Terminal } from '../src/cli-io.js';

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

/** A terminal for in-process tests: records what is drawn, and lets the test press keys. */
export interface FakeTerminal extends Terminal {
  /** Delivers a key press to whoever listens (a prompt), as the person at the terminal would. */
  press(key: KeyPress): void;
  /** Everything written to the terminal, escape sequences included. */
  output(): string;
  /** What was written without escape sequences (colours, cursor moves). */
  text(): string;
}

/** A {@link FakeTerminal} of `columns` × `rows`; `onScreen` sees the output after each write (to answer prompts). */
export function fakeTerminal(options: { columns?: number; rows?: number; onScreen?: (output: string, terminal: FakeTerminal) => void } = {}): FakeTerminal {
  let written = '';
  let listener: ((key: KeyPress) => void) | undefined;
  const terminal: FakeTerminal = {
    stream: {
      columns: options.columns ?? 100,
      rows: options.rows ?? 30,
      isTTY: true,
      write(text: string) {
        written += text;
        queueMicrotask(() => options.onScreen?.(written, terminal));
        return true;
      },
      on: () => undefined,
      off: () => undefined,
    },
    keys: {
      listen(onKey) {
        listener = onKey;
        return () => (listener = undefined);
      },
    },
    press: (key) => listener?.(key),
    output: () => written,
    text: () => written.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''),
  };
  return terminal;
}
