import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { abortedResult, failure } from '../tool-failure.js';
import { writeFileAtomic } from './atomic-write.js';

/** Settings of `write_file`. */
export const WRITE_FILE_SETTINGS = { ...WORKSPACE_SETTING } as const satisfies ToolSettingsSpec;

/** Arguments of write_file. */
export interface WriteFileArgs extends Record<string, unknown> {
  path: string;
  content: string;
}

/**
 * `write_file`: creates or replaces a file with the given content, creating parent directories,
 * atomically (temporary file, then rename). Confined to the workspace. Not read-only.
 */
export function createWriteFileTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('write_file', WRITE_FILE_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  return defineTool<WriteFileArgs>({
    name: 'write_file',
    label: 'Write file',
    description:
      'Create a file, or replace its whole content. Parent directories are created. Paths are relative to the workspace. To change part of a file, use edit_file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'The file, relative to the workspace.' },
        content: { type: 'string', description: 'The complete new content.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    readOnly: false,
    // The same content written again leaves the file as it was: safe to run again after a restore.
    idempotent: true,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const file = await workspace.resolve(args.path);
        const { existed } = await writeFileAtomic(await workspace.realRoot(), file, args.content, ctx.signal);
        const bytes = Buffer.byteLength(args.content);
        return { content: `${existed ? 'Replaced' : 'Created'} ${file.display} (${bytes} bytes).`, details: { path: file.display, bytes, created: !existed } };
      } catch (error) {
        if (ctx.signal.aborted) return abortedResult('write_file');
        return failure('write_file', args.path, error);
      }
    },
  });
}
