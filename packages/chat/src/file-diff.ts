import chalk from 'chalk';
import { highlight, supportsLanguage } from 'cli-highlight';
import { structuredPatch } from 'diff';
import { extname } from 'node:path';

/** One row of a unified diff. */
export interface DiffRow {
  kind: 'hunk' | 'add' | 'remove' | 'context';
  text: string;
}

/**
 * The unified diff a file tool call makes, from its arguments: `edit_file` replaces `old_string`
 * by `new_string`; `write_file` writes `content` (a new file: every row an addition). Undefined
 * for any other tool.
 */
export function fileDiff(toolName: string, args: Record<string, unknown>): { path: string; rows: DiffRow[] } | undefined {
  const path = typeof args['path'] === 'string' ? args['path'] : undefined;
  if (path === undefined) return undefined;
  let before: string;
  let after: string;
  if (toolName === 'edit_file' && typeof args['old_string'] === 'string' && typeof args['new_string'] === 'string') {
    before = withNewline(args['old_string']);
    after = withNewline(args['new_string']);
  } else if (toolName === 'write_file' && typeof args['content'] === 'string') {
    before = '';
    after = withNewline(args['content']);
  } else return undefined;
  const patch = structuredPatch(path, path, before, after, '', '', { context: 3 });
  const rows: DiffRow[] = [];
  for (const hunk of patch.hunks) {
    // As `diff -u` writes it: an empty side starts at line 0.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    rows.push({ kind: 'hunk', text: `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'remove' : 'context';
      rows.push({ kind, text: line.slice(1) });
    }
  }
  return { path, rows };
}

/** The diff's rows for the terminal: `+` rows green, `-` rows red, code highlighted by the file's language. */
export function renderDiff(diff: { path: string; rows: DiffRow[] }): string[] {
  const language = extname(diff.path).slice(1);
  const code = (text: string): string => (language !== '' && supportsLanguage(language) ? highlight(text, { language, ignoreIllegals: true }) : text);
  const marks: Record<DiffRow['kind'], (text: string) => string> = {
    hunk: (text) => chalk.cyan(text),
    add: (text) => `${chalk.green('+')} ${code(text)}`,
    remove: (text) => `${chalk.red('-')} ${code(text)}`,
    context: (text) => `  ${code(text)}`,
  };
  return diff.rows.map((row) => marks[row.kind](row.text));
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
