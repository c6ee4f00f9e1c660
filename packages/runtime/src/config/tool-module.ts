import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from '@troupe/core';
import { describeReadError } from './read-text-file.js';
import { looksLikeTool, toolShapeProblem } from './tool-shape.js';

/** What loading a tool module gave: its tools, or why it gives none (`problem`, written to follow the module's path, and a `hint` when one helps). */
export type ToolModuleResult = { ok: true; tools: Tool[] } | { ok: false; problem: string; hint?: string };

/** Extensions loaded through tsx; the others through Node's own `import()`. */
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);

/**
 * Loads a graph's tool module (`tools: [{ module: ./tools/weather.ts }]`) and returns the tools it
 * exports: its default export (one tool or a list of tools) and every named export that is a
 * tool; other named exports (helpers, schemas) are left alone, and a tool exported twice counts
 * once. TypeScript is loaded with tsx, which compiles it in memory (no build step, no loader flag,
 * and only for these imports: the process's own module loading is unchanged).
 *
 * Never throws for a bad module: a missing file, one that fails to load, one that exports no
 * tool or something that is not a valid tool (see `toolShapeProblem`) is a `problem`, written to
 * follow the module's path (`tool module ./tools/weather.ts: exports no tool`).
 */
export async function loadToolModule(file: string): Promise<ToolModuleResult> {
  const extension = extname(file);
  if (!TYPESCRIPT.has(extension) && !JAVASCRIPT.has(extension)) {
    return { ok: false, problem: 'is not a TypeScript or JavaScript file', hint: 'name a .ts, .mts, .cts, .js, .mjs or .cjs file' };
  }
  try {
    if (!(await stat(file)).isFile()) return { ok: false, problem: 'is a directory, not a file' };
  } catch (error) {
    return { ok: false, problem: describeReadError(error), hint: `looked for ${file}; the path is relative to the graph file` };
  }
  let namespace: Record<string, unknown>;
  try {
    const url = pathToFileURL(file).href;
    namespace = (TYPESCRIPT.has(extension) ? await (await typescriptLoader()).import(url, import.meta.url) : await import(url)) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, problem: `failed to load: ${loadFailure(error, file)}` };
  }
  return toolsOf(exportsOf(namespace));
}

/** Imports a module through tsx's hooks. */
interface TypeScriptLoader {
  import(url: string, parentUrl: string): Promise<unknown>;
}

const TSX_NAMESPACE = 'troupe-tool-modules';
let loader: Promise<TypeScriptLoader> | undefined;

/**
 * tsx's loader for TypeScript, registered once per process under its own namespace (what
 * `tsImport` does per call): only imports made through it are compiled, and a module imported
 * twice is evaluated once, as Node does for JavaScript. The CommonJS hook serves TypeScript that
 * is compiled as CommonJS (a package without `"type": "module"`, or `.cts`). tsx is imported on
 * first use, so graphs without TypeScript modules do not pay for it at startup.
 */
function typescriptLoader(): Promise<TypeScriptLoader> {
  loader ??= Promise.all([import('tsx/cjs/api'), import('tsx/esm/api')]).then(([commonJs, esm]) => {
    commonJs.register({ namespace: TSX_NAMESPACE });
    return esm.register({ namespace: TSX_NAMESPACE });
  });
  return loader;
}

/** The tools among a module's exports, or the first problem with them. */
function toolsOf(exports: Record<string, unknown>): ToolModuleResult {
  const tools: Tool[] = [];
  const take = (value: unknown, what: string): string | undefined => {
    const problem = toolShapeProblem(value);
    if (problem !== undefined) return `${what} is not a valid tool: ${problem}`;
    const tool = value as Tool;
    const same = tools.find((t) => t.name === tool.name);
    if (same === undefined) tools.push(tool);
    else if (same !== tool) return `exports two tools named "${tool.name}"`;
    return undefined;
  };
  const fallback = exports['default'];
  if (fallback !== undefined) {
    const list: unknown[] = Array.isArray(fallback) ? fallback : [fallback];
    for (const [index, value] of list.entries()) {
      const problem = take(value, Array.isArray(fallback) ? `item ${index} of the default export` : 'the default export');
      if (problem !== undefined) return { ok: false, problem };
    }
  }
  for (const [name, value] of Object.entries(exports)) {
    if (name === 'default' || !looksLikeTool(value)) continue;
    const problem = take(value, `export "${name}"`);
    if (problem !== undefined) return { ok: false, problem };
  }
  if (tools.length === 0) {
    return { ok: false, problem: 'exports no tool', hint: 'export default defineTool({ … }) with defineTool from @troupe/tools, or export tools by name' };
  }
  return { ok: true, tools };
}

/**
 * A module's exports by name. TypeScript in a package without `"type": "module"` is compiled to
 * CommonJS, whose namespace has the whole `exports` object as `default`; with the `__esModule`
 * marker that object holds the real exports (and the real default).
 */
function exportsOf(namespace: Record<string, unknown>): Record<string, unknown> {
  const fallback = namespace['default'];
  if (typeof fallback === 'object' && fallback !== null && (fallback as { __esModule?: unknown }).__esModule === true) {
    return Object.fromEntries(Object.keys(fallback).map((key) => [key, (fallback as Record<string, unknown>)[key]]));
  }
  return namespace;
}

/** Why a module failed to load, on one line, with the place in the module when the error names it. */
function loadFailure(error: unknown, file: string): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const text = message.join('; ').slice(0, 500);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  // Frames name the module by path (tsx maps them to the source) or by URL, maybe with a query.
  const at = new RegExp(`(?:${escapeRegExp(pathToFileURL(file).href)}|${escapeRegExp(file)})(?:\\?[^:\\s)]*)?:(\\d+):(\\d+)`).exec(stack);
  return at === null || text.includes(`${file}:`) ? text : `${text} (at line ${at[1]}, column ${at[2]})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
