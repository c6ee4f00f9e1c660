import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';
import wrapAnsi from 'wrap-ansi';

/** One parser per width: marked-terminal wraps paragraphs at the width it was made with. */
const parsers = new Map<number, Marked>();

/**
 * Markdown as terminal rows of at most `width` cells: headings, emphasis, lists, tables and code
 * blocks (syntax-highlighted by cli-highlight through marked-terminal). Text that is still
 * streaming may end mid-construct; marked renders what it has.
 */
export function renderMarkdown(text: string, width: number): string[] {
  const size = Math.max(10, width);
  let parser = parsers.get(size);
  if (parser === undefined) {
    parser = new Marked(markedTerminal({ width: size, reflowText: true, tab: 2, emoji: false }));
    parsers.set(size, parser);
  }
  let rendered: string;
  try {
    rendered = parser.parse(text, { async: false });
  } catch {
    // A half-streamed construct marked cannot take: show the text as it is.
    rendered = text;
  }
  const rows = wrapAnsi(rendered.replace(/\n+$/, ''), size, { hard: true, trim: false }).split('\n');
  return rows;
}
