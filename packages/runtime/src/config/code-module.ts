import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeReadError } from './read-text-file.js';

/** What importing a graph's code module gave: its exports by name, or why it gives none (`problem`, written to follow the module's path, and a `hint` when one helps). */
export type CodeModuleResult = { ok: true; exports: Record<string, unknown> } | { ok: false; problem: string; hint?: string };

/**
 * Imports a module a graph file names (a tool module, a guardrail module): TypeScript through tsx,
 * which compiles it in memory (no build step, no loader flag, and only for these imports: the
 * process's own module loading is unchanged), JavaScript through Node's own `import()`. Never
 * throws: a file that is not TypeScript or JavaScript, a missing file, a directory or one that
 * fails to load is a `problem`.
 */
export async function importCodeModule(file: string): Promise<CodeModuleResult> {
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
  return { ok: true, exports: exportsOf(namespace) };
}

/** Extensions loaded through tsx; the others through Node's own `import()`. */
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);

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
  const message = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const text = message.join('; ').slice(0, 500);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  // Frames name the module by path (tsx maps them to the source) or by URL, maybe with a query.
  const at = new RegExp(`(?:${escapeRegExp(pathToFileURL(file).href)}|${escapeRegExp(file)})(?:\\?[^:\\s)]*)?:(\\d+):(\\d+)`).exec(stack);
  return at === null || text.includes(`${file}:`) ? text : `${text} (at line ${at[1]}, column ${at[2]})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
