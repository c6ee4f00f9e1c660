import { stat } from 'node:fs/promises';
import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import { globMatcher } from '../../glob.js';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { abortedResult, failed, failure } from '../tool-failure.js';
import { walk } from './walk.js';

/** Settings of `list_files`. */
export const LIST_FILES_SETTINGS = {
  ...WORKSPACE_SETTING,
  maxEntries: { kind: 'positiveInteger', description: 'Most entries one call returns (default 500).' },
} as const satisfies ToolSettingsSpec;

/** Arguments of list_files. */
export interface ListFilesArgs extends Record<string, unknown> {
  path?: string;
  pattern?: string;
  depth?: number;
}

const DEFAULT_DEPTH = 3;
/** How deep a listing with a pattern goes when no depth is given. */
const PATTERN_DEPTH = 64;
/** Entries visited before a pattern search gives up, matched or not. */
const MAX_VISITED = 100_000;

/**
 * `list_files`: the files and directories under a path (directories end in `/`), optionally only
 * those matching a glob, down to a depth. Skips `.git` and `node_modules`, does not follow
 * symbolic links, and stops at `maxEntries` with a note saying the list is cut. Paths are shown
 * relative to the workspace. Read-only.
 */
export function createListFilesTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('list_files', LIST_FILES_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  const maxEntries = settings.maxEntries ?? 500;
  return defineTool<ListFilesArgs>({
    name: 'list_files',
    label: 'List files',
    description: `List files and directories (directories end in "/"), relative to the workspace. Optionally filter with a glob pattern ("*.ts", "src/**/*.test.ts") and limit the depth (default ${DEFAULT_DEPTH} without a pattern). .git and node_modules are skipped.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The directory to list, relative to the workspace. Default: the workspace.' },
        pattern: { type: 'string', minLength: 1, description: 'A glob the listed paths (relative to path) must match; without "/" it matches file names.' },
        depth: { type: 'integer', minimum: 1, description: `How many directory levels to descend. Default ${DEFAULT_DEPTH}, or all with a pattern.` },
      },
      additionalProperties: false,
    },
    readOnly: true,
    async execute(args, ctx): Promise<ToolResult> {
      const path = args.path ?? '.';
      try {
        const dir = await workspace.resolve(path);
        if (!(await stat(dir.real)).isDirectory()) return failed(`list_files: ${dir.display} is not a directory`);
        const match = args.pattern === undefined ? undefined : globMatcher(args.pattern);
        const prefix = dir.display === '.' ? '' : `${dir.display}/`;
        const listed: string[] = [];
        let visited = 0;
        let truncated = false;
        for await (const entry of walk(dir.real, {
          root: await workspace.realRoot(),
          maxDepth: args.depth ?? (match === undefined ? DEFAULT_DEPTH : PATTERN_DEPTH),
          signal: ctx.signal,
        })) {
          if (++visited > MAX_VISITED) {
            truncated = true;
            break;
          }
          if (match !== undefined && !match(entry.path)) continue;
          if (listed.length === maxEntries) {
            truncated = true;
            break;
          }
          listed.push(`${prefix}${entry.path}${entry.kind === 'directory' ? '/' : ''}`);
        }
        let text =
          listed.length === 0 ? (match === undefined ? `${dir.display} is empty` : `no paths under ${dir.display} match ${args.pattern}`) : listed.join('\n');
        if (truncated) text += `\n\n[list cut at ${listed.length} entries; narrow it with path, pattern or depth]`;
        return { content: text, details: { path: dir.display, count: listed.length, truncated } };
      } catch (error) {
        if (ctx.signal.aborted) return abortedResult('list_files');
        return failure('list_files', path, error);
      }
    },
  });
}
