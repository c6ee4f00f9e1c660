import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { openInside } from '../open-inside.js';
import { abortedResult, failed, failure } from '../tool-failure.js';
import { writeFileAtomic } from './atomic-write.js';
import { looksBinary } from './file-kind.js';
import { mostSimilarLine } from './similar-line.js';

/** Settings of `edit_file`. */
export const EDIT_FILE_SETTINGS = { ...WORKSPACE_SETTING } as const satisfies ToolSettingsSpec;

/** Arguments of edit_file. */
export interface EditFileArgs extends Record<string, unknown> {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * `edit_file`: replaces an exact snippet of a file. The snippet must occur exactly once unless
 * `replace_all` is set; when it occurs nowhere the error names the most similar line, when it
 * occurs several times the error gives the count and the lines. A file with CRLF line ends
 * matches a snippet written with LF. Written atomically. Confined to the workspace. Not read-only.
 */
export function createEditFileTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('edit_file', EDIT_FILE_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  return defineTool<EditFileArgs>({
    name: 'edit_file',
    label: 'Edit file',
    description:
      'Replace an exact snippet of a file with new text. old_string must match the file exactly (whitespace included) and occur once; include surrounding lines to make it unique, or set replace_all to replace every occurrence. Read the file first.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'The file, relative to the workspace.' },
        old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of requiring exactly one. Default false.' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    readOnly: false,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const file = await workspace.resolve(args.path);
        const realRoot = await workspace.realRoot();
        const handle = await openInside(realRoot, file.real, { refuseHardLinks: true, display: file.display });
        const bytes = await handle.readFile({ signal: ctx.signal }).finally(() => handle.close());
        if (looksBinary(bytes)) return failed(`edit_file: ${file.display} is a binary file; edit_file only edits text`);
        const text = bytes.toString('utf8');
        if (args.old_string === args.new_string) return failed('edit_file: old_string and new_string are the same; nothing to change');
        let oldText = args.old_string;
        let newText = args.new_string;
        let at = occurrences(text, oldText);
        if (at.length === 0 && text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r\n')) {
          oldText = oldText.replaceAll('\n', '\r\n');
          newText = newText.replaceAll('\n', '\r\n');
          at = occurrences(text, oldText);
        }
        if (at.length === 0) return notFound(file.display, text, args.old_string);
        if (at.length > 1 && args.replace_all !== true) {
          const lines = at.slice(0, 10).map((index) => lineOf(text, index));
          return failed(
            `edit_file: old_string occurs ${at.length} times in ${file.display} (lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}); include more surrounding lines to make it unique, or set replace_all to replace them all`,
            { occurrences: at.length, lines },
          );
        }
        const lines = at.map((index) => lineOf(text, index));
        const updated =
          args.replace_all === true ? text.split(oldText).join(newText) : text.slice(0, at[0]) + newText + text.slice((at[0] as number) + oldText.length);
        await writeFileAtomic(realRoot, file, updated, ctx.signal);
        const count = at.length === 1 ? '1 replacement' : `${at.length} replacements`;
        return {
          content: `Edited ${file.display}: ${count} (line${lines.length === 1 ? '' : 's'} ${lines.slice(0, 10).join(', ')}).`,
          details: { path: file.display, replacements: at.length, lines },
        };
      } catch (error) {
        if (ctx.signal.aborted) return abortedResult('edit_file');
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'ENOENT') return failed(`edit_file: ${args.path} does not exist; use write_file to create a file`);
        return failure('edit_file', args.path, error);
      }
    },
  });
}

/** Start offsets of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function notFound(display: string, text: string, snippet: string): ToolResult {
  const similar = mostSimilarLine(text, snippet);
  const hint =
    similar === undefined ? 'read the file to see its current content' : `the most similar line is ${similar.line}: ${JSON.stringify(similar.text.trim())}`;
  return failed(
    `edit_file: old_string was not found in ${display}; it must match exactly, whitespace included (${hint})`,
    similar === undefined ? undefined : { similarLine: similar.line },
  );
}
