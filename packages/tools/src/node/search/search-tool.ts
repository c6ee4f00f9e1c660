import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { abortedResult, failed, failure } from '../tool-failure.js';
import { confirmedMatches } from './confirmed-matches.js';
import { findExecutable } from './find-executable.js';
import { jsSearch } from './js-search.js';
import { ripgrepSearch } from './ripgrep.js';
import type { SearchOutcome, SearchQuery } from './search-match.js';

/** Settings of `search`. */
export const SEARCH_SETTINGS = {
  ...WORKSPACE_SETTING,
  maxResults: { kind: 'positiveInteger', description: 'Most matching lines one call returns (default 200).' },
  engine: { kind: 'string', values: ['auto', 'ripgrep', 'js'], description: 'auto (default): ripgrep when installed, else the JavaScript search.' },
} as const satisfies ToolSettingsSpec;

/** Arguments of search. */
export interface SearchArgs extends Record<string, unknown> {
  pattern: string;
  path?: string;
  include?: string;
  ignore_case?: boolean;
}

/**
 * `search`: lines matching a regular expression in the files under a path, as `path:line: text`,
 * optionally only in files matching a glob, case-insensitively on request, capped at
 * `maxResults` with a note. Uses ripgrep when it is on `PATH` (it also skips git-ignored files),
 * else a JavaScript search. Confined to the workspace. Read-only.
 */
export function createSearchTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('search', SEARCH_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  const maxResults = settings.maxResults ?? 200;
  const engine = settings.engine ?? 'auto';
  let ripgrep: Promise<string | undefined> | undefined;
  const findRipgrep = (): Promise<string | undefined> => (ripgrep ??= engine === 'js' ? Promise.resolve(undefined) : findExecutable('rg'));
  return defineTool<SearchArgs>({
    name: 'search',
    label: 'Search',
    description:
      'Search file contents for a regular expression. Returns matching lines as "path:line: text" (paths relative to the workspace). Narrow it with path and include (a glob such as "*.ts" or "src/**/*.{ts,tsx}"). .git and node_modules are skipped.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'A regular expression.' },
        path: { type: 'string', description: 'A directory or file to search, relative to the workspace. Default: the workspace.' },
        include: { type: 'string', minLength: 1, description: 'Only search files whose path matches this glob; without "/" it matches file names.' },
        ignore_case: { type: 'boolean', description: 'Match case-insensitively. Default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(args, ctx): Promise<ToolResult> {
      const path = args.path ?? '.';
      try {
        const target = await workspace.resolve(path);
        const query: SearchQuery = {
          pattern: args.pattern,
          ignoreCase: args.ignore_case === true,
          target: target.display,
          root: await workspace.realRoot(),
          limit: maxResults,
          signal: ctx.signal,
        };
        if (args.include !== undefined) query.include = args.include;
        const rg = await findRipgrep();
        if (engine === 'ripgrep' && rg === undefined) return failed('search: ripgrep (rg) is not installed, and this search tool is set to use only ripgrep');
        const outcome: SearchOutcome = rg === undefined ? await jsSearch(query) : await ripgrepSearch(rg, query);
        if ('error' in outcome) return failed(`search: ${outcome.error}`);
        // The JavaScript search reads every file through openInside itself; ripgrep reads by path, so its lines are confirmed the same way.
        const { matches, dropped } = rg === undefined ? { matches: outcome.matches, dropped: 0 } : await confirmedMatches(query.root, outcome.matches);
        const { truncated } = outcome;
        const details = { engine: rg === undefined ? 'js' : 'ripgrep', count: matches.length, truncated };
        const skipped = dropped === 0 ? '' : `\n\n[${dropped} file(s) with several hard links skipped: file tools do not read them]`;
        if (matches.length === 0) return { content: `No matches for /${args.pattern}/ in ${target.display}.${skipped}`, details };
        let text = matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n') + skipped;
        if (truncated) text += `\n\n[results cut at ${matches.length} matches; narrow the search with path, include or a more specific pattern]`;
        return { content: text, details };
      } catch (error) {
        if (ctx.signal.aborted) return abortedResult('search');
        return failure('search', path, error);
      }
    },
  });
}
