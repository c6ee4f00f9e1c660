import ansiEscapes from 'ansi-escapes';
import { createLogUpdate } from 'log-update';
import stringWidth from 'string-width';
import type { TerminalStream, Writer } from '../cli-io.js';
import { cutToWidth, wrapToWidth } from './fit.js';
import type { Screen } from './screen.js';

/** How often a live area is redrawn at most while text streams, by default. */
const FRAME_MS = 33;

/**
 * A {@link Screen} on a terminal: notes and (when standard output is the same terminal) the
 * output are written above a live area that log-update redraws in place below them.
 *
 * The output's unfinished line is shown as the first row(s) of the live area until it ends, word
 * wrapped to the terminal, then written for good; rows of the live area are cut to one column
 * less than the terminal so the terminal never wraps them, and the area keeps below the terminal's
 * height. It is redrawn at most every `frameMs` (0: at once). When the terminal narrows, rows it
 * re-flowed are counted before they are erased, so a resize neither leaves stale rows nor erases
 * what the run printed.
 */
export function terminalScreen(out: Writer, err: TerminalStream, options: { outIsTerminal: boolean; frameMs?: number }): Screen {
  const frameMs = options.frameMs ?? FRAME_MS;
  const live = createLogUpdate(err as unknown as NodeJS.WritableStream, { showCursor: false });
  const widthOf = (): number => Math.max(10, (err.getWindowSize?.()[0] ?? err.columns ?? 80) - 1);
  let width = widthOf();
  let pending = '';
  let statusLines: readonly string[] = [];
  let promptLines: readonly string[] = [];
  let drawn: string[] = [];
  const held: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const frame = (): string[] => {
    const rows = [
      ...(pending === '' ? [] : wrapToWidth(pending, width)),
      ...statusLines.map((line) => cutToWidth(line, width)),
      ...promptLines.map((line) => cutToWidth(line, width)),
    ];
    const room = Math.max(1, (err.getWindowSize?.()[1] ?? err.rows ?? 24) - 1);
    // A prompt and the unfinished line matter more than the oldest status rows: keep the bottom.
    return rows.length > room ? rows.slice(rows.length - room) : rows;
  };
  /**
   * Follows the terminal's width. Asked before every write rather than on SIGWINCH alone: a redraw
   * made after the terminal narrowed, before the signal is handled, would count rows wrongly.
   */
  const sync = (): void => {
    const next = widthOf();
    if (next < width && drawn.length > 0) {
      // The terminal may have re-flowed rows wider than it now is: erase as many rows as they take.
      const taken = drawn.reduce((sum, row) => sum + Math.max(1, Math.ceil(stringWidth(row) / (next + 1))), 0);
      err.write(ansiEscapes.eraseLines(taken + 1));
      live.done();
      drawn = [];
    }
    width = next;
  };
  const draw = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (closed) return;
    sync();
    drawn = frame();
    if (drawn.length === 0) live.clear();
    else live(drawn.join('\n'));
  };
  const later = (): void => {
    if (frameMs === 0) draw();
    else if (timer === undefined && !closed) timer = setTimeout(draw, frameMs);
  };
  /** Writes `text` above the live area, which is drawn again after it. */
  const above = (write: () => void): void => {
    sync();
    live.clear();
    drawn = [];
    write();
    draw();
  };
  const commit = (rows: readonly string[]): void => {
    if (rows.length > 0) above(() => out(`${rows.join('\n')}\n`));
    if (pending === '' && held.length > 0) above(() => err.write(`${held.splice(0).join('\n')}\n`));
  };
  const onResize = (): void => draw();
  err.on('resize', onResize);

  return {
    live: true,
    get width() {
      return width;
    },
    write(text) {
      if (!options.outIsTerminal) {
        out(text);
        return;
      }
      const lines = `${pending}${text}`.split('\n');
      const last = lines.pop() ?? '';
      const rows = lines.flatMap((line) => wrapToWidth(line, width));
      // Rows the unfinished line already filled will not change as it grows: they can be written.
      const unfinished = last === '' ? [] : wrapToWidth(last, width);
      pending = unfinished.pop() ?? '';
      rows.push(...unfinished);
      if (rows.length > 0) commit(rows);
      else later();
    },
    endLine() {
      if (pending === '') return;
      const row = pending;
      pending = '';
      commit([row]);
    },
    note(line, noteOptions) {
      const fitted = noteOptions?.wrap === true ? wrapToWidth(line, width).join('\n') : cutToWidth(line, width);
      if (pending !== '') held.push(fitted);
      else above(() => err.write(`${fitted}\n`));
    },
    status(lines) {
      statusLines = lines;
      later();
    },
    prompt(lines) {
      promptLines = lines ?? [];
      draw();
    },
    close() {
      if (closed) return;
      const row = pending;
      pending = '';
      sync();
      live.clear();
      if (row !== '') out(`${row}\n`);
      if (held.length > 0) err.write(`${held.splice(0).join('\n')}\n`);
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      live.done();
      err.off('resize', onResize);
    },
  };
}
