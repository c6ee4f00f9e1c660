import type { Writer } from '../cli-io.js';
import type { Screen } from './screen.js';

/** Notes cut to this many columns off a terminal: one line, still readable in a log. */
const PLAIN_WIDTH = 200;

/**
 * A {@link Screen} off a terminal (a pipe, a file, a CI log). Output is passed on a line at a
 * time, so a note written to standard error between two chunks of one line never lands in the
 * middle of it when both streams go to the same place (`2>&1`). With `streamOutput` (standard
 * output is a terminal while standard error goes elsewhere), output is passed on as it arrives.
 */
export function plainScreen(out: Writer, err: Writer, options: { streamOutput?: boolean } = {}): Screen {
  let pending = '';
  let closed = false;
  const endLine = (): void => {
    if (pending === '') return;
    out(options.streamOutput === true ? '\n' : `${pending}\n`);
    pending = '';
  };
  return {
    width: PLAIN_WIDTH,
    live: false,
    write(text) {
      if (options.streamOutput === true) {
        if (text !== '') out(text);
        pending = text.endsWith('\n') ? '' : `${pending}${text.slice(text.lastIndexOf('\n') + 1)}`;
        return;
      }
      const lines = `${pending}${text}`.split('\n');
      pending = lines.pop() ?? '';
      if (lines.length > 0) out(`${lines.join('\n')}\n`);
    },
    endLine,
    note: (line) => err(`${line}\n`),
    status: () => undefined,
    prompt: () => undefined,
    close() {
      if (closed) return;
      closed = true;
      endLine();
    },
  };
}
