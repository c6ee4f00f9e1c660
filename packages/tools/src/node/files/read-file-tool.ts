import type { FileHandle } from 'node:fs/promises';
import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { openInside } from '../open-inside.js';
import { abortedResult, failed, failure } from '../tool-failure.js';
import { formatBytes, imageTypeOf, looksBinary } from './file-kind.js';
import { numberLines } from './numbered-lines.js';

/** Settings of `read_file`. */
export const READ_FILE_SETTINGS = {
  ...WORKSPACE_SETTING,
  maxBytes: { kind: 'positiveInteger', description: 'Most bytes of text one call returns (default 50000); the rest is paged with offset.' },
  maxLines: { kind: 'positiveInteger', description: 'Most lines one call returns when no limit is given (default 2000).' },
} as const satisfies ToolSettingsSpec;

/** Arguments of read_file. */
export interface ReadFileArgs extends Record<string, unknown> {
  path: string;
  offset?: number;
  limit?: number;
}

/** Files past this size are refused whole; images past {@link MAX_IMAGE_BYTES} too. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * `read_file`: a text file with line numbers (`cat -n` style), from `offset` (1-based line) for
 * `limit` lines, capped at `maxBytes` with a note saying which offset reads on. Images (png,
 * jpeg, gif, webp) come back as image content; other binary files are refused with a clear
 * message. Confined to the workspace. Read-only.
 */
export function createReadFileTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('read_file', READ_FILE_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  const maxBytes = settings.maxBytes ?? 50_000;
  const maxLines = settings.maxLines ?? 2000;
  return defineTool<ReadFileArgs>({
    name: 'read_file',
    label: 'Read file',
    description: `Read a text file (with line numbers) or an image. Paths are relative to the workspace. Long files are returned in pages of up to ${maxLines} lines: pass offset (1-based line) and limit to read a part.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'The file, relative to the workspace.' },
        offset: { type: 'integer', minimum: 1, description: 'The first line to read (1-based). Default 1.' },
        limit: { type: 'integer', minimum: 1, description: `How many lines to read. Default ${maxLines}.` },
      },
      required: ['path'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const file = await workspace.resolve(args.path);
        const handle = await openInside(await workspace.realRoot(), file.real, { refuseHardLinks: true, display: file.display });
        try {
          return await readOpen(handle, file.display, { offset: args.offset ?? 1, limit: args.limit ?? maxLines, maxBytes, signal: ctx.signal });
        } finally {
          await handle.close();
        }
      } catch (error) {
        if (ctx.signal.aborted) return abortedResult('read_file');
        return failure('read_file', args.path, error);
      }
    },
  });
}

/** Reads the open file `display` as read_file returns it: a page of numbered lines, or an image. */
async function readOpen(
  handle: FileHandle,
  display: string,
  page: { offset: number; limit: number; maxBytes: number; signal: AbortSignal },
): Promise<ToolResult> {
  const info = await handle.stat();
  if (info.isDirectory()) return failed(`read_file: ${display} is a directory; use list_files to see what it contains`);
  const image = imageTypeOf(display);
  const cap = image === undefined ? MAX_FILE_BYTES : MAX_IMAGE_BYTES;
  if (info.size > cap) {
    return failed(
      `read_file: ${display} is ${formatBytes(info.size)}, more than read_file reads (${formatBytes(cap)}); use search, or bash with head, tail or sed`,
    );
  }
  const bytes = await handle.readFile({ signal: page.signal });
  if (image !== undefined) {
    return {
      content: [
        { type: 'text', text: `Image ${display} (${image}, ${formatBytes(bytes.length)})` },
        { type: 'image', data: bytes.toString('base64'), mimeType: image },
      ],
      details: { path: display, mimeType: image, bytes: bytes.length },
    };
  }
  if (looksBinary(bytes)) return failed(`read_file: ${display} is a binary file (${formatBytes(bytes.length)}); read_file only reads text and images`);
  const lines = numberLines(bytes.toString('utf8'), page);
  if (lines.error !== undefined) return failed(`read_file: ${display}: ${lines.error}`);
  return { content: lines.text, details: { path: display, totalLines: lines.totalLines, from: lines.from, to: lines.to, truncated: lines.truncated } };
}
