/** A fenced code block of a markdown file, with what it needs declared before it. */
export interface CodeBlock {
  /** The line of the opening fence (1-based). */
  line: number;
  /** The block's text. */
  code: string;
  /**
   * Declarations the block takes as given, from a `<!-- prelude: … -->` comment right above the
   * fence: a README sample may use a `provider` it does not build, and the reader does not see
   * the comment.
   */
  prelude: string;
}

const FENCE = /^```(\w*)\s*$/;
const PRELUDE = /^<!--\s*prelude:\s*([\s\S]*?)\s*-->\s*$/;

/** The blocks of `markdown` fenced as one of `languages` (```ts …```). */
export function codeBlocks(markdown: string, languages: readonly string[]): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && text.startsWith('```'));
    if (end === -1) break;
    if (languages.includes(open[1] ?? '')) {
      const prelude = PRELUDE.exec(lines[i - 1] ?? '')?.[1] ?? '';
      blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), prelude });
    }
    i = end;
  }
  return blocks;
}
