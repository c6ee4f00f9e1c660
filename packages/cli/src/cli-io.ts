/** Writes text as is (no newline added). */
export type Writer = (text: string) => void;

/**
 * What a command may touch of the outside world, injected so commands run in tests without a
 * process: output streams, the interrupt signal (Ctrl-C) and the environment.
 */
export interface CliIo {
  /** Program output: the assistant's text, or JSON lines. */
  readonly stdout: Writer;
  /** Everything else: problems, the summary, logs. */
  readonly stderr: Writer;
  /** Fires when the user interrupts (SIGINT); a running agent is aborted. */
  readonly signal: AbortSignal;
  /** Variables for `${NAME}` interpolation in graph files. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Asks the person at the terminal and resolves with their answer; absent when nobody can be
   * asked (standard input is not a terminal), in which case a run that waits is left waiting.
   */
  readonly prompt?: (question: string) => Promise<string>;
  /** Whether standard error is a terminal (live progress is drawn there). */
  readonly stderrIsTTY?: boolean;
  /**
   * Calls `listener` when the process is asked to terminate (SIGTERM, from a service manager or
   * `kill`), instead of dying at once; returns the function that stops listening, after which
   * SIGTERM kills again. For commands that run until stopped (`troupe worker`). Absent: nothing
   * but `signal` stops a command.
   */
  readonly onTerminate?: (listener: () => void) => () => void;
}
