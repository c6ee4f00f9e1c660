/** Writes text as is (no newline added). */
export type Writer = (text: string) => void;

/** A key pressed at the terminal, as Node's readline parses it. */
export interface KeyPress {
  /** `return`, `escape`, `up`, `down`, `backspace`, `a`… (absent for other characters). */
  readonly name?: string;
  /** The characters the key typed. */
  readonly sequence: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
}

/** Key presses from a terminal on standard input. */
export interface KeyInput {
  /**
   * Delivers key presses to `onKey` until the returned function is called; meanwhile the terminal
   * echoes nothing. Ctrl-C is never delivered: it interrupts, as SIGINT does (`CliIo.signal`).
   */
  listen(onKey: (key: KeyPress) => void): () => void;
}

/** The terminal a live area is drawn on: standard error when it is a TTY. */
export interface TerminalStream {
  write(text: string): boolean;
  readonly columns?: number;
  readonly rows?: number;
  readonly isTTY?: boolean;
  /** The size the terminal has now (an ioctl), which `columns` only learns once SIGWINCH is handled. */
  getWindowSize?(): [number, number];
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** Standard error when it is a terminal: live views are drawn there, and prompts when keys can be read. */
export interface Terminal {
  readonly stream: TerminalStream;
  /** Present when standard input is a terminal too: a person can answer prompts. */
  readonly keys?: KeyInput;
  /**
   * Set by a live view for as long as it is drawn: text for standard error (log lines) goes
   * through it, above the live area, instead of being written under it.
   */
  above?: Writer | undefined;
}

/**
 * What a command may touch of the outside world, injected so commands run in tests without a
 * process: output streams, the interrupt signal (Ctrl-C) and the environment.
 */
export interface CliIo {
  /** Program output: the assistant's text, or JSON lines. */
  readonly stdout: Writer;
  /** Everything else: problems, the summary, logs. */
  readonly stderr: Writer;
  /** Fires when the user interrupts (SIGINT, or Ctrl-C at a prompt); a running agent is aborted. */
  readonly signal: AbortSignal;
  /**
   * The environment: `${NAME}` in graph files, API keys, NATS settings. Before a command runs,
   * `troupe` adds the variables of the project's `.env` files it lacks (in the real process this
   * is `process.env`, so tools and the processes they start see them too).
   */
  readonly env: Record<string, string | undefined>;
  /** The terminal on standard error; absent when it is not one (no live view, no prompts). */
  readonly terminal?: Terminal;
  /** Whether standard output is a terminal (the answer is then drawn with the live view). */
  readonly stdoutIsTTY?: boolean;
  /**
   * Standard input, for a command that takes its input there (`echo q | troupe run f.yaml`): its
   * bytes to the end, and whether it is a terminal (a person would have to type, so it is not
   * read). Absent: there is nothing to read, as with a terminal.
   */
  readonly stdin?: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean };
  /**
   * Calls `listener` when the process is asked to terminate (SIGTERM, from a service manager or
   * `kill`), instead of dying at once; returns the function that stops listening, after which
   * SIGTERM kills again. For commands that run until stopped (`troupe worker`). Absent: nothing
   * but `signal` stops a command.
   */
  readonly onTerminate?: (listener: () => void) => () => void;
}
