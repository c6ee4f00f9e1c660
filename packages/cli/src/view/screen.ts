/**
 * Where a run is shown: the program's output (the entry agent's text, on standard output) with
 * notes that stay (tool results, decisions, on standard error) and, on a terminal, a live area
 * redrawn in place below them (the actor tree, a prompt).
 *
 * Contract: output and notes are never reordered against each other except that a note arriving
 * while the output's current line is unfinished waits for that line to end, so a note never splits
 * a line of the answer. Nothing written with `write` or `note` is erased afterwards.
 */
export interface Screen {
  /** The program's output, as it streams. */
  write(text: string): void;
  /** Ends the output's current line, if one is unfinished (a message ended). */
  endLine(): void;
  /** One line on standard error that stays, written above the live area: cut to the width, or wrapped with `wrap`. */
  note(line: string, options?: { wrap?: boolean }): void;
  /** The live area's lines (the actor tree); ignored off a terminal. */
  status(lines: readonly string[]): void;
  /** Lines drawn below the status (a prompt), or none; ignored off a terminal. */
  prompt(lines: readonly string[] | undefined): void;
  /** The columns a line may use without wrapping (for cutting notes to one line). */
  readonly width: number;
  /** Whether a live area is drawn (a terminal). */
  readonly live: boolean;
  /** Removes the live area and ends the output's line; what was written stays. Idempotent. */
  close(): void;
}
