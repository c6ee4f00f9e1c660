import type { Tool } from '@troupe/core';
import { importCodeModule } from './code-module.js';
import { looksLikeTool, toolShapeProblem } from './tool-shape.js';

/** What loading a tool module gave: its tools, or why it gives none (`problem`, written to follow the module's path, and a `hint` when one helps). */
export type ToolModuleResult = { ok: true; tools: Tool[] } | { ok: false; problem: string; hint?: string };

/**
 * Loads a graph's tool module (`tools: [{ module: ./tools/weather.ts }]`, see `importCodeModule`)
 * and returns the tools it exports: its default export (one tool or a list of tools) and every
 * named export that is a tool; other named exports (helpers, schemas) are left alone, and a tool
 * exported twice counts once.
 *
 * Never throws for a bad module: a missing file, one that fails to load, one that exports no
 * tool or something that is not a valid tool (see `toolShapeProblem`) is a `problem`, written to
 * follow the module's path (`tool module ./tools/weather.ts: exports no tool`).
 */
export async function loadToolModule(file: string): Promise<ToolModuleResult> {
  const imported = await importCodeModule(file);
  return imported.ok ? toolsOf(imported.exports) : imported;
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
