import xterm from '@xterm/headless';
import type { TerminalStream } from '../../src/cli-io.js';

/** A terminal emulator (xterm.js, headless) that a screen draws on, as a person's terminal would show it. */
export interface EmulatedTerminal {
  /** Standard error, the terminal: what the live area is drawn on. */
  readonly stream: TerminalStream;
  /** Standard output, to the same terminal. */
  out(text: string): void;
  /** Resizes the terminal (it re-flows wrapped rows, as tmux and most terminals do), then tells the stream. */
  resize(columns: number, rows?: number): Promise<void>;
  /** The rows on screen and in the scrollback, once everything written has been drawn; trailing empty rows left out. */
  lines(): Promise<string[]>;
}

/** A headless xterm of `columns` × `rows` with a large scrollback; `\n` moves to the next row's start (the tty's onlcr). */
export function emulatedTerminal(columns: number, rows = 24): EmulatedTerminal {
  const term = new xterm.Terminal({ cols: columns, rows, scrollback: 1000, convertEol: true, allowProposedApi: true });
  const listeners = new Set<() => void>();
  let written = Promise.resolve();
  const write = (text: string): void => {
    written = written.then(() => new Promise<void>((resolve) => term.write(text, resolve)));
  };
  const stream: TerminalStream = {
    get columns() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    isTTY: true,
    getWindowSize: () => [term.cols, term.rows],
    write(text) {
      write(text);
      return true;
    },
    on: (_event, listener) => listeners.add(listener),
    off: (_event, listener) => listeners.delete(listener),
  };
  return {
    stream,
    out: write,
    async resize(nextColumns, nextRows = term.rows) {
      await written;
      term.resize(nextColumns, nextRows);
      for (const listener of listeners) listener();
    },
    async lines() {
      await written;
      const buffer = term.buffer.active;
      const all: string[] = [];
      for (let i = 0; i < buffer.length; i += 1) all.push(buffer.getLine(i)?.translateToString(true) ?? '');
      while (all.length > 0 && all.at(-1) === '') all.pop();
      return all;
    },
  };
}
