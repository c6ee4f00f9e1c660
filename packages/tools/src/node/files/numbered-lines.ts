/** A page of a text file with line numbers. */
export interface NumberedPage {
  text: string;
  totalLines: number;
  /** First and last line shown (1-based); `to < from` for an empty file. */
  from: number;
  to: number;
  /** True when lines after `to` exist that this page does not show. */
  truncated: boolean;
  /** Set when the page cannot be made (offset past the end). */
  error?: string;
}

/** Lines longer than this are cut, so one minified line cannot fill a page. */
const MAX_LINE_CHARS = 2000;

/**
 * Formats lines `offset … offset+limit-1` of `text` as `cat -n` does (right-aligned number, tab,
 * line), stopping before the page passes `maxBytes`; a truncated page ends with a note saying the
 * offset to read on from.
 */
export function numberLines(text: string, options: { offset: number; limit: number; maxBytes: number }): NumberedPage {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const totalLines = text === '' ? 0 : lines.length;
  if (totalLines === 0) return { text: '(empty file)', totalLines, from: 1, to: 0, truncated: false };
  const from = options.offset;
  if (from > totalLines)
    return { text: '', totalLines, from, to: from - 1, truncated: false, error: `offset ${from} is past the end of the file (${totalLines} lines)` };
  const last = Math.min(totalLines, from + options.limit - 1);
  const width = String(last).length;
  const out: string[] = [];
  let bytes = 0;
  let to = from - 1;
  for (let n = from; n <= last; n++) {
    let line = (lines[n - 1] as string).replace(/\r$/, '');
    if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`;
    const formatted = `${String(n).padStart(Math.max(6, width))}\t${line}`;
    const size = Buffer.byteLength(formatted) + 1;
    if (bytes + size > options.maxBytes && out.length > 0) break;
    out.push(formatted);
    bytes += size;
    to = n;
  }
  const truncated = to < totalLines;
  let body = out.join('\n');
  if (truncated) {
    const why = to < last ? `output capped at ${options.maxBytes} bytes` : `limit of ${options.limit} lines`;
    body += `\n\n[lines ${from}-${to} of ${totalLines} shown (${why}); call read_file with offset ${to + 1} to read on]`;
  }
  return { text: body, totalLines, from, to, truncated };
}
