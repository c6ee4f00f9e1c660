import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

// Control characters and escape sequences that would move the cursor or change the terminal.
const CONTROL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * Text from elsewhere (a model, a tool) made safe to show: tabs become spaces, control characters
 * and escape sequences are dropped, so it can neither move the cursor nor upset the layout.
 */
export function printable(text: string): string {
  return text.replace(/\t/g, '  ').replace(CONTROL, '');
}

/** `line` cut to `width` columns, ending with `…` when it was cut (styling kept). */
export function cutToWidth(line: string, width: number): string {
  if (stringWidth(line) <= width) return line;
  return `${sliceAnsi(line, 0, Math.max(0, width - 1))}…`;
}

/**
 * `text` (one line, no newline) word-wrapped to rows of at most `width` columns; a word longer
 * than a row is broken. Indentation is kept; the space a row was broken at is not carried into
 * the next row. An empty line is one empty row.
 */
export function wrapToWidth(text: string, width: number): string[] {
  const rows = wrapAnsi(text, width, { hard: true, trim: false }).split('\n');
  return rows.map((row, i) => (i > 0 && row.startsWith(' ') ? row.slice(1) : row));
}

/** The first non-empty line of `text`, made printable. */
export function firstLine(text: string): string {
  return printable(text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}
